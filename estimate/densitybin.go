package estimate

import "math"

// A logPoint is a piece of probability mass on the log-age axis: at lo
// when lo == hi, otherwise spread uniformly in age (not log age) over
// [e^lo, e^hi], as for an age rounded to a whole second.
type logPoint struct{ lo, hi, w float64 }

// densityPoints turns Kaplan–Meier jumps (ages t, masses m, events ev)
// into log-axis points. Ages with a resolution are spread over their
// rounding interval, ±res/2; heavily tied ages (see tieGrid), which say
// only that the answer came between checks, over the cell halfway to the
// neighbouring ages on each side.
func densityPoints(t, m, ev []float64, res float64) []logPoint {
	tied := tieGrid(t, ev) > 0
	pts := make([]logPoint, 0, len(t))
	for i, ti := range t {
		if !(m[i] > 0) {
			continue
		}
		lo, hi := ti, ti
		switch {
		case tied:
			lo = ti - res/2
			if i > 0 {
				lo = (t[i-1] + ti) / 2
			}
			hi = ti + res/2
			if i+1 < len(t) {
				hi = (ti + t[i+1]) / 2
			}
		case res > 0:
			lo, hi = ti-res/2, ti+res/2
		}
		lo = max(lo, minDensityAge)
		hi = max(hi, lo)
		pts = append(pts, logPoint{math.Log(lo), math.Log(hi), m[i]})
	}
	return pts
}

func pointsRange(pts []logPoint) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		lo, hi = min(lo, p.lo), max(hi, p.hi)
	}
	return lo, hi
}

// binPoints spreads the points' mass over n grid points x0 + i·dx: a
// point mass by linear binning between its two neighbours, an interval
// by the share of its age range falling in each grid cell.
func binPoints(pts []logPoint, x0, dx float64, n int) []float64 {
	g := make([]float64, n)
	for _, p := range pts {
		if p.hi == p.lo {
			linearBin(g, (p.lo-x0)/dx, p.w)
			continue
		}
		a, b := math.Exp(p.lo), math.Exp(p.hi)
		first := max(0, int(math.Floor((p.lo-x0)/dx+0.5)))
		last := min(n-1, int(math.Floor((p.hi-x0)/dx+0.5)))
		for j := first; j <= last; j++ {
			cl := math.Exp(x0 + (float64(j)-0.5)*dx)
			ch := math.Exp(x0 + (float64(j)+0.5)*dx)
			if ov := min(b, ch) - max(a, cl); ov > 0 {
				g[j] += p.w * ov / (b - a)
			}
		}
	}
	return g
}

func linearBin(g []float64, u, w float64) {
	n := len(g)
	i := int(math.Floor(u))
	f := u - float64(i)
	switch {
	case i < 0:
		g[0] += w
	case i >= n-1:
		g[n-1] += w
	default:
		g[i] += w * (1 - f)
		g[i+1] += w * f
	}
}

// ResolutionFactor is how many times the ages' resolution on the
// log-age axis a bandwidth chosen from the data is at least, when that
// resolution is finer than ISJ's grid resolves. The ages lie on a grid
// when the distinct ages hold two or more items each on average
// (effective observations per point): ages rounded to the millisecond,
// or a sketch's bins (0.23% wide) at their mean ages. The resolution is
// the median, weighted by mass, of the gaps on the log-age axis between
// consecutive distinct ages (the centres of ages spread over their
// cells). When it is under ResolutionFactor cells of ISJ's grid (4096
// cells over the ages' log span and a tenth more each side), the comb
// aliases on that grid and ISJ fits it, not the law: 0.0005 on 10M
// ages rounded to the millisecond, where 10k give 0.17. A kernel of
// ResolutionFactor gaps leaves no trace of the comb (a ripple of order
// exp(−2π²·16)). A coarser grain (whole seconds, spread over their
// second first) is resolved, and no floor applies.
const ResolutionFactor = 4

// resolutionFloor is ResolutionFactor times the ages' resolution on the
// log-age axis when the points pts lie on a grid finer than
// ResolutionFactor cells of step (see ResolutionFactor), 0 otherwise.
func resolutionFloor(pts []logPoint, nEff, step float64) float64 {
	var gaps, w []float64
	for i := 1; i < len(pts); i++ {
		a, b := (pts[i-1].lo+pts[i-1].hi)/2, (pts[i].lo+pts[i].hi)/2
		if b > a {
			gaps, w = append(gaps, b-a), append(w, pts[i-1].w)
		}
	}
	if len(gaps) < 2 || nEff < 2*float64(len(gaps)+1) {
		return 0
	}
	if g := weightedQuantile(gaps, w, 0.5); g < ResolutionFactor*step {
		return ResolutionFactor * g
	}
	return 0
}
