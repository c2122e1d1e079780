package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/internal/testenv"
)

// pollfit report on testdata/payments.csv, opened in headless Chromium
// (Debian's chromium) on a 1280-px screen and at 500 px (the narrowest
// window headless Chromium lays out, near a phone's 390 px): the page
// logs nothing to the console, every figure is laid out whole within the
// screen at its SVG's aspect (at 1280 px, as wide as the page lets a
// figure be: 40rem), and a screenshot shows each figure drawn: ink and
// coloured lines within its box.
func TestReportInChromium(t *testing.T) {
	testenv.SkipUnlessLong(t) // a report and three browser runs: about 20 s
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var out, errb bytes.Buffer
	if code := run([]string{"report", "-q", "--requests-per-item", "8", "-o", page, "../../testdata/payments.csv"}, &out, &errb); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errb.String())
	}
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	figures := strings.Count(string(src), "<figure")
	if figures < 5 {
		t.Fatalf("the report has %d figures, want the 6 of a log's report", figures)
	}
	var wide layout
	for _, w := range []int{1280, 500} {
		l := measure(t, bin, page, w)
		t.Logf("width %d: viewport %g px, page %g px high", w, l.Width, l.Height)
		checkFigures(t, w, l, figures)
		for i, tb := range l.Tables {
			if tb.Scroll > tb.Client+1 {
				t.Logf("width %d: table %d is %g px wide in a %g-px box: it scrolls sideways", w, i+1, tb.Scroll, tb.Client)
			}
		}
		if w == 1280 {
			wide = l
		}
	}
	shot := filepath.Join(dir, "report.png")
	h := int(math.Min(wide.Height, 16000))
	runChromium(t, bin, page, 1280, h, "--screenshot="+shot)
	img := readPNG(t, shot)
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != h {
		t.Fatalf("the screenshot is %dx%d, want 1280x%d", b.Dx(), b.Dy(), h)
	}
	for i, f := range wide.Figures {
		ink, colour := inkIn(img, image.Rect(int(f.X), int(f.Y), int(f.X+f.W), int(f.Y+f.H)))
		if ink < 0.02 || colour < 200 {
			t.Errorf("figure %d at (%g, %g) %gx%g: %.1f%% ink and %d coloured pixels: not drawn", i+1, f.X, f.Y, f.W, f.H, 100*ink, colour)
		}
	}
}

// checkFigures checks that every figure is laid out whole within a
// screen w px wide, at its viewBox's aspect, and at 1280 px 640 px wide.
func checkFigures(t *testing.T, w int, l layout, want int) {
	t.Helper()
	if len(l.Figures) != want {
		t.Errorf("width %d: chromium laid out %d figures, the page has %d", w, len(l.Figures), want)
	}
	for i, f := range l.Figures {
		var vw, vh float64
		if _, err := fmt.Sscanf(f.ViewBox, "0 0 %g %g", &vw, &vh); err != nil || vw <= 0 {
			t.Errorf("width %d: figure %d: viewBox %q, want an SVG with one", w, i+1, f.ViewBox)
			continue
		}
		switch {
		case f.W <= 0 || f.H <= 0:
			t.Errorf("width %d: figure %d is %gx%g px: not shown", w, i+1, f.W, f.H)
		case f.X < 0 || f.X+f.W > l.Width+0.5:
			t.Errorf("width %d: figure %d spans x %g to %g, off the %g-px screen", w, i+1, f.X, f.X+f.W, l.Width)
		case math.Abs(f.H/f.W-vh/vw) > 0.01:
			t.Errorf("width %d: figure %d is %gx%g px, not its viewBox's aspect %gx%g", w, i+1, f.W, f.H, vw, vh)
		case w == 1280 && math.Abs(f.W-640) > 1:
			t.Errorf("width 1280: figure %d is %g px wide, want 640 (40rem)", i+1, f.W)
		}
	}
}

func readPNG(t *testing.T, file string) image.Image {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return img
}

// inkIn is the share of pixels in r that are not near white, and the
// count of coloured ones (channels at least 80 apart: the plots' lines
// and points, not the grey of axes and text).
func inkIn(img image.Image, r image.Rectangle) (float64, int) {
	r = r.Intersect(img.Bounds())
	ink, colour := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			hi := max(cr, cg, cb) >> 8
			lo := min(cr, cg, cb) >> 8
			if lo < 235 {
				ink++
			}
			if hi-lo >= 80 {
				colour++
			}
		}
	}
	if r.Empty() {
		return 0, 0
	}
	return float64(ink) / float64(r.Dx()*r.Dy()), colour
}
