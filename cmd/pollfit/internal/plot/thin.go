package plot

import (
	"math"
	"sort"

	"gonum.org/v1/plot/plotter"
)

// maxVertices bounds the vertices of one drawn curve; curves are thinned
// to the resolution a screen can show before this applies.
const maxVertices = 4000

// thin drops points that would land within a hair (1/2000 of the axis)
// of the last kept point, on axes spanning [x0, x1] and [y0, y1] (log
// scaled as flagged). The first and last points are always kept.
func thin(pts plotter.XYs, x0, x1, y0, y1 float64, logX, logY bool) plotter.XYs {
	if len(pts) <= 2 {
		return pts
	}
	nx := normaliser(x0, x1, logX)
	ny := normaliser(y0, y1, logY)
	tol := 1.0 / 2000
	for {
		out := plotter.XYs{pts[0]}
		lx, ly := nx(pts[0].X), ny(pts[0].Y)
		for i := 1; i < len(pts)-1; i++ {
			x, y := nx(pts[i].X), ny(pts[i].Y)
			if math.Abs(x-lx) >= tol || math.Abs(y-ly) >= tol {
				out = append(out, pts[i])
				lx, ly = x, y
			}
		}
		out = append(out, pts[len(pts)-1])
		if len(out) <= maxVertices {
			return out
		}
		tol *= 2
	}
}

func normaliser(lo, hi float64, log bool) func(float64) float64 {
	if log {
		a, b := math.Log(lo), math.Log(hi)
		if !(b > a) {
			b = a + 1
		}
		return func(v float64) float64 { return (math.Log(v) - a) / (b - a) }
	}
	if !(hi > lo) {
		hi = lo + 1
	}
	return func(v float64) float64 { return (v - lo) / (hi - lo) }
}

// staircase turns a right-continuous step function, value y[i] from x[i]
// on (y0 before x[0]), into the vertices of its drawing, up to xEnd.
func staircase(x, y []float64, y0, xEnd float64) plotter.XYs {
	pts := make(plotter.XYs, 0, 2*len(x)+1)
	prev := y0
	for i := range x {
		pts = append(pts, plotter.XY{X: x[i], Y: prev}, plotter.XY{X: x[i], Y: y[i]})
		prev = y[i]
	}
	if len(x) > 0 && xEnd > x[len(x)-1] {
		pts = append(pts, plotter.XY{X: xEnd, Y: prev})
	}
	return pts
}

// ECDF returns the empirical distribution of samples as a step function:
// the distinct finite values x, increasing, and the share of samples ≤
// each, y. Draw it with a step plotter such as Lags.
func ECDF(samples []float64) (x, y []float64) {
	s := make([]float64, 0, len(samples))
	for _, v := range samples {
		if finite(v) {
			s = append(s, v)
		}
	}
	sort.Float64s(s)
	n := float64(len(s))
	for i, v := range s {
		if i+1 < len(s) && s[i+1] == v {
			continue
		}
		x = append(x, v)
		y = append(y, float64(i+1)/n)
	}
	return x, y
}

// WeightedECDF is ECDF with a weight per sample (ws nil: each weighs
// 1): at each distinct finite value, the share of the total weight at
// or below it.
func WeightedECDF(samples, ws []float64) (x, y []float64) {
	if ws == nil {
		return ECDF(samples)
	}
	type sw struct{ v, w float64 }
	s := make([]sw, 0, len(samples))
	var total float64
	for i, v := range samples {
		if finite(v) && ws[i] > 0 {
			s = append(s, sw{v, ws[i]})
			total += ws[i]
		}
	}
	sort.Slice(s, func(i, j int) bool { return s[i].v < s[j].v })
	var cum float64
	for i, p := range s {
		cum += p.w
		if i+1 < len(s) && s[i+1].v == p.v {
			continue
		}
		x, y = append(x, p.v), append(y, cum/total)
	}
	return x, y
}

// xRange returns the smallest and largest of the finite values of xs
// (positive ones only if pos), or NaNs when there are none.
func xRange(pos bool, xss ...[]float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, xs := range xss {
		for _, v := range xs {
			if finite(v) && (!pos || v > 0) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return math.NaN(), math.NaN()
	}
	return lo, hi
}
