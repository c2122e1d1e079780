package fit

import (
	"testing"
)

// BenchmarkGridSolve solves the exact programme on a log's law at the
// candidates a fit starts from, at multipliers across the range a
// requests budget's search visits: the inner loop of every fit.
func BenchmarkGridSolve(b *testing.B) {
	l := newItemLaw(payments(100_000, 1))
	g := newGrid(l, Mean, candidates(l, 0, 900, 1000), 0, 0, 0)
	b.ResetTimer()
	for b.Loop() {
		for _, lambda := range []float64{0.01, 0.1, 1, 10, 100} {
			if g.solve(lambda, 0) == nil {
				b.Fatal("no path")
			}
		}
	}
}
