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
