package estimate

import "math"

// quantileTol is R's default tolerance for matching a flat stretch of
// the curve, sqrt(.Machine$double.eps).
const quantileTol = 1.4901161193847656e-08

// Quantile returns the age by which a share p of items have had their
// final answer: the smallest t with 1 − S(t) ≥ p, following R's
// survival::quantile.survfit. Where the curve is flat at exactly 1 − p
// (within 1.5e−8), it returns the midpoint of the flat stretch, which
// ends at the next drop or, at the end of the curve, at the last observed
// age. Quantile(0) is 0. It returns NaN when the curve never reaches p
// (too many items still pending) or p is outside [0, 1].
func (s *Survival) Quantile(p float64) float64 {
	return findQuantile(s.Time, s.Surv, s.End(), p)
}

// Quantiles returns Quantile(p) for each p in ps.
func (s *Survival) Quantiles(ps []float64) []float64 {
	q := make([]float64, len(ps))
	for i, p := range ps {
		q[i] = s.Quantile(p)
	}
	return q
}

// QuantileBand returns a confidence interval for Quantile(p) at the
// given level (0.95 when 0), as R's quantile.survfit does: the same rule
// applied to the lower and the upper pointwise band of S (see Band). An
// end is NaN where its band never reaches p.
func (s *Survival) QuantileBand(p, level float64, typ ConfType) (lo, hi float64) {
	// Band at each age, without searching for it: KaplanMeier gives each
	// distinct age one index, so the estimate at Time[i] is index i's.
	lower, upper := make([]float64, len(s.Time)), make([]float64, len(s.Time))
	z := confZ(level)
	for i := range s.Time {
		lower[i], upper[i] = band(s.Surv[i], math.Sqrt(s.greenwood[i]), z, typ)
	}
	return findQuantile(s.Time, lower, s.End(), p), findQuantile(s.Time, upper, s.End(), p)
}

// findQuantile is R's findq on the curve F = 1 − surv over times, whose
// last observed age is end.
func findQuantile(times, surv []float64, end, p float64) float64 {
	if !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	if p == 0 {
		return 0
	}
	// The curve as findq sees it: (0, 0) then each age at which F first
	// takes a new value.
	x := []float64{0}
	y := []float64{0}
	for i, t := range times {
		if F := 1 - surv[i]; F != y[len(y)-1] {
			x, y = append(x, t), append(y, F)
		}
	}
	i1 := firstAtLeast(y, p, quantileTol)
	if i1 < 0 {
		return math.NaN()
	}
	if math.Abs(p-y[len(y)-1]) < quantileTol {
		return (x[i1] + end) / 2 // flat at p up to the end of the curve
	}
	// i2 ≥ 0: y[len(y)−1] > p + tol here.
	return (x[i1] + x[firstAtLeast(y, p, -quantileTol)]) / 2
}

// firstAtLeast returns the first i with y[i]+tol ≥ p, or −1.
func firstAtLeast(y []float64, p, tol float64) int {
	for i, v := range y {
		if v+tol >= p {
			return i
		}
	}
	return -1
}
