package fit

import (
	"math"
)

// Objective is what the optimiser minimises at a given cost.
type Objective int

const (
	// Mean lag: the mean time from the answer to the ask that sees it.
	Mean Objective = iota
	// RMS lag: the root-mean-square lag, which punishes long waits more.
	RMS
)

// String is "mean" or "rms".
func (o Objective) String() string {
	if o == RMS {
		return "rms"
	}
	return "mean"
}

// pt is a law at one age: F, I, J and pend (see law).
type pt struct{ t, f, i, j, pend float64 }

// lagPt is the lag, summed over the items (per item of the law) that
// settle in (p, a] and are seen by the ask at a: ∫ (a − s) dF, or
// ∫ (a − s)² dF for RMS, both written with I and J by parts.
func lagPt(obj Objective, p, a pt) float64 {
	d := a.t - p.t
	if obj == RMS {
		return max(2*(a.t*(a.i-p.i)-(a.j-p.j))-p.f*d*d, 0)
	}
	return max(a.i-p.i-d*p.f, 0)
}

// firstPt is lagPt for the first ask at a: every answer at ages ≤ a.
func firstPt(obj Objective, a pt) float64 {
	if obj == RMS {
		return max(2*(a.t*a.i-a.j), 0)
	}
	return a.i
}

// askPt is the share of items asked at a when the previous ask was at p:
// final and never-settling items not yet seen at p, and pending items
// still observed at a.
func askPt(total float64, p, a pt) float64 { return total - p.f + a.pend }

// Prediction is what a schedule achieves on a distribution or log by the
// optimiser's exact integrals: the same quantities Replay measures.
type Prediction struct {
	// Lag over detected items, in seconds (percentiles are NaN when
	// predicted on a log rather than a distribution: replay the log).
	Lag LagStats
	// RMSLag is the root-mean-square lag over detected items.
	RMSLag float64
	// RequestsPerItem is the mean number of asks per item.
	RequestsPerItem float64
	// Detected is the share of items whose answer some ask sees.
	Detected float64
	// Asks is the number of asks in the schedule (up to the horizon).
	Asks int
}

// sums are the raw totals of a schedule on a law, per item.
type sums struct {
	lag, lag2, requests, detected float64
}

// evaluate sums the cost of asks (seconds, increasing) on l.
func evaluate(l law, asks []float64) sums {
	var s sums
	var p pt
	total := l.total()
	for j, t := range asks {
		a := l.at(t)
		if j == 0 {
			s.lag += firstPt(Mean, a)
			s.lag2 += firstPt(RMS, a)
			s.requests += total + a.pend
		} else {
			s.lag += lagPt(Mean, p, a)
			s.lag2 += lagPt(RMS, p, a)
			s.requests += askPt(total, p, a)
		}
		p = a
	}
	s.detected = p.f
	return s
}

// objective is the quantity minimised: summed lag or summed squared lag.
func (s sums) objective(obj Objective) float64 {
	if obj == RMS {
		return s.lag2
	}
	return s.lag
}

// predict evaluates asks on l as a Prediction; lag percentiles are
// computed when l is a distribution.
func predict(l law, asks []float64) Prediction {
	s := evaluate(l, asks)
	p := Prediction{RequestsPerItem: s.requests, Detected: s.detected, Asks: len(asks)}
	nan := math.NaN()
	p.Lag = LagStats{nan, nan, nan, nan, nan, nan}
	if s.detected <= 0 {
		p.RMSLag = nan
		return p
	}
	p.Lag.Mean = s.lag / s.detected
	p.RMSLag = math.Sqrt(s.lag2 / s.detected)
	if _, ok := l.(*distLaw); ok {
		q := func(pr float64) float64 { return lagQuantile(l, asks, s.detected, pr) }
		p.Lag.P50, p.Lag.P90, p.Lag.P95, p.Lag.P99 = q(0.5), q(0.9), q(0.95), q(0.99)
		p.Lag.Max = maxGap(l, asks)
	}
	return p
}

// lagCDF is the share of items detected with a lag ≤ x: an answer at s
// in (p, a] waits a − s, at most x when s ≥ a − x.
func lagCDF(l law, asks []float64, x float64) float64 {
	F := l.F
	if d, ok := l.(*distLaw); ok {
		F = d.fastF
	}
	var c float64
	for j, a := range asks {
		lo := a - x
		if j > 0 && lo <= asks[j-1] {
			c += F(a) - F(asks[j-1])
		} else {
			c += F(a) - F(math.Nextafter(lo, math.Inf(-1)))
		}
	}
	return c
}

// lagQuantile is the smallest lag x with lagCDF(x) ≥ pr·detected.
func lagQuantile(l law, asks []float64, detected, pr float64) float64 {
	target := pr * detected
	lo, hi := 0.0, maxGap(l, asks)
	if lagCDF(l, asks, lo) >= target {
		return 0
	}
	// To a millisecond or 1e-4 of the answer, whichever is coarser.
	for hi-lo > max(1e-3, 1e-4*hi) {
		mid := (lo + hi) / 2
		if lagCDF(l, asks, mid) >= target {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// maxGap is the longest possible lag: the longest gap between asks with
// mass in it (or the first ask, for answers near age 0).
func maxGap(l law, asks []float64) float64 {
	var g float64
	for j, a := range asks {
		p := 0.0
		if j > 0 {
			p = asks[j-1]
		}
		if l.F(a)-l.F(p) > 1e-12 || (j == 0 && l.F(a) > 1e-12) {
			g = max(g, a-p)
		}
	}
	return g
}
