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
	var pts []logPoint
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
