package plot

import (
	"fmt"
	"image/color"
	"sort"
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// Marks are ages, in seconds, to mark on a log-time axis.
type Marks struct {
	// Deadlines are sharp spikes (timeouts), drawn as dashed rules, and
	// Shares the share of all items each holds (nil: not said), which
	// the legend gives: a spike is a point mass the smooth curve cannot
	// show.
	Deadlines, Shares []float64
}

func (f *Figure) addMarks(m Marks) {
	if len(m.Deadlines) > 0 {
		ls := lineStyle(1, 1, true)
		f.addRules(deadlineLabel(m), m.Deadlines, ls, true)
	}
}

// deadlineLabel is the deadlines' legend entry: "deadline", with each
// one's age and share when known ("deadline 1m: 25.9% of items").
func deadlineLabel(m Marks) string {
	if len(m.Shares) != len(m.Deadlines) {
		return "deadline"
	}
	parts := make([]string, len(m.Deadlines))
	for i, age := range m.Deadlines {
		parts[i] = fmt.Sprintf("%s: %.1f%%", schedule.FormatAge(age), 100*m.Shares[i])
	}
	name := "deadline "
	if len(parts) > 1 {
		name = "deadlines "
	}
	return name + strings.Join(parts, ", ") + " of items"
}

// Density draws a settle-time density on a log-time axis: ages t in
// seconds and the density f(t) per second, drawn as t·f(t), the density
// per unit of ln(age), so that equal areas under the curve hold equal
// shares of items.
func Density(t, f []float64, m Marks) *Figure {
	fig := newFigure("Settle-time density", "age at final answer", "density per unit ln(age)")
	y := make([]float64, min(len(t), len(f)))
	for i := range y {
		y[i] = t[i] * f[i]
	}
	pts := xy(t, y, true, false)
	lo, hi := xRange(true, t)
	lo, hi = withMarks(lo, hi, m)
	ymax := 0.0
	for _, p := range pts {
		ymax = max(ymax, p.Y)
	}
	if ymax <= 0 {
		ymax = 1
	}
	pts = thin(pts, lo, hi, 0, ymax, true, false)
	ls := lineStyle(0, 1.5, false)
	fig.addLine("smoothed density", pts, ls)
	fig.addMarks(m)
	logTimeX(fig.Plot, lo, hi)
	fig.Plot.Y.Min, fig.Plot.Y.Max = 0, ymax*1.08
	return fig
}

// Survival draws the survival function S(t), the share of items without
// a final answer by age t, on a log-time axis: the Kaplan–Meier steps
// (kmT, kmS: S just after each observed age), a mark at each censoring
// age in censored (items still pending when last seen, thinned to what
// can be told apart), and optionally a smooth estimate (smoothT,
// smoothS; nil for none).
func Survival(kmT, kmS, censored, smoothT, smoothS []float64, m Marks) *Figure {
	fig := newFigure("Survival: share still waiting", "age", "share without a final answer")
	lo, hi := xRange(true, kmT, censored, smoothT)
	lo, hi = withMarks(lo, hi, m)
	steps := clean(staircase(kmT, kmS, 1, hi), true, false)
	steps = thin(steps, lo, hi, 0, 1, true, false)
	fig.addLine("Kaplan–Meier", steps, lineStyle(0, 1, false))
	if len(smoothT) > 0 {
		// Drawn over the steps it follows closely: wide and half
		// transparent, so that both stay visible.
		s := thin(xy(smoothT, smoothS, true, false), lo, hi, 0, 1, true, false)
		ls := lineStyle(2, 3.2, false)
		ls.Color = halfAlpha(ls.Color)
		fig.addLine("smoothed", s, ls)
	}
	if marks := censorMarks(kmT, kmS, censored, lo, hi); len(marks) > 0 {
		fig.addPoints("censored (pending)", marks, Palette(1), draw.PlusGlyph{}, 2.5)
	}
	fig.addMarks(m)
	logTimeX(fig.Plot, lo, hi)
	fig.Plot.Y.Min, fig.Plot.Y.Max = 0, 1.02
	return fig
}

// censorMarks places a mark at each censoring age on the Kaplan–Meier
// curve, at most one per 1/300 of the axis.
func censorMarks(kmT, kmS, censored []float64, lo, hi float64) plotter.XYs {
	c := xy(censored, censored, true, true)
	sort.Slice(c, func(i, j int) bool { return c[i].X < c[j].X })
	for i := range c {
		k := sort.SearchFloat64s(kmT, c[i].X) // first ≥ age
		if k < len(kmT) && kmT[k] == c[i].X {
			k++
		}
		c[i].Y = 1
		if k > 0 {
			c[i].Y = kmS[k-1]
		}
	}
	out := plotter.XYs{}
	nx := normaliser(lo, hi, true)
	last := -1.0
	for _, p := range c {
		if x := nx(p.X); len(out) == 0 || x-last >= 1.0/300 {
			out = append(out, p)
			last = x
		}
	}
	return out
}

func withMarks(lo, hi float64, m Marks) (float64, float64) {
	lo2, hi2 := xRange(true, m.Deadlines)
	if finite(lo2) {
		if !(lo > 0) || lo2 < lo {
			lo = lo2
		}
		if !(hi > 0) || hi2 > hi {
			hi = hi2
		}
	}
	return lo, hi
}

// halfAlpha is c at half opacity.
func halfAlpha(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 128}
}
