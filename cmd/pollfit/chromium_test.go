package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// chromiumFlags run Debian's chromium headless, offline and without a
// profile of its own, logging the page's console to stderr.
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
	"--enable-logging=stderr"}

// probeMark is what the probe script logs to the console, so the test
// knows that console lines reach it.
const probeMark = "pollfit-probe-ran"

// probeScript measures the page as laid out: each figure's SVG box (in
// page pixels) and viewBox, each table's scroll and client widths, the
// viewport's width and the page's height, into a <pre> after the page.
const probeScript = `<script>
(function () {
  var out = {width: document.documentElement.clientWidth, height: 0, figures: [], tables: []};
  document.querySelectorAll("figure").forEach(function (f) {
    var s = f.querySelector("svg"), r = (s || f).getBoundingClientRect();
    out.figures.push({x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height,
      viewBox: s ? s.getAttribute("viewBox") || "" : ""});
  });
  document.querySelectorAll(".table").forEach(function (d) {
    out.tables.push({scroll: d.scrollWidth, client: d.clientWidth});
  });
  out.height = document.documentElement.scrollHeight;
  var p = document.createElement("pre");
  p.id = "pollfit-probe";
  p.textContent = JSON.stringify(out);
  document.body.appendChild(p);
  console.log("` + probeMark + `");
})();
</script>`

// A layout is what probeScript measures.
type layout struct {
	Width, Height float64
	Figures       []struct {
		X, Y, W, H float64
		ViewBox    string
	}
	Tables []struct{ Scroll, Client float64 }
}

// chromium is Debian's chromium binary; the test skips without it.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium: install Debian's chromium package (apt-get install chromium)")
	return ""
}

// runChromium runs chromium on a file with extra flags at a window size,
// and returns its stdout and the page's console lines.
func runChromium(t *testing.T, bin, page string, w, h int, extra ...string) (string, []string) {
	t.Helper()
	args := append(append([]string{}, chromiumFlags...), "--user-data-dir="+t.TempDir(), fmt.Sprintf("--window-size=%d,%d", w, h))
	args = append(append(args, extra...), "file://"+page)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	var console []string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	return stdout.String(), console
}

// measure loads a copy of the page with probeScript added in chromium
// at width w and returns its layout; the page's console must hold only
// the probe's line.
func measure(t *testing.T, bin, page string, w int) layout {
	t.Helper()
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.LastIndex(src, []byte("</body>"))
	if i < 0 {
		t.Fatalf("%s: no </body>", page)
	}
	probe := filepath.Join(t.TempDir(), "probe.html")
	if err := os.WriteFile(probe, append(append(src[:i:i], probeScript...), src[i:]...), 0o666); err != nil {
		t.Fatal(err)
	}
	dom, console := runChromium(t, bin, probe, w, 900, "--dump-dom")
	seen := false
	for _, l := range console {
		if strings.Contains(l, probeMark) {
			seen = true
		} else {
			t.Errorf("width %d: the page's console: %s", w, l)
		}
	}
	if !seen {
		t.Errorf("width %d: the probe's console line is missing: console errors would go unseen", w)
	}
	_, rest, ok := strings.Cut(dom, `<pre id="pollfit-probe">`)
	body, _, ok2 := strings.Cut(rest, "</pre>")
	if !ok || !ok2 {
		t.Fatalf("width %d: chromium's DOM has no probe output: %.300s", w, dom)
	}
	var l layout
	if err := json.Unmarshal([]byte(html.UnescapeString(body)), &l); err != nil {
		t.Fatalf("width %d: probe: %v: %.300s", w, err, body)
	}
	return l
}
