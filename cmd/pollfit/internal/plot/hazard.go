package plot

import (
	"image/color"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// Curve is a named series of points.
type Curve struct {
	Name string
	X, Y []float64
	// Steps draws the curve as a staircase: Y[i] holds from X[i] to
	// X[i+1] (the last value to the axis' end).
	Steps bool
	// Dashed draws it dashed.
	Dashed bool
	// Points draws a glyph at each point instead of a line.
	Points bool
	// Colour is the curve's colour; nil picks the palette's by position.
	Colour color.Color
}

// AskRate returns the ask rate of a list of asks (ages in seconds,
// increasing) as a step function: from each ask to the next, the rate
// 1/gap in asks per second. Ties are skipped. Draw it as a Curve with
// Steps set.
func AskRate(asks []float64) (t, r []float64) {
	for i := 0; i+1 < len(asks); i++ {
		if gap := asks[i+1] - asks[i]; gap > 0 && finite(gap) {
			t = append(t, asks[i])
			r = append(r, 1/gap)
		}
	}
	return t, r
}

// Hazard draws, on log–log axes in the same unit (per second), the hazard
// h(t) of the settle time (the rate of final answers among items still
// waiting at age t) and the ask rates r(t) of schedules: the optimiser's
// continuous rate, the gaps of the fitted and optimal asks. The fitted
// schedule's asks are drawn as a rug of ticks along the bottom; asks is
// nil to leave it out.
func Hazard(t, h []float64, rates []Curve, asks []float64) *Figure {
	fig := newFigure("Hazard and ask rate", "age", "per second (log scale)")
	xs := [][]float64{t, asks}
	for _, c := range rates {
		xs = append(xs, c.X)
	}
	lo, hi := xRange(true, xs...)
	ylo, yhi := xRange(true, h)
	for _, c := range rates {
		a, b := xRange(true, c.Y)
		if finite(a) {
			ylo, yhi = minNaN(ylo, a), maxNaN(yhi, b)
		}
	}
	if !finite(ylo) {
		ylo, yhi = 1e-3, 1
	}
	// Hazards fall towards zero in the tails; show four decades below
	// the top at most.
	ylo = max(ylo, yhi*1e-4)
	ylo, yhi = ylo/1.5, yhi*1.5 // the legend is under the picture, not above the curves
	hz := clipY(xy(t, h, true, true), ylo)
	fig.addLine("hazard h(t)", thin(hz, lo, hi, ylo, yhi, true, true), lineStyle(7, 1.5, false))
	for i, c := range rates {
		fig.addCurve(c, i, lo, hi, ylo, yhi, true, true)
	}
	if len(asks) > 0 {
		fig.addTicks("asks (fitted)", asks, lineStyle(0, 0.8, false), true)
	}
	logTimeX(fig.Plot, lo, hi)
	fig.Plot.Y.Scale = logScale{}
	fig.Plot.Y.Tick.Marker = logTicks{}
	fig.Plot.Y.Min, fig.Plot.Y.Max = ylo, yhi
	return fig
}

// addCurve draws c in colour i, as steps if asked, thinned.
func (f *Figure) addCurve(c Curve, i int, x0, x1, y0, y1 float64, logX, logY bool) {
	x := c.X
	if c.Steps && logX {
		// A step from age 0 starts at the axis' left edge.
		x = make([]float64, len(c.X))
		for k, v := range c.X {
			x[k] = v
			if v <= x0 {
				x[k] = x0
			}
		}
	}
	pts := xy(x, c.Y, logX, logY)
	ls := lineStyle(i, 1.3, c.Dashed)
	if c.Colour != nil {
		ls.Color = c.Colour
	}
	if c.Points {
		f.addPoints(c.Name, pts, ls.Color, draw.CircleGlyph{}, 1.6)
		return
	}
	if c.Steps {
		pts = stepsOf(pts, x1)
	}
	if logY {
		pts = clipY(pts, y0)
	}
	f.addLine(c.Name, thin(pts, x0, x1, y0, y1, logX, logY), ls)
}

// stepsOf turns points into the vertices of a staircase holding each
// value until the next point's x (the last one until end).
func stepsOf(pts plotter.XYs, end float64) plotter.XYs {
	out := make(plotter.XYs, 0, 2*len(pts))
	for i, p := range pts {
		out = append(out, p)
		next := end
		if i+1 < len(pts) {
			next = pts[i+1].X
		}
		if next > p.X {
			out = append(out, plotter.XY{X: next, Y: p.Y})
		}
	}
	return out
}

// clipY drops the points below lo at either end, so that a curve
// rising from zero starts where it enters a log axis rather than as a
// flat stub along its bottom, and raises the values below lo between
// them to lo, so a dip off the axis is drawn along it instead of cut.
func clipY(pts plotter.XYs, lo float64) plotter.XYs {
	i, j := 0, len(pts)
	for i < j && !(pts[i].Y >= lo) {
		i++
	}
	for j > i && !(pts[j-1].Y >= lo) {
		j--
	}
	pts = pts[i:j]
	for k := range pts {
		pts[k].Y = max(pts[k].Y, lo)
	}
	return pts
}

func minNaN(a, b float64) float64 {
	if math.IsNaN(a) {
		return b
	}
	return min(a, b)
}

func maxNaN(a, b float64) float64 {
	if math.IsNaN(a) {
		return b
	}
	return max(a, b)
}
