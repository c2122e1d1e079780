package plot

import (
	"gonum.org/v1/plot/vg/draw"
)

// Point is a labelled schedule on the frontier picture.
type Point struct {
	Name string
	// Cost is requests per item; Wait is the expected (mean) lag in
	// seconds.
	Cost, Wait float64
}

// Frontier draws the expected wait (mean lag, seconds, log axis) against
// the cost (requests per item): curves through (X: cost, Y: wait), by
// increasing cost, the first drawn solid and dark as the optimal
// frontier, the others (families such as fixed intervals or backoff)
// dashed; and schedules as labelled points, the i-th in Palette(i) as in
// Lags. A schedule on the optimal curve is as good as any at its cost; one
// above it waits longer than it needs to.
func Frontier(curves []Curve, points []Point) *Figure {
	fig := newFigure("Expected wait versus cost", "requests per item", "mean lag (log scale)")
	pc := make([]float64, len(points))
	pw := make([]float64, len(points))
	for i, p := range points {
		pc[i], pw[i] = p.Cost, p.Wait
	}
	cx, cy := [][]float64{pc}, [][]float64{pw}
	for _, c := range curves {
		cx, cy = append(cx, c.X), append(cy, c.Y)
	}
	xlo, xhi := xRange(false, cx...)
	ylo, yhi := xRange(true, cy...)
	if !finite(xlo) {
		xlo, xhi = 0, 1
	}
	xlo, xhi = max(0, xlo-0.06*(xhi-xlo+1)), xhi+0.12*(xhi-xlo+1)
	ylo, yhi = logRange(ylo, yhi)
	for i, c := range curves {
		if i == 0 {
			c.Colour = grey
			c.Dashed = false
		} else {
			c.Dashed = true
		}
		fig.addCurve(c, 3+i, xlo, xhi, ylo, yhi, false, true)
	}
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.RingGlyph{}, draw.CrossGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{}}
	// Each point is named beside it, where no other name is (see
	// pointLabels).
	labels := newPointLabels()
	for i, p := range points {
		pts := xy([]float64{p.Cost}, []float64{p.Wait}, false, true)
		if len(pts) == 0 {
			continue
		}
		fig.addPoints(p.Name, pts, Palette(i), shapes[i%len(shapes)], 4)
		labels.add(pts[0].X, pts[0].Y, p.Name)
	}
	fig.Plot.Add(labels)
	fig.Plot.X.Tick.Marker = countTicks{}
	fig.Plot.X.Min, fig.Plot.X.Max = xlo, xhi
	fig.Plot.Y.Scale = logScale{}
	fig.Plot.Y.Tick.Marker = LogTimeTicks{}
	fig.Plot.Y.Min, fig.Plot.Y.Max = ylo, yhi
	return fig
}
