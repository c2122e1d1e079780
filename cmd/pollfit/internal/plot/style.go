package plot

import (
	"image/color"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Palette is the colour of the i-th series: Okabe and Ito's palette,
// which stays distinct for colour-blind readers and in grey.
func Palette(i int) color.Color {
	p := []color.RGBA{
		{0, 114, 178, 255},   // blue
		{213, 94, 0, 255},    // vermilion
		{0, 158, 115, 255},   // bluish green
		{204, 121, 167, 255}, // reddish purple
		{230, 159, 0, 255},   // orange
		{86, 180, 233, 255},  // sky blue
		{120, 120, 120, 255}, // grey
		{0, 0, 0, 255},       // black
	}
	return p[((i%len(p))+len(p))%len(p)]
}

// sans is the font variant of every text: Liberation Sans, which browsers
// without it replace by their own sans-serif.
const sans = "Sans"

var (
	grey     = color.RGBA{90, 90, 90, 255}
	gridGrey = color.RGBA{225, 225, 225, 255}
)

// newFigure starts a picture with the house style: title, axis labels,
// a light grid, legend top right.
func newFigure(title, xlabel, ylabel string) *Figure {
	p := gplot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(12.5)
	p.X.Label.Text, p.Y.Label.Text = xlabel, ylabel
	for _, a := range []*gplot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(11)
		a.Tick.Label.Font.Size = vg.Points(10)
		a.Padding = 0
	}
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(9.5)
	p.Legend.ThumbnailWidth = vg.Points(18)
	for _, f := range []*font.Font{&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font,
		&p.X.Tick.Label.Font, &p.Y.Tick.Label.Font, &p.Legend.TextStyle.Font} {
		f.Variant = sans
	}
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = gridGrey, gridGrey
	g.Vertical.Width, g.Horizontal.Width = vg.Points(0.5), vg.Points(0.5)
	p.Add(g)
	return &Figure{Plot: p, Title: title}
}

// logTimeX makes the x axis a log-time axis over [lo, hi] seconds.
func logTimeX(p *gplot.Plot, lo, hi float64) {
	lo, hi = logRange(lo, hi)
	p.X.Scale = gplot.LogScale{}
	p.X.Tick.Marker = LogTimeTicks{}
	p.X.Min, p.X.Max = lo, hi
}

// logRange widens [lo, hi] to a valid, slightly padded log range.
func logRange(lo, hi float64) (float64, float64) {
	if !(lo > 0) || math.IsInf(lo, 0) {
		lo = 1e-3
	}
	if !(hi > lo) || math.IsInf(hi, 0) {
		hi = lo * 10
	}
	return lo / 1.15, hi * 1.15
}

func lineStyle(i int, width float64, dashed bool) draw.LineStyle {
	ls := draw.LineStyle{Color: Palette(i), Width: vg.Points(width)}
	if dashed {
		ls.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return ls
}

// xy turns slices into plotter points, dropping non-finite values and,
// on log axes, values that are not positive.
func xy(x, y []float64, logX, logY bool) plotter.XYs {
	n := min(len(x), len(y))
	pts := make(plotter.XYs, n)
	for i := range pts {
		pts[i] = plotter.XY{X: x[i], Y: y[i]}
	}
	return clean(pts, logX, logY)
}

// clean drops, in place, the points with a non-finite coordinate or, on
// a log axis, one that is not positive.
func clean(pts plotter.XYs, logX, logY bool) plotter.XYs {
	out := pts[:0]
	for _, p := range pts {
		if !finite(p.X) || !finite(p.Y) || (logX && p.X <= 0) || (logY && p.Y <= 0) {
			continue
		}
		out = append(out, p)
	}
	return out
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// addLine draws pts as a polyline and records it.
func (f *Figure) addLine(name string, pts plotter.XYs, ls draw.LineStyle) {
	if len(pts) == 0 {
		return
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return
	}
	l.LineStyle = ls
	f.Plot.Add(l)
	if name != "" {
		f.legend(name, l)
	}
	f.add(name, Line, len(pts))
}

// addPoints draws one glyph per point and records them.
func (f *Figure) addPoints(name string, pts plotter.XYs, c color.Color, shape draw.GlyphDrawer, radius float64) {
	if len(pts) == 0 {
		return
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return
	}
	s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(radius), Shape: shape}
	f.Plot.Add(s)
	if name != "" {
		f.legend(name, s)
	}
	f.add(name, Points, len(pts))
}

// addRules draws a full-height vertical line at each x, labelled in the
// legend by name.
func (f *Figure) addRules(name string, xs []float64, ls draw.LineStyle, logX bool) {
	var kept []float64
	for _, x := range xs {
		if finite(x) && (!logX || x > 0) {
			kept = append(kept, x)
		}
	}
	if len(kept) == 0 {
		return
	}
	r := &rules{xs: kept, style: ls}
	f.Plot.Add(r)
	if name != "" {
		f.legend(name, r)
	}
	f.add(name, Rules, len(kept))
}

// rules is a plotter of vertical lines spanning the data area.
type rules struct {
	xs    []float64
	style draw.LineStyle
	// frac is the height of each line as a share of the area, from the
	// bottom: 1 for rules, small for a rug of ticks.
	frac float64
}

func (r *rules) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, _ := p.Transforms(&c)
	frac := r.frac
	if frac == 0 {
		frac = 1
	}
	top := c.Min.Y + vg.Length(frac)*(c.Max.Y-c.Min.Y)
	for _, x := range r.xs {
		X := trX(x)
		if X < c.Min.X || X > c.Max.X {
			continue
		}
		c.StrokeLine2(r.style, X, c.Min.Y, X, top)
	}
}

// Thumbnail draws the legend entry: a short horizontal line.
func (r *rules) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(r.style, c.Min.X, y, c.Max.X, y)
}

// addTicks draws a rug of short ticks at the bottom of the data area.
func (f *Figure) addTicks(name string, xs []float64, ls draw.LineStyle, logX bool) {
	var kept []float64
	for _, x := range xs {
		if finite(x) && (!logX || x > 0) {
			kept = append(kept, x)
		}
	}
	if len(kept) == 0 {
		return
	}
	r := &rules{xs: kept, style: ls, frac: 0.06}
	f.Plot.Add(r)
	if name != "" {
		f.legend(name, r)
	}
	f.add(name, Ticks, len(kept))
}
