package estimate

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// TestJumpsSpan: the jumps in a window [lo, hi] are those a walk over
// every age counts, on sorted ages with ties, for windows whose ends are
// on ages, between them, around and beyond them.
func TestJumpsSpan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := range 40 {
		ts := sortedAges(rng, n, 30)
		j := &jumps{t: ts}
		for range 200 {
			lo := float64(rng.IntN(36)-3) / 2
			hi := lo + float64(rng.IntN(12))/4
			first, end := n, n
			for x := n - 1; x >= 0; x-- {
				if ts[x] >= lo {
					first = x
				}
				if ts[x] > hi {
					end = x
				}
			}
			if i, k := j.span(lo, hi); i != first || k != max(first, end) {
				t.Fatalf("ages %v window [%v, %v]: [%d, %d), want [%d, %d)", ts, lo, hi, i, k, first, max(first, end))
			}
		}
	}
}

// TestBoundWalksAsItBisects: a bound asked for the ends of windows in
// any order, growing, falling or repeating, finds the indices a
// bisection of the whole does.
func TestBoundWalksAsItBisects(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for n := range 30 {
		ts := sortedAges(rng, n, 20)
		var b bound
		x := -1.0
		for range 300 {
			if rng.IntN(4) == 0 {
				x -= float64(rng.IntN(8)) / 4 // mostly growing, now and then falling
			} else {
				x += float64(rng.IntN(3)) / 4
			}
			want := sort.SearchFloat64s(ts, x)
			if got := b.at(ts, x); got != want {
				t.Fatalf("ages %v: at(%v) = %d, want %d", ts, x, got, want)
			}
		}
	}
}

// sortedAges are n ages of half seconds below steps/2, sorted, with ties.
func sortedAges(rng *rand.Rand, n, steps int) []float64 {
	ts := make([]float64, n)
	for i := range ts {
		ts[i] = float64(rng.IntN(steps)) / 2
	}
	sort.Float64s(ts)
	return ts
}
