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

// TestSameWeightLagStats: where every lag weighs the same (a sketch's
// item sample of distinct rows), weightedLagStats takes a path that
// sorts the lags alone; its figures are the pairs' sort's to the last
// bit, on distinct lags and on ties, small and large, and it leaves the
// caller's lags as they were.
func TestSameWeightLagStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 5))
	lagsOf := map[string]func() float64{
		"distinct": func() float64 { return rng.ExpFloat64() * 30 },
		"ties":     func() float64 { return float64(rng.IntN(300)) / 10 },
		"zeros":    func() float64 { return float64(rng.IntN(2)) * rng.Float64() },
	}
	for name, lag := range lagsOf {
		for _, n := range []int{1, 2, 7, 4095, 4096, 50000} {
			for _, w := range []float64{1, 1.7966666666666666, 1e-3, 3} {
				lags := make([]float64, n)
				for i := range lags {
					lags[i] = lag()
				}
				before := slices.Clone(lags)
				ws := slices.Repeat([]float64{w}, n)
				got, want := weightedLagStats(lags, ws), pairLagStats(slices.Clone(lags), ws)
				if got != want {
					t.Errorf("%s, n %d, weight %g: %+v, the pairs' sort %+v", name, n, w, got, want)
				}
				if !slices.Equal(lags, before) {
					t.Errorf("%s, n %d: the lags were reordered", name, n)
				}
			}
		}
	}
	if _, ok := oneWeight([]float64{2, 2, 2.0000001}); ok {
		t.Error("weights 2, 2 and 2.0000001 are one weight")
	}
}
