package fit

import (
	"math"
	"slices"

	"github.com/pollfit/pollfit/internal/radix"
)

// sortNonNegative sorts xs, which must hold no negative numbers or NaNs,
// in place. For large slices it radix-sorts the IEEE 754 bit patterns,
// which order like the numbers themselves when the sign bit is clear:
// replay sorts a million lags per schedule, and this is several times
// faster than a comparison sort.
func sortNonNegative(xs []float64) {
	const small = 1 << 12
	if len(xs) < small {
		slices.Sort(xs)
		return
	}
	keys := make([]uint64, len(xs))
	for i, x := range xs {
		keys[i] = math.Float64bits(x)
	}
	radix.Sort[struct{}](keys, nil)
	for i, k := range keys {
		xs[i] = math.Float64frombits(k)
	}
}

// sortLagWeights sorts pairs by lag into the order that
// slices.SortFunc(pairs, by cmpFloat of the lags) gives, weights and
// all. A sorted list is unique but for the order of pairs of equal lag,
// which only matters when their weights differ (the sums over the list
// then add in another order); so large lists are radix-sorted (see
// sortNonNegative), and the comparison sort runs only when that finds
// two pairs of equal lag with other weights, or a lag that is negative,
// NaN or −0.
func sortLagWeights(pairs []lagWeight) {
	const small = 1 << 12
	if len(pairs) < small || !radixLagWeights(pairs) {
		slices.SortFunc(pairs, func(a, b lagWeight) int { return cmpFloat(a.lag, b.lag) })
	}
}

// radixLagWeights radix-sorts pairs by the bit patterns of their lags,
// stably, and reports whether that is the order the comparison sort
// gives; when it is not, pairs is left as it was.
func radixLagWeights(pairs []lagWeight) bool {
	keys, ws := make([]uint64, len(pairs)), make([]float64, len(pairs))
	for i, p := range pairs {
		var ok bool
		if keys[i], ok = radix.FloatKey(p.lag); !ok {
			return false // negative, −0 or NaN: the bits do not order it
		}
		ws[i] = p.w
	}
	radix.Sort(keys, ws)
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] && ws[i] != ws[i-1] {
			return false // a tie the comparison sort may order otherwise
		}
	}
	for i, k := range keys {
		pairs[i] = lagWeight{math.Float64frombits(k), ws[i]}
	}
	return true
}
