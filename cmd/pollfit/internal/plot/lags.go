package plot

import (
	"math"
)

// Lags draws the lag distributions of schedules on a log-time axis: for
// each, the share of detected items seen within a given lag (the time
// from the final answer to the ask that sees it). Each curve's X are
// lags in seconds and Y the cumulative shares, as ECDF returns them
// (Steps set) or a few percentiles (Steps unset: drawn as a line with
// points). Lags of zero (an ask at the very age of the answer) are drawn
// at the axis' left edge.
func Lags(curves []Curve) *Figure {
	fig := newFigure("Lag: how late each schedule notices", "lag (answer to the ask that sees it)", "share of detected items")
	xs := make([][]float64, len(curves))
	for i, c := range curves {
		xs[i] = c.X
	}
	lo, hi := xRange(true, xs...)
	if !finite(lo) {
		lo, hi = 1e-3, 1
	}
	lo = max(lo, hi*1e-6)
	lo, hi = logRange(lo, hi)
	for i, c := range curves {
		x := make([]float64, len(c.X))
		for k, v := range c.X {
			x[k] = v
			if v <= lo && finite(v) {
				x[k] = lo // zero lags at the left edge
			}
		}
		cc := c
		cc.X = x
		if c.Steps {
			// An ECDF steps up at each x: hold the previous share until it.
			cc.X, cc.Y = stepUp(x, c.Y, lo)
			cc.Steps = false
		}
		fig.addCurve(cc, i, lo, hi, 0, 1, true, false)
	}
	fig.Plot.X.Scale = logScale{}
	fig.Plot.X.Tick.Marker = LogTimeTicks{}
	fig.Plot.X.Min, fig.Plot.X.Max = lo, hi
	fig.Plot.Y.Min, fig.Plot.Y.Max = 0, 1.02
	fig.Plot.Legend.Top, fig.Plot.Legend.Left = false, false
	return fig
}

// stepUp returns the vertices of an ECDF rising to y[i] at x[i], from 0
// at start.
func stepUp(x, y []float64, start float64) (px, py []float64) {
	prev := 0.0
	px, py = append(px, start), append(py, 0)
	for i := range x {
		if math.IsNaN(x[i]) {
			continue
		}
		px, py = append(px, x[i], x[i]), append(py, prev, y[i])
		prev = y[i]
	}
	return px, py
}
