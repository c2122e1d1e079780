package fit

import (
	"math"
	"slices"
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
	tmp := make([]uint64, len(xs))
	var or uint64
	for i, x := range xs {
		keys[i] = math.Float64bits(x)
		or |= keys[i]
	}
	const bits = 16
	var count [1 << bits]int
	for shift := uint(0); shift < 64; shift += bits {
		if (or>>shift)&(1<<bits-1) == 0 {
			continue // every key has zeros in this digit
		}
		clear(count[:])
		for _, k := range keys {
			count[(k>>shift)&(1<<bits-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i], sum = sum, sum+c
		}
		for _, k := range keys {
			d := (k >> shift) & (1<<bits - 1)
			tmp[count[d]] = k
			count[d]++
		}
		keys, tmp = tmp, keys
	}
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
	type keyed struct {
		k uint64
		w float64
	}
	keys := make([]keyed, len(pairs))
	and, or := ^uint64(0), uint64(0)
	for i, p := range pairs {
		k := math.Float64bits(p.lag)
		if k>>63 != 0 || math.IsNaN(p.lag) {
			return false // negative, −0 or NaN: the bits do not order it
		}
		keys[i] = keyed{k, p.w}
		and, or = and&k, or|k
	}
	tmp := make([]keyed, len(keys))
	const bits = 11
	var count [1 << bits]int
	for shift := uint(0); shift < 64; shift += bits {
		if ((and^or)>>shift)&(1<<bits-1) == 0 {
			continue // every key has the same digit here
		}
		clear(count[:])
		for _, x := range keys {
			count[(x.k>>shift)&(1<<bits-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i], sum = sum, sum+c
		}
		for _, x := range keys {
			d := (x.k >> shift) & (1<<bits - 1)
			tmp[count[d]] = x
			count[d]++
		}
		keys, tmp = tmp, keys
	}
	for i := 1; i < len(keys); i++ {
		if keys[i].k == keys[i-1].k && keys[i].w != keys[i-1].w {
			return false // a tie the comparison sort may order otherwise
		}
	}
	for i, x := range keys {
		pairs[i] = lagWeight{math.Float64frombits(x.k), x.w}
	}
	return true
}
