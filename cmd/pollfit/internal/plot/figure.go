package plot

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Kind is how a series is drawn.
type Kind string

const (
	Line   Kind = "line"   // a polyline through the points
	Points Kind = "points" // one glyph per point
	Ticks  Kind = "ticks"  // a short vertical tick per point (a rug)
	Rules  Kind = "rules"  // a full-height vertical line per point
	Bars   Kind = "bars"   // one bar per bin
)

// Series records one drawn series: its legend name, how it is drawn and
// how many points (vertices of the line, glyphs, ticks, rules or bars)
// it put on the picture.
type Series struct {
	Name string
	Kind Kind
	N    int
}

// Figure is a finished picture.
type Figure struct {
	// Plot is the gonum plot, for callers who want to adjust it.
	Plot *gplot.Plot
	// Title is the picture's title, also shown above it.
	Title string
	// Series lists what was drawn, in drawing order.
	Series []Series
	// Width and Height are the size of the picture's plot (default
	// Width, Height); the legend's strip under it adds to the height.
	Width, Height vg.Length

	entries []entry // the legend, drawn under the plot
}

// Default picture size: wide enough for a laptop column, legible when a
// phone scales it to its width.
const (
	Width  = 5 * vg.Inch
	Height = 3.3 * vg.Inch
)

func (f *Figure) add(name string, k Kind, n int) {
	f.Series = append(f.Series, Series{Name: name, Kind: k, N: n})
}

func (f *Figure) size() (w, h vg.Length) {
	w, h = f.Width, f.Height
	if w <= 0 {
		w = Width
	}
	if h <= 0 {
		h = Height
	}
	return w, h
}

// WriteTo writes the picture in format "svg" or "png" (PNG at 150 dpi).
func (f *Figure) WriteTo(w io.Writer, format string) error {
	format = strings.ToLower(strings.TrimPrefix(format, "."))
	switch format {
	case "svg", "png":
	default:
		return fmt.Errorf("plot: unknown format %q (svg or png)", format)
	}
	wd, ht := f.pageSize()
	if format == "png" {
		c := vgimg.NewWith(vgimg.UseWH(wd, ht), vgimg.UseDPI(PNGDPI))
		f.draw(draw.New(c))
		_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
		return err
	}
	c := vgsvg.New(wd, ht)
	f.draw(draw.New(c))
	_, err := c.WriteTo(w)
	return err
}

// PNGDPI is the resolution of PNG pictures: 150 dots per inch, 750 × 495
// pixels at the default size.
const PNGDPI = 150

// SVG returns the picture as an SVG element for inlining in HTML: no
// XML declaration, the width and height attributes dropped so that CSS
// can scale it by its viewBox.
func (f *Figure) SVG() ([]byte, error) {
	var b bytes.Buffer
	if err := f.WriteTo(&b, "svg"); err != nil {
		return nil, err
	}
	s := b.Bytes()
	if i := bytes.Index(s, []byte("<svg")); i >= 0 {
		s = s[i:]
	}
	end := bytes.IndexByte(s, '>')
	if end < 0 {
		return nil, fmt.Errorf("plot: malformed svg")
	}
	head := string(s[:end])
	for _, attr := range []string{"width", "height"} {
		if i := strings.Index(head, " "+attr+`="`); i >= 0 {
			j := strings.IndexByte(head[i+len(attr)+3:], '"')
			head = head[:i] + head[i+len(attr)+3+j+1:]
		}
	}
	out := append([]byte(head), s[end:]...)
	return out, nil
}
