package estimate

import (
	"math/rand/v2"
	"testing"
)

// TestPhaseSparseAndDense: the phase histogram, sparse while few bins
// are used and dense once many, holds what a plain array of the day's
// 100 ms bins adding each item does, and so does a merge of any two;
// its used bins are that array's bins with weight, in order.
func TestPhaseSparseAndDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	fill := func(n int, a *Accumulator, want []float64) {
		for range n {
			created := int64(1_790_000_000+rng.IntN(86400*3)) * 1e9
			it := Item{Age: float64(rng.IntN(600)) + 0.1*float64(rng.IntN(10)), Status: Settled, Created: created, Dated: true}
			w := float64(1 + rng.IntN(3))
			a.AddWeighted(it, w)
			want[settlePhase(it.Created, it.Age)/phaseBinNS] += w
		}
	}
	for _, c := range []struct{ a, b int }{{10, 20}, {sparsePhase / 2, 100}, {3 * sparsePhase, 50}, {50, 3 * sparsePhase}, {sparsePhase / 2, sparsePhase}} {
		var a, b Accumulator
		want := make([]float64, nPhaseBins)
		fill(c.a, &a, want)
		check := func(name string, x *Accumulator) {
			t.Helper()
			day := x.phaseDay()
			bins, ws := x.phaseUsed()
			k := 0
			for i := range want {
				if day[i] != want[i] {
					t.Fatalf("%d+%d rows, %s: bin %d holds %v, want %v", c.a, c.b, name, i, day[i], want[i])
				}
				if want[i] == 0 {
					continue
				}
				if k >= len(bins) || int(bins[k]) != i || ws[k] != want[i] {
					t.Fatalf("%d+%d rows, %s: the %d-th used bin is not bin %d holding %v", c.a, c.b, name, k, i, want[i])
				}
				k++
			}
			if k != len(bins) {
				t.Fatalf("%d+%d rows, %s: %d bins used, want %d", c.a, c.b, name, len(bins), k)
			}
		}
		check("one", &a)
		if dense := a.phase != nil; dense != (c.a > sparsePhase) {
			t.Errorf("%d rows: dense %v", c.a, dense)
		}
		fill(c.b, &b, want)
		a.Merge(&b)
		check("merged", &a)
	}
}

// phaseDay is the phase histogram, final weight by 100 ms bin of the
// day, nil when it holds no items: the dense one, or one made from the
// sparse one.
func (a *Accumulator) phaseDay() []float64 {
	if a.phase != nil || a.phaseBins == nil {
		return a.phase
	}
	return dayOf(a.phaseBins)
}
