package fit

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortLagWeightsKeepsIndexOrder checks the lag-weight sort against
// the way weightedLagStats sorted before: a list of indices sorted by
// lag, read back. The pairs must come out in the very same order, so
// that every sum over them, and every figure of a replay, is unchanged
// to the last bit: on distinct lags, on ties of equal weights (which the
// radix sort keeps), on ties of other weights and on −0 (which send it
// to the comparison sort), small and large.
func TestSortLagWeightsKeepsIndexOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	cases := []struct {
		name string
		lag  func(i int) float64
		w    func(i int) float64
	}{
		{"distinct lags", func(int) float64 { return rng.ExpFloat64() * 30 }, func(int) float64 { return 1 + rng.Float64() }},
		{"ties, one weight", func(int) float64 { return float64(rng.IntN(3000)) / 1000 }, func(int) float64 { return 4.25 }},
		{"ties, weights by lag", func(i int) float64 { return float64(i%997) / 8 }, func(i int) float64 { return float64(i%997) + 0.5 }},
		{"ties, other weights", func(int) float64 { return float64(rng.IntN(40)) / 4 }, func(int) float64 { return rng.Float64() }},
		{"a −0 among them", func(i int) float64 {
			if i == 5 {
				return math.Copysign(0, -1)
			}
			return float64(rng.IntN(50))
		}, func(int) float64 { return 2 }},
		{"zeros and huge lags", func(i int) float64 { return float64(i%3) * math.MaxFloat64 / 3 }, func(int) float64 { return 1 }},
	}
	for _, c := range cases {
		for _, n := range []int{1, 13, 4095, 4096, 40000} {
			pairs := make([]lagWeight, n)
			for i := range pairs {
				pairs[i] = lagWeight{c.lag(i), c.w(i)}
			}
			idx := make([]int, n)
			for i := range idx {
				idx[i] = i
			}
			slices.SortFunc(idx, func(a, b int) int { return cmpFloat(pairs[a].lag, pairs[b].lag) })
			want := make([]lagWeight, n)
			for k, i := range idx {
				want[k] = pairs[i]
			}
			got := slices.Clone(pairs)
			sortLagWeights(got)
			for k := range want {
				if math.Float64bits(got[k].lag) != math.Float64bits(want[k].lag) || got[k].w != want[k].w {
					t.Fatalf("%s, n %d: pair %d is %v, the index sort's %v", c.name, n, k, got[k], want[k])
				}
			}
		}
	}
}

// TestRadixLagWeightsDeclines: the radix sort refuses, leaving the pairs
// as they were, exactly where its order could differ from the
// comparison sort's.
func TestRadixLagWeightsDeclines(t *testing.T) {
	tie := []lagWeight{{2, 1}, {1, 5}, {2, 3}}
	if radixLagWeights(slices.Clone(tie)) {
		t.Error("two lags of 2 with weights 1 and 3: radix sort accepted, want refused")
	}
	neg := []lagWeight{{2, 1}, {math.Copysign(0, -1), 1}}
	got := slices.Clone(neg)
	if radixLagWeights(got) || !slices.Equal(got, neg) {
		t.Errorf("a −0 lag: radix sort accepted or moved the pairs (%v), want refused and %v", got, neg)
	}
	same := []lagWeight{{3, 2}, {1, 5}, {3, 2}, {0, 1}}
	if !radixLagWeights(same) || !slices.Equal(same, []lagWeight{{0, 1}, {1, 5}, {3, 2}, {3, 2}}) {
		t.Errorf("ties of one weight: got %v, want accepted and sorted", same)
	}
}
