package fit

import (
	"errors"
	"math"
)

// Shoot computes the optimal ask ages for a smooth settle-time density at
// a price per request, by Barlow and Proschan's recursion: minimising
// Σⱼ ∫(aⱼ − s) f(s) ds over (aⱼ₋₁, aⱼ] + price·Σⱼ S(aⱼ₋₁), the derivative
// in aⱼ vanishes when
//
//	F(aⱼ) − F(aⱼ₋₁) = f(aⱼ)·(aⱼ₊₁ − aⱼ + price),
//
// so each ask follows from the two before it. With the first ask fixed at
// first, the second is found by bisection ("shooting"): too early and the
// gaps shrink to nothing, too late and they blow up. Shoot returns the
// asks up to the age where the chance of an answer still to come falls
// below tail (a share of all items, default 1e-9 when tail ≤ 0).
//
// Shoot assumes no horizon, no interval limits, the mean objective and a
// density that is positive where the answers come; use Optimal otherwise.
func Shoot(d Density, price, first, tail float64) ([]float64, error) {
	if price <= 0 {
		return nil, errors.New("shoot: price must be positive")
	}
	if tail <= 0 {
		tail = 1e-9
	}
	total := d.CDF(math.MaxFloat64)
	if math.IsNaN(total) || total < 1-1e-9 {
		return nil, errors.New("shoot: the distribution has mass that never settles; give a horizon")
	}
	// hi: a second ask so late that the sequence does not collapse.
	lo, hi := first, first+price
	for collapses(d, price, first, hi, tail) {
		lo, hi = hi, first+2*(hi-first)
		if hi-first > 1e12 {
			return nil, errors.New("shoot: no second ask keeps the recursion going")
		}
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if collapses(d, price, first, mid, tail) {
			lo = mid
		} else {
			hi = mid
		}
	}
	asks, _ := shootFrom(d, price, first, hi, tail)
	return asks, nil
}

// collapses reports whether the recursion from a second ask at a1 breaks
// down (a gap ≤ 0) before the tail.
func collapses(d Density, price, first, a1, tail float64) bool {
	_, ok := shootFrom(d, price, first, a1, tail)
	return !ok
}

// shootFrom runs the recursion from asks first and a1 until the survival
// falls below tail; ok is false if a gap came out ≤ 0.
func shootFrom(d Density, price, first, a1, tail float64) (asks []float64, ok bool) {
	asks = []float64{first, a1}
	for len(asks) < 1_000_000 {
		n := len(asks)
		a, p := asks[n-1], asks[n-2]
		fa := d.CDF(a)
		if 1-fa < tail {
			return asks, true
		}
		dens := d.PDF(a)
		if dens <= 0 {
			return asks, true // a gap without end: as late as can be
		}
		gap := (fa-d.CDF(p))/dens - price
		if !(gap > 0) {
			return asks, false
		}
		asks = append(asks, a+gap)
	}
	return asks, true
}
