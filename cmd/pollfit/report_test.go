package main

import (
	"bytes"
	"html"
	"strings"
	"testing"
)

// TestReportMatchesFit checks that the report shows the schedule pollfit
// fit ships for the same flags, deadline burst and batch asks included.
func TestReportMatchesFit(t *testing.T) {
	for _, c := range []struct{ log, budget string }{
		{"../../testdata/deadline.csv", "--requests-per-item=6"},
		{"../../testdata/batch.csv", "--baseline=aligned=at 0s, 1m until 1h, every 5m at +4s +8s"},
	} {
		var fitOut, repOut, errb bytes.Buffer
		if code := run([]string{"fit", "-q", "--format", "dsl", c.budget, c.log}, &fitOut, &errb); code != 0 {
			t.Fatalf("fit: exit %d: %s", code, errb.String())
		}
		if code := run([]string{"report", "-q", c.budget, c.log}, &repOut, &errb); code != 0 {
			t.Fatalf("report: exit %d: %s", code, errb.String())
		}
		var dsl string
		for _, l := range strings.Split(fitOut.String(), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				dsl = l
				break
			}
		}
		want := `<pre id="schedule">` + html.EscapeString(dsl) + "</pre>"
		got := strings.ReplaceAll(repOut.String(), "&#43;", "+")
		if dsl == "" || !strings.Contains(got, strings.ReplaceAll(want, "&#43;", "+")) {
			t.Errorf("%s: report lacks fit's schedule %q", c.log, dsl)
		}
	}
}
