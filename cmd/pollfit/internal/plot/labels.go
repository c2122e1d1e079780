package plot

import (
	"image/color"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// pointLabels names points beside them, each placed at the first spot
// around its point where it overlaps no label placed before it and stays
// inside the data area: right and up, right and down, left and up, left
// and down, then further up and down. Widths are measured in the font
// drawn, widened by a tenth for a browser's fallback font.
type pointLabels struct {
	xs, ys []float64
	names  []string
	style  text.Style
}

func newPointLabels() *pointLabels {
	sty := text.Style{Color: color.Gray{Y: 60}, Handler: gplot.DefaultTextHandler}
	sty.Font.Size = vg.Points(8.5)
	sty.Font.Variant = sans
	return &pointLabels{style: sty}
}

func (l *pointLabels) add(x, y float64, name string) {
	l.xs, l.ys, l.names = append(l.xs, x), append(l.ys, y), append(l.names, name)
}

// Plot draws the labels.
func (l *pointLabels) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, trY := p.Transforms(&c)
	var placed []vg.Rectangle
	for i, name := range l.names {
		x, y := trX(l.xs[i]), trY(l.ys[i])
		w := 1.1 * l.style.Width(name)
		h := l.style.Height(name)
		var best vg.Rectangle
		for _, o := range []vg.Point{{X: 6, Y: 3}, {X: 6, Y: -3 - h}, {X: -6 - w, Y: 3}, {X: -6 - w, Y: -3 - h},
			{X: 6, Y: 5 + h}, {X: 6, Y: -5 - 2*h}, {X: -6 - w, Y: 5 + h}, {X: -6 - w, Y: -5 - 2*h}} {
			r := vg.Rectangle{Min: vg.Point{X: x + o.X, Y: y + o.Y}, Max: vg.Point{X: x + o.X + w, Y: y + o.Y + h}}
			if !inside(r, c.Rectangle) {
				continue
			}
			if !overlapsAny(r, placed) {
				best = r
				break
			}
			if best == (vg.Rectangle{}) {
				best = r // the first spot inside, should none be free
			}
		}
		if best == (vg.Rectangle{}) {
			continue
		}
		placed = append(placed, best)
		c.FillText(l.style, best.Min, name)
	}
}

func inside(r, area vg.Rectangle) bool {
	return r.Min.X >= area.Min.X && r.Max.X <= area.Max.X && r.Min.Y >= area.Min.Y && r.Max.Y <= area.Max.Y
}

func overlapsAny(r vg.Rectangle, rs []vg.Rectangle) bool {
	for _, q := range rs {
		if r.Min.X < q.Max.X && q.Min.X < r.Max.X && r.Min.Y < q.Max.Y && q.Min.Y < r.Max.Y {
			return true
		}
	}
	return false
}
