// Package radix sorts by 64-bit keys, stably, least significant digit
// first: for the long lists of ages and lags the estimators and the
// replays sort, several times faster than a comparison sort, and, being
// stable, it keeps equal keys in the order they came. It sits below
// every other package and imports none of them.
package radix

import "math"

// digit is the width of a pass, in bits: six passes cover a key, each
// with a count table that stays in the first-level cache.
const digit = 11

// Sort sorts keys into increasing order, stably, moving vals[i] (when
// vals is not nil; then as long as keys) with keys[i]. A digit every key
// shares takes no pass.
func Sort[V any](keys []uint64, vals []V) {
	if len(keys) < 2 {
		return
	}
	and, or := ^uint64(0), uint64(0)
	for _, k := range keys {
		and, or = and&k, or|k
	}
	tmpK := make([]uint64, len(keys))
	var tmpV []V
	if vals != nil {
		tmpV = make([]V, len(vals))
	}
	src, dstK := keys, tmpK
	srcV, dstV := vals, tmpV
	var count [1 << digit]int
	for shift := uint(0); shift < 64; shift += digit {
		if ((and^or)>>shift)&(1<<digit-1) == 0 {
			continue // every key has the same digit here
		}
		clear(count[:])
		for _, k := range src {
			count[(k>>shift)&(1<<digit-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i], sum = sum, sum+c
		}
		for i, k := range src {
			d := (k >> shift) & (1<<digit - 1)
			dstK[count[d]] = k
			if srcV != nil {
				dstV[count[d]] = srcV[i]
			}
			count[d]++
		}
		src, dstK = dstK, src
		srcV, dstV = dstV, srcV
	}
	if &src[0] != &keys[0] { // an odd number of passes: the sorted lists are the scratch ones
		copy(keys, src)
		copy(vals, srcV)
	}
}

// FloatKey is a key that orders non-negative numbers as they compare:
// their IEEE 754 bits, which order like the numbers when the sign bit is
// clear. ok is false for a negative number, −0 and NaN, which it does
// not order.
func FloatKey(x float64) (key uint64, ok bool) {
	k := math.Float64bits(x)
	return k, k>>63 == 0 && !math.IsNaN(x)
}
