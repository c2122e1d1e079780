package plot

import (
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// entry is one legend entry as added.
type entry struct {
	name   string
	thumbs []gplot.Thumbnailer
}

// legend adds a legend entry. The entries are drawn under the data
// area, never over it, in two columns when the names fit, each swatch
// left of its name so that a wider fallback font runs away from it.
func (f *Figure) legend(name string, thumbs ...gplot.Thumbnailer) {
	f.entries = append(f.entries, entry{name, thumbs})
}

// Legend layout, in points: the gap between a name and the next
// column, the space between rows, the margin above the strip.
const (
	legendGap    = 14
	legendRowGap = 3
	legendTop    = 6
	rightMargin  = 12
)

// legendColumns splits the entries into one or two columns: two when
// every name fits half the width with its swatch and a margin for a
// wider font.
func (f *Figure) legendColumns(w vg.Length) [][]entry {
	if len(f.entries) < 2 {
		return [][]entry{f.entries}
	}
	sty := f.Plot.Legend.TextStyle
	half := w/2 - legendGap
	for _, e := range f.entries {
		if f.Plot.Legend.ThumbnailWidth+sty.Width(" ")+1.15*sty.Width(e.name) > half {
			return [][]entry{f.entries}
		}
	}
	k := (len(f.entries) + 1) / 2
	return [][]entry{f.entries[:k], f.entries[k:]}
}

// legendHeight is the strip's height for the columns.
func (f *Figure) legendHeight(cols [][]entry) vg.Length {
	if len(f.entries) == 0 {
		return 0
	}
	rows := 0
	for _, c := range cols {
		rows = max(rows, len(c))
	}
	row := f.Plot.Legend.TextStyle.Rectangle("Xg").Max.Y + legendRowGap
	return legendTop + vg.Length(rows)*row
}

// pageSize is the whole picture's size: the plot's and the legend's
// strip under it.
func (f *Figure) pageSize() (w, h vg.Length) {
	w, h = f.size()
	return w, h + f.legendHeight(f.legendColumns(w))
}

// plotArea is the part of the picture's canvas c the plot is drawn in:
// above the legend's strip, short of the right edge so that the x
// axis's last tick label stays on the picture.
func (f *Figure) plotArea(c draw.Canvas) draw.Canvas {
	w, _ := f.size()
	return draw.Crop(c, 0, -rightMargin, f.legendHeight(f.legendColumns(w)), 0)
}

// draw draws the plot with its legend in a strip under it: the plot's
// own legend, over the data, stays empty.
func (f *Figure) draw(c draw.Canvas) {
	w, _ := f.size()
	cols := f.legendColumns(w)
	strip := f.legendHeight(cols)
	own := f.Plot.Legend
	f.Plot.Legend = gplot.NewLegend()
	f.Plot.Legend.TextStyle = own.TextStyle
	defer func() { f.Plot.Legend = own }()
	f.Plot.Draw(f.plotArea(c))
	if strip == 0 {
		return
	}
	for k, col := range cols {
		l := gplot.NewLegend()
		l.TextStyle, l.ThumbnailWidth, l.Padding = own.TextStyle, own.ThumbnailWidth, legendRowGap
		l.Top, l.Left = true, true
		for _, e := range col {
			l.Add(e.name, e.thumbs...)
		}
		x0 := c.Min.X + vg.Length(k)*w/2
		area := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x0 + 4, Y: c.Min.Y},
			Max: vg.Point{X: x0 + w/2, Y: c.Min.Y + strip - legendTop},
		}}
		l.Draw(area)
	}
}
