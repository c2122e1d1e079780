package fit

import (
	"math"
	"slices"
)

// The continuous optimum (Keller's checking density). Asking at a rate
// r(t), an answer at t waits about 1/(2r) on average (1/(3r²) squared),
// and an item still waiting at t is asked r(t)dt times in dt. So
//
//	mean lag ≈ ∫ f/(2r),   requests ≈ ∫ S·r,   asks by T = ∫₀ᵀ r,
//
// and minimising lag + λ·cost pointwise gives
//
//	r = √(f / 2λS)          requests budget or price (mean lag)
//	r = ∛(2f / 3λS)          the same for mean squared lag
//	r = √(f / 2μ), ∛(2f/3μ)  asks-by budget (S replaced by 1)
//
// Interval limits clamp r to [1/max, 1/min]; the multiplier is then set
// by bisection so the schedule spends its budget (water-filling). The
// asks are placed where ∫ r reaches a whole number.

// rateShape is r(t) at unit multiplier: √(f/S) and friends.
func rateShape(d Density, l law, obj Objective, perItem bool, t float64) float64 {
	f := d.PDF(t)
	if !(f > 0) {
		return 0
	}
	w := 1.0
	if perItem {
		// Where no item is left waiting (to rounding), asking buys
		// nothing: f/S there divides rounding noise by almost nothing.
		if w = l.total() - l.F(t) + l.pend(t); w < 1e-12 {
			return 0
		}
	}
	if obj == RMS {
		return math.Cbrt(2 * f / (3 * w))
	}
	return math.Sqrt(f / (2 * w))
}

// rateAsks returns the asks of rate c·shape(t), clamped, on [first, end],
// with the last ask at end.
func rateAsks(d Density, l law, obj Objective, perItem bool, scale, first, end, minGap, maxGap float64) []float64 {
	const n = 5000
	lo, hi := 0.0, math.Inf(1)
	if maxGap > 0 {
		lo = 1 / maxGap
	}
	if minGap > 0 {
		hi = 1 / minGap
	}
	r := func(t float64) float64 {
		return math.Min(math.Max(scale*rateShape(d, l, obj, perItem, t), lo), hi)
	}
	asks := []float64{first}
	span := end - first
	// Walk a fine grid (finer near the start, where most densities
	// change fastest), accumulating ∫ r and asking at each whole number.
	prevT, prevR, acc := first, r(first), 0.0
	for k := 1; k <= n; k++ {
		x := float64(k) / n
		t := first + span*(0.5*x+0.5*x*x*x)
		rt := r(t)
		step := (t - prevT) * (prevR + rt) / 2
		for acc+step >= 1 && len(asks) <= 10_000_000 {
			// Interpolate the crossing linearly within the cell.
			frac := (1 - acc) / step
			at := prevT + frac*(t-prevT)
			asks = append(asks, at)
			step -= 1 - acc
			acc = 0
			prevT = at
		}
		acc += step
		prevT, prevR = t, rt
		if len(asks) > 10_000_000 {
			break
		}
	}
	if asks[len(asks)-1] < end {
		asks = append(asks, end)
	}
	return dedupe(asks, minGap)
}

// dedupe drops asks closer than minGap (and ties) to the one before,
// keeping the last ask.
func dedupe(asks []float64, minGap float64) []float64 {
	out := asks[:1]
	for _, a := range asks[1:] {
		if a-out[len(out)-1] > math.Max(minGap*(1-1e-9), 1e-9) {
			out = append(out, a)
		} else if a == asks[len(asks)-1] {
			out[len(out)-1] = a
		}
	}
	return slices.Clip(out)
}
