package estimate

import "math"

// turnbullEM runs the self-consistent EM on m Turnbull intervals held by
// groups: each step sets p_j ← p_j·d_j/W, where d_j = Σ_g w_g/q_g over the
// groups g holding interval j, q_g = Σ p over g's run and W = Σ w_g. It
// stops when max_j d_j/W − 1 ≤ opt.Tol, the Kuhn–Tucker conditions of
// the maximum within the tolerance, or at opt.MaxIter steps, returning
// the masses, the steps taken and the final max_j d_j/W − 1.
func turnbullEM(groups []cover, m int, opt TurnbullOptions) (p []float64, iter int, kkt float64) {
	W := 0.0
	for _, g := range groups {
		W += g.w
	}
	p = make([]float64, m)
	for j := range p {
		p[j] = 1 / float64(m)
	}
	ratio := make([]float64, m)
	cum := make([]float64, m+1)
	for iter = 0; ; iter++ {
		kkt = emRatios(groups, p, W, ratio, cum)
		if kkt <= opt.Tol || iter >= opt.MaxIter {
			return p, iter, kkt
		}
		sum := 0.0
		for j := range p {
			p[j] *= ratio[j]
			sum += p[j]
		}
		for j := range p {
			p[j] /= sum // 1 but for rounding
		}
	}
}

// emRatios sets ratio[j] = d_j/W for masses p and returns max_j ratio − 1.
// cum (length m+1) is scratch space.
func emRatios(groups []cover, p []float64, W float64, ratio, cum []float64) float64 {
	cum[0] = 0
	for j, v := range p {
		cum[j+1] = cum[j] + v
	}
	// ratio as a difference array: w/q added at first, taken off after last.
	clear(ratio)
	for _, g := range groups {
		q := cum[g.last+1] - cum[g.first]
		c := g.w / (q * W)
		ratio[g.first] += c
		if g.last+1 < len(ratio) {
			ratio[g.last+1] -= c
		}
	}
	worst, run := math.Inf(-1), 0.0
	for j := range ratio {
		run += ratio[j]
		ratio[j] = run
		worst = max(worst, run)
	}
	return worst - 1
}

// survival is the Turnbull estimate as a Survival: the Kaplan–Meier
// estimate of the data with each item that is not right-censored
// replaced by its expected share in each interval it holds (the E-step),
// at the interval's midpoint; right-censored items stay censored at
// their lower bound. At the EM's fixed point its S is 1 − the cumulative
// mass.
func (tb *Turnbull) survival(lo, hi, w []float64, groups []cover) *Survival {
	var t, wt []float64
	var final []bool
	cum := make([]float64, len(tb.Mass)+1)
	for j, v := range tb.Mass {
		cum[j+1] = cum[j] + v
	}
	for _, g := range groups {
		if g.pending {
			continue
		}
		q := cum[g.last+1] - cum[g.first]
		for j := g.first; j <= g.last; j++ {
			if e := g.w * tb.Mass[j] / q; e > 0 && !math.IsInf(tb.Hi[j], 1) {
				t, final, wt = append(t, (tb.Lo[j]+tb.Hi[j])/2), append(final, true), append(wt, e)
			}
		}
	}
	for i := range lo {
		if math.IsInf(hi[i], 1) {
			wi := 1.0
			if w != nil {
				wi = w[i]
			}
			t, final, wt = append(t, lo[i]), append(final, false), append(wt, wi)
		}
	}
	s := KaplanMeier(t, final, wt)
	s.Resolution = 0 // the ages are midpoints, not a grid
	return s
}
