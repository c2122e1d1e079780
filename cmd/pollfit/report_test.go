package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/testenv"
)

// TestReportRendersFitsResult checks that pollfit report and pollfit fit
// --json show the same figures for the same flags: one study rendered
// twice. Every row of the JSON (the fitted schedule, the limit, the exact
// fit, each baseline and the fit at its cost) is a row of the report's
// table with the same requests per item, stuck cost and mean lag, and
// the report shows the schedule fit ships.
func TestReportRendersFitsResult(t *testing.T) {
	cases := []struct{ log, budget string }{
		{"../../testdata/deadline.csv", "--requests-per-item=6"},
		{"../../testdata/batch.csv", "--baseline=aligned=at 0s, 1m until 1h, every 5m at +4s +8s"},
	}
	if !testenv.Long() {
		cases = cases[1:] // the batch log, with a baseline and its cost; both in the long run
	}
	for _, c := range cases {
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
			if want := schedule.FormatAge(r.Lag.Mean); cells[1] != want || cells[6] != strconv.FormatFloat(r.Req, 'f', 2, 64) || cells[11] != strconv.FormatFloat(r.Stuck, 'f', 2, 64) {
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

// TestReportSummaryIsFitsJSON checks the figures of the report's summary
// against pollfit fit --json for the same flags: each figure the summary
// shows names its path in the JSON, and its value there must be the
// same number (or text), with and without a budget of its own.
func TestReportSummaryIsFitsJSON(t *testing.T) {
	log := filepath.Join(t.TempDir(), "pay.csv")
	if code := run([]string{"gen", "--model", "payments", "-n", "1500", "--seed", "5", "-o", log}, io.Discard, io.Discard); code != 0 {
		t.Fatalf("gen: exit %d", code)
	}
	base := "--baseline=now=1s until 30s, 5s until 5m"
	for _, c := range []struct {
		args []string
		want []string // figures the summary must show
	}{
		// The summary's figures, not the shapes: none searched for.
		{[]string{"--requests-per-item=6", base, "--bootstrap=40", "--deadlines=false", "--batches=false", log},
			[]string{"budget.requests_per_item", "fitted.lag_s.mean", "fitted.lag_mean_ci.0", "fitted.lag_mean_ci.1", "fitted.requests_per_item",
				"fitted.requests_per_item_ci.0", "fitted.stuck_asks", "fitted.missed_share", "baselines.0.lag_s.mean", "baselines.0.requests_per_item_ci.1",
				"baselines.0.stuck_asks", "comparisons.0.change", "comparisons.0.change_ci.0", "comparisons.0.change_ci.1", "comparisons.0.equal_cost_lag_s",
				"decision.requests_change", "decision.requests_change_ci.0", "decision.lag_change", "decision.lag_change_ci.1",
				"comparisons.0.same_lag.saving", "comparisons.0.same_lag.schedule", "stuck_cap.asks", "give_up.age_s"}},
		// No budget: the fit spends the baseline's cost, and says so.
		{[]string{base, "--bootstrap=0", "--deadlines=false", "--batches=false", log},
			[]string{"budget.requests_per_item", "fitted.lag_s.mean", "baselines.0.lag_s.mean", "comparisons.0.change", "give_up.age_s", "decision.lag_change"}},
	} {
		var fitOut, repOut, errb bytes.Buffer
		if code := run(append([]string{"fit", "-q", "--json"}, c.args...), &fitOut, &errb); code != 0 {
			t.Fatalf("fit: exit %d: %s", code, errb.String())
		}
		if code := run(append([]string{"report", "-q"}, c.args...), &repOut, &errb); code != 0 {
			t.Fatalf("report: exit %d: %s", code, errb.String())
		}
		var js any
		if err := json.Unmarshal(fitOut.Bytes(), &js); err != nil {
			t.Fatal(err)
		}
		page := repOut.String()
		sum := page[strings.Index(page, `<section id="summary">`):]
		sum = sum[:strings.Index(sum, "</section>")]
		seen := map[string]bool{}
		for _, m := range regexp.MustCompile(`data-figs="([^"]*)">([^<]*)<`).FindAllStringSubmatch(sum, -1) {
			for _, f := range strings.Split(html.UnescapeString(m[1]), ";") {
				key, val, _ := strings.Cut(f, "=")
				seen[key] = true
				if strings.HasPrefix(key, "frontier.") {
					continue // the knee is the frontier table's
				}
				checkJSONFigure(t, js, key, val)
				if key == "fitted.lag_s.mean" {
					v, _ := strconv.ParseFloat(val, 64)
					if shown := html.UnescapeString(m[2]); shown != schedule.FormatAge(v) {
						t.Errorf("mean lag %g shown as %q", v, shown)
					}
				}
			}
		}
		for _, k := range c.want {
			if !seen[k] {
				t.Errorf("%q: the summary does not show %s", c.args, k)
			}
		}
	}
}

// checkJSONFigure fails unless the JSON js holds val at the dotted path
// key (array indices as numbers).
func checkJSONFigure(t *testing.T, js any, key, val string) {
	t.Helper()
	if err := jsonFigureErr(js, key, val); err != nil {
		t.Error(err)
	}
}

// jsonFigureErr is nil when the JSON js holds val at the dotted path key.
func jsonFigureErr(js any, key, val string) error {
	v := js
	for _, p := range strings.Split(key, ".") {
		switch n := v.(type) {
		case map[string]any:
			v = n[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i >= len(n) {
				return fmt.Errorf("%s: no index %s in the JSON", key, p)
			}
			v = n[i]
		default:
			return fmt.Errorf("%s: not in the JSON", key)
		}
	}
	switch w := v.(type) {
	case float64:
		if got, err := strconv.ParseFloat(val, 64); err != nil || got != w {
			return fmt.Errorf("%s: report %s, JSON %v", key, val, w)
		}
	case string:
		if val != w {
			return fmt.Errorf("%s: report %q, JSON %q", key, val, w)
		}
	default:
		return fmt.Errorf("%s: the JSON has %v (%T), the report %s", key, v, v, val)
	}
	return nil
}
