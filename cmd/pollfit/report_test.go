package main

import (
	"bytes"
	"encoding/json"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReportRendersFitsResult checks that pollfit report and pollfit fit
// --json show the same figures for the same flags: one study rendered
// twice. Every row of the JSON (the fitted schedule, the limit, the exact
// fit, each baseline and the fit at its cost) is a row of the report's
// table with the same requests per item, stuck cost and mean lag, and
// the report shows the schedule fit ships.
func TestReportRendersFitsResult(t *testing.T) {
	for _, c := range []struct{ log, budget string }{
		{"../../testdata/deadline.csv", "--requests-per-item=6"},
		{"../../testdata/batch.csv", "--baseline=aligned=at 0s, 1m until 1h, every 5m at +4s +8s"},
	} {
		var fitOut, repOut, errb bytes.Buffer
		if code := run([]string{"fit", "-q", "--json", c.budget, c.log}, &fitOut, &errb); code != 0 {
			t.Fatalf("fit: exit %d: %s", code, errb.String())
		}
		if code := run([]string{"report", "-q", c.budget, c.log}, &repOut, &errb); code != 0 {
			t.Fatalf("report: exit %d: %s", code, errb.String())
		}
		type row struct {
			Name  string                 `json:"name"`
			Req   float64                `json:"requests_per_item"`
			Stuck float64                `json:"stuck_asks"`
			Lag   struct{ Mean float64 } `json:"lag_s"`
		}
		var res struct {
			Schedule  string `json:"schedule"`
			Fitted    row    `json:"fitted"`
			Limit     row    `json:"limit"`
			ExactFit  *row   `json:"exact_fit"`
			Baselines []row  `json:"baselines"`
			AtCost    []row  `json:"at_baseline_cost"`
		}
		if err := json.Unmarshal(fitOut.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		page := html.UnescapeString(repOut.String())
		if !strings.Contains(page, `<pre id="schedule">`+res.Schedule+"</pre>") {
			t.Errorf("%s: report lacks fit's schedule %q", c.log, res.Schedule)
		}
		rows := append([]row{res.Fitted, res.Limit, *res.ExactFit}, append(res.Baselines, res.AtCost...)...)
		for _, r := range rows {
			cells := tableRow(page, r.Name)
			if cells == nil {
				t.Errorf("%s: no report row %q", c.log, r.Name)
				continue
			}
			// Columns: name, mean lag, p50, p90, p99, max, requests, detected,
			// missed, pending, missed share, stuck asks, asks by ...
			want := strconv.FormatFloat(r.Lag.Mean, 'g', 3, 64) + " s"
			if r.Lag.Mean < 1 {
				want = strconv.FormatFloat(r.Lag.Mean*1e3, 'g', 3, 64) + " ms"
			}
			if cells[1] != want || cells[6] != strconv.FormatFloat(r.Req, 'f', 2, 64) || cells[11] != strconv.FormatFloat(r.Stuck, 'f', 2, 64) {
				t.Errorf("%s: row %q: report %q, fit --json lag %g, %g requests, %g stuck", c.log, r.Name, cells, r.Lag.Mean, r.Req, r.Stuck)
			}
		}
	}
}

// tableRow is the cells of the metrics table's row named name.
func tableRow(page, name string) []string {
	re := regexp.MustCompile(`<tr><td class="name">` + regexp.QuoteMeta(name) + `</td>(.*?)</tr>`)
	m := re.FindStringSubmatch(page)
	if m == nil {
		return nil
	}
	cells := []string{name}
	for _, c := range regexp.MustCompile(`<td>(.*?)</td>`).FindAllStringSubmatch(m[1], -1) {
		cells = append(cells, c[1])
	}
	return cells
}
