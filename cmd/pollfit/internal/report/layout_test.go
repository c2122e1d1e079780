package report

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/internal/loggen"
	xhtml "golang.org/x/net/html"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
)

// widen is the margin on a text's width as Liberation Sans (the font
// the pictures are laid out in, and Arial's metrics) measures it: a
// browser without it falls back to a sans-serif a little wider.
const widen = 1.08

// textWidth is s's width at size points in Liberation Sans, widened.
func textWidth(s string, size float64) float64 {
	f := font.Font{Typeface: gplot.DefaultFont.Typeface, Variant: "Sans"}
	face := font.DefaultCache.Lookup(f, font.Length(size))
	return widen * face.Width(s).Points()
}

// glyph is the estimated advance of one character of a table cell, in
// ems, for the page's system-ui font: about 0.55 em over digits and
// lowercase text.
const glyph = 0.55

// box is a text's estimated extent on the page, y growing downwards.
type box struct {
	text                   string
	x0, x1, y0, y1, height float64
}

func (a box) overlaps(b box) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

var (
	svgRE      = regexp.MustCompile(`(?s)<svg viewBox="0 0 ([0-9.]+) ([0-9.]+)".*?</svg>`)
	textRE     = regexp.MustCompile(`(?s)<text x="([-0-9.e]+)" y="([-0-9.e]+)" transform="scale\(1, -1\)"\s*style="[^"]*font-size:([0-9.]+)px[^"]*">([^<]*)</text>`)
	rotatedRE  = regexp.MustCompile(`(?s)<g transform="rotate\(90\)">.*?</g>`)
	shortPath  = regexp.MustCompile(`<path d="M([-0-9.e]+),([-0-9.e]+)L([-0-9.e]+),([-0-9.e]+)" style="fill:none;stroke:#([0-9A-F]{6})`)
	whiteSpace = regexp.MustCompile(`\s+`)
)

// svgTexts are the horizontal texts of one picture, as boxes in the
// picture's own coordinates (its viewBox): gonum's SVG draws in a group
// flipped by scale(1, -1) translate(0, -h), each text flipped back, so
// a text at (x, y) has its baseline at h + y, its left end at x.
func svgTexts(svg string, h float64) []box {
	svg = rotatedRE.ReplaceAllString(svg, "") // the y axis label: alone on its side
	var out []box
	for _, m := range textRE.FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		size, _ := strconv.ParseFloat(m[3], 64)
		s := html.UnescapeString(m[4])
		base := h + y
		out = append(out, box{text: s, x0: x, x1: x + textWidth(s, size),
			y0: base - 0.72*size, y1: base + 0.2*size, height: size})
	}
	return out
}

// legendSwatches are the short horizontal coloured strokes of a picture
// (legend thumbnails are 10 to 30 units long), in page coordinates.
func legendSwatches(svg string, h float64) []box {
	var out []box
	for _, m := range shortPath.FindAllStringSubmatch(svg, -1) {
		var v [4]float64
		for i := range v {
			v[i], _ = strconv.ParseFloat(m[i+1], 64)
		}
		w := math.Abs(v[2] - v[0])
		if v[1] != v[3] || w < 5 || w > 30 || m[5] == "000000" {
			continue
		}
		y := h - v[1]
		out = append(out, box{text: "swatch #" + m[5], x0: math.Min(v[0], v[2]), x1: math.Max(v[0], v[2]), y0: y - 1, y1: y + 1})
	}
	return out
}

// layoutProblems lists, for every picture of a rendered report, texts
// that overlap one another or a legend swatch or run past the picture's
// edge, and every table wider than the page's text column at a 1280 px
// window, 992 px (66rem less 2rem padding a side, at 16 px), with cells
// of 0.9rem text padded 0.35rem a side.
func layoutProblems(raw, id string) []string {
	var out []string
	for k, m := range svgRE.FindAllStringSubmatch(raw, -1) {
		w, _ := strconv.ParseFloat(m[1], 64)
		h, _ := strconv.ParseFloat(m[2], 64)
		ts := svgTexts(m[0], h)
		where := fmt.Sprintf("%s: picture %d", id, k+1)
		for i, a := range ts {
			if a.x0 < -0.5 || a.x1 > w+0.5 {
				out = append(out, fmt.Sprintf("%s: %q runs past the edge (%.0f–%.0f of %.0f)", where, a.text, a.x0, a.x1, w))
			}
			for _, b := range ts[i+1:] {
				if a.overlaps(b) {
					out = append(out, fmt.Sprintf("%s: %q overlaps %q", where, a.text, b.text))
				}
			}
			for _, s := range legendSwatches(m[0], h) {
				if a.overlaps(s) {
					out = append(out, fmt.Sprintf("%s: %q runs into a legend %s", where, a.text, s.text))
					break
				}
			}
		}
	}
	return append(out, tableProblems(raw, id)...)
}

// tableProblems measures each table's narrowest width: per column the
// widest cell that may not wrap (white-space: nowrap), or its longest
// word where it may (the headers and schedules).
func tableProblems(raw, id string) []string {
	const column, em = 992.0, 16 * 0.9
	d, err := xhtml.Parse(strings.NewReader(raw))
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for k, tb := range all(d, tag("table")) {
		var widths []float64
		for _, tr := range all(tb, tag("tr")) {
			col := 0
			for c := tr.FirstChild; c != nil; c = c.NextSibling {
				if c.Type != xhtml.ElementNode || (c.Data != "td" && c.Data != "th") {
					continue
				}
				s := strings.TrimSpace(whiteSpace.ReplaceAllString(text(c), " "))
				cls, _ := attr(c, "class")
				n := utf8.RuneCountInString(s)
				if c.Data == "th" || strings.Contains(cls, "schedule") { // headers wrap, as the page's style says
					n = 0
					for _, w := range strings.Fields(s) {
						n = max(n, utf8.RuneCountInString(w))
					}
				}
				for len(widths) <= col {
					widths = append(widths, 0)
				}
				widths[col] = math.Max(widths[col], glyph*em*float64(n)+2*0.35*16)
				col++
			}
		}
		total := 0.0
		for _, w := range widths {
			total += w
		}
		if total > column {
			out = append(out, fmt.Sprintf("%s: table %d is about %.0f px wide, in a %.0f px column", id, k+1, total, column))
		}
	}
	return out
}

// TestReportLayout draws the reports of a payments log against two
// baselines, a deadline log and a batch log, and checks that no text of
// a picture overlaps another or a legend swatch or runs off the picture,
// and that no table is wider than the page at 1280 px.
func TestReportLayout(t *testing.T) {
	now := mustParse(t, "1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m")
	for _, c := range []struct {
		name  string
		model loggen.Model
		base  []fit.Baseline
	}{
		{"payments", loggen.Payments, []fit.Baseline{{Name: "now", Schedule: now}}},
		{"deadline", loggen.Deadline, []fit.Baseline{{Name: "every-5s", Schedule: mustParse(t, "5s until 5m")}}},
		{"batch", loggen.Batch, []fit.Baseline{{Name: "every-10s", Schedule: mustParse(t, "10s until 15m")}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := build(t, items(c.model, 1500, 1), fit.StudyOptions{
				Options:   fit.Options{Budget: fit.Budget{RequestsPerItem: 8}},
				Baselines: c.base, Holdout: 0.3, Seed: 1, Bootstrap: 20,
				AsksBy: []time.Duration{30 * time.Second, 2 * time.Minute, 15 * time.Minute},
			}, Options{Inputs: []string{c.name + ".csv"}, Command: "pollfit report " + c.name + ".csv", Version: "v0.0.0-test"})
			if err != nil {
				t.Fatal(err)
			}
			_, raw := render(t, r)
			for _, p := range layoutProblems(raw, c.name) {
				t.Error(p)
			}
		})
	}
}
