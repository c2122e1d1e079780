package plot

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// svgInfo is what a strict XML walk of an SVG finds.
type svgInfo struct {
	paths []string // the d attribute of each path
	texts []string // the text of each text element
}

func parseSVG(t *testing.T, b []byte) svgInfo {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	var info svgInfo
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("svg does not parse: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "path":
				for _, a := range e.Attr {
					if a.Name.Local == "d" {
						info.paths = append(info.paths, a.Value)
					}
				}
			case "text":
				inText = true
			}
		case xml.EndElement:
			if e.Name.Local == "text" {
				inText = false
			}
		case xml.CharData:
			if inText {
				info.texts = append(info.texts, strings.TrimSpace(string(e)))
			}
		}
	}
	return info
}

// vertices counts the M and L commands of a path: the points of a
// polyline.
func vertices(d string) int {
	return strings.Count(d, "M") + strings.Count(d, "L")
}

func (s svgInfo) hasPathWith(n int) bool {
	for _, d := range s.paths {
		if !strings.ContainsAny(d, "AQCZ") && vertices(d) == n {
			return true
		}
	}
	return false
}

func (s svgInfo) hasText(txt string) bool {
	for _, t := range s.texts {
		if t == txt {
			return true
		}
	}
	return false
}

// checkFigure renders f as SVG and checks that every line series is a
// path with its number of vertices, and writes it to $PLOT_DIR if set
// (for looking at).
func checkFigure(t *testing.T, f *Figure, name string) svgInfo {
	t.Helper()
	b, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("<svg")) || bytes.Contains(b[:bytes.IndexByte(b, '>')], []byte(`width="`)) {
		t.Errorf("%s: svg head not fit for inlining: %.120s", name, b)
	}
	info := parseSVG(t, b)
	for _, s := range f.Series {
		if s.N <= 0 {
			t.Errorf("%s: series %q drew nothing", name, s.Name)
		}
		if s.Kind == Line && !info.hasPathWith(s.N) {
			t.Errorf("%s: no path with the %d vertices of series %q", name, s.N, s.Name)
		}
		if s.Name != "" && !info.hasText(s.Name) {
			t.Errorf("%s: legend lacks %q", name, s.Name)
		}
	}
	if dir := os.Getenv("PLOT_DIR"); dir != "" {
		for _, ext := range []string{"svg", "png"} {
			var out bytes.Buffer
			if err := f.WriteTo(&out, ext); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, name+"."+ext), out.Bytes(), 0o644)
		}
	}
	return info
}
