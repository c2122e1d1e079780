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
)

// TestReportSegmentsAreFitByJSON checks the per-segment table of the
// report's summary against pollfit fit --by --json for the same flags on
// a generated segmented log: every figure of the table is "by." and its
// path in that JSON, with the same number (or text) there; each value's
// share, lag, p95, cost, budget, stuck cost, give-up age and schedule are
// shown, in the JSON's order, with the totals, the one schedule and the
// change, after each value's decision (its changes keyed as the JSON's
// decisions, the summary's first sentence); and a figure changed in the
// JSON no longer matches.
func TestReportSegmentsAreFitByJSON(t *testing.T) {
	log := filepath.Join(t.TempDir(), "mixed.csv")
	if code := run([]string{"gen", "--model", "segmented", "-n", "1500", "--seed", "2", "-o", log}, io.Discard, io.Discard); code != 0 {
		t.Fatalf("gen: exit %d", code)
	}
	args := []string{"--by=method", "--requests-per-item=8", "--bootstrap=0", "--deadlines=false", "--batches=false", log}
	var fitOut, repOut, errb bytes.Buffer
	if code := run(append([]string{"fit", "-q", "--json"}, args...), &fitOut, &errb); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, errb.String())
	}
	if code := run(append([]string{"report", "-q"}, args...), &repOut, &errb); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errb.String())
	}
	var js any
	if err := json.Unmarshal(fitOut.Bytes(), &js); err != nil {
		t.Fatal(err)
	}
	segs := js.(map[string]any)["segments"].([]any)
	page := repOut.String()
	start := strings.Index(page, "<h3>One schedule per value of method</h3>")
	if start < 0 || start > strings.Index(page, "</section>") {
		t.Fatal("the summary has no table per value of method")
	}
	table := page[start:]
	points := strings.Index(table, `<ul id="segments-points">`)
	table = table[:points+strings.Index(table[points:], "</ul>")]
	// Under --by the summary opens as fit --by does: each value's
	// decision, then the table, then the one schedule for all values.
	summary := page[strings.Index(page, "<h2>Summary</h2>"):]
	if first := summary[strings.Index(summary, "<strong>"):]; !strings.HasPrefix(first, "<strong>method ") || !strings.Contains(first[:strings.Index(first, "</strong>")], ": shipping its fitted schedule instead of one schedule: ") {
		t.Errorf("the summary opens with %.200q, not a value's decision", first)
	}
	if one := strings.Index(page, "<h3>One schedule for all values of method</h3>"); one < start || one > strings.Index(page, "</section>") {
		t.Error("the one schedule for all values does not follow the table per value")
	}
	seen := map[string]string{}
	for _, m := range regexp.MustCompile(`data-figs="([^"]*)">(?:<code>)?([^<]*)<`).FindAllStringSubmatch(table, -1) {
		for _, f := range strings.Split(html.UnescapeString(m[1]), ";") {
			key, val, _ := strings.Cut(f, "=")
			path, ok := strings.CutPrefix(key, "by.")
			if !ok {
				t.Errorf("figure %s is not fit --by --json's", key)
				continue
			}
			seen[path] = val
			checkJSONFigure(t, js, path, val)
			if strings.HasSuffix(path, "lag_s.mean") {
				v, _ := strconv.ParseFloat(val, 64)
				if shown := html.UnescapeString(m[2]); shown != schedule.FormatAge(v) {
					t.Errorf("%s %g shown as %q", path, v, shown)
				}
			}
		}
	}
	want := []string{"budget.requests_per_item", "total.lag_mean_s", "total.requests_per_item", "total.stuck_asks", "total.missed_share",
		"shared.metrics.lag_s.mean", "shared.metrics.lag_s.p95", "shared.metrics.requests_per_item", "shared.metrics.stuck_asks", "shared.schedule", "change"}
	var names []string
	fallback := false
	for i, s := range segs {
		seg := s.(map[string]any)
		name := seg["value"].(string)
		if seg["fallback"].(bool) {
			name, fallback = name+" *", true
		}
		names = append(names, name)
		for _, k := range []string{"share", "metrics.lag_s.mean", "metrics.lag_s.p95", "metrics.requests_per_item", "budget", "metrics.stuck_asks", "metrics.missed_share", "metrics.horizon_s", "schedule"} {
			want = append(want, "segments."+strconv.Itoa(i)+"."+k)
		}
		want = append(want, "decisions."+strconv.Itoa(i)+".requests_change", "decisions."+strconv.Itoa(i)+".lag_change")
	}
	if fallback {
		want = append(want, "min_segment")
	}
	for _, k := range want {
		if _, ok := seen[k]; !ok {
			t.Errorf("the table does not show %s", k)
		}
	}
	var rows []string
	for _, m := range regexp.MustCompile(`<tr><td class="name">([^<]*)</td>`).FindAllStringSubmatch(table, -1) {
		rows = append(rows, html.UnescapeString(m[1]))
	}
	if got, want := strings.Join(rows, "|"), strings.Join(append(names, "total", "one schedule"), "|"); got != want {
		t.Errorf("table rows %s, want %s", got, want)
	}
	checkGroupPictures(t, page, segs)
	checkPageIsShared(t, page, js)
	// A figure broken in the JSON, a number and a text, is caught.
	segs[0].(map[string]any)["metrics"].(map[string]any)["lag_s"].(map[string]any)["mean"] = 1.5
	js.(map[string]any)["shared"].(map[string]any)["schedule"] = "1s"
	for _, k := range []string{"segments.0.metrics.lag_s.mean", "shared.schedule"} {
		if err := jsonFigureErr(js, k, seen[k]); err == nil {
			t.Errorf("%s changed in the JSON still matches the report's %s", k, seen[k])
		}
	}
}

// checkGroupPictures: under --by each value with a schedule of its own
// has its own pictures after the whole log's, headed by the value, and
// its lag picture's legend gives the value's held-out requests per item
// as fit --by --json has them; a value that follows the one schedule has
// none.
func checkGroupPictures(t *testing.T, page string, segs []any) {
	t.Helper()
	own := 0
	for _, s := range segs {
		seg := s.(map[string]any)
		head := "<h2>method " + html.EscapeString(seg["value"].(string)) + ": Lag per schedule</h2>"
		at := strings.Index(page, head)
		if seg["fallback"].(bool) {
			if at >= 0 {
				t.Errorf("%s follows the one schedule but has pictures of its own", seg["value"])
			}
			continue
		}
		own++
		if at < 0 {
			t.Errorf("no %s", head)
			continue
		}
		sec := page[at:]
		sec = sec[:strings.Index(sec, "</section>")]
		req := seg["metrics"].(map[string]any)["requests_per_item"].(float64)
		if want := fmt.Sprintf("fitted, %.2f req/item", req); !strings.Contains(sec, want) {
			t.Errorf("%s: the lag picture's legend has no %q", seg["value"], want)
		}
	}
	if own == 0 {
		t.Error("no value with a schedule of its own: the check checked nothing")
	}
	if strings.Count(page, "<h2>Expected wait versus cost</h2>") != 1 {
		t.Error("want the one frontier, of the whole log")
	}
}

// checkPageIsShared: under --by the page's own schedule and figures are
// the one schedule for all values that fit --by --json gives (shared),
// not those of a second study of the whole log.
func checkPageIsShared(t *testing.T, page string, js any) {
	t.Helper()
	shared := js.(map[string]any)["shared"].(map[string]any)
	m := regexp.MustCompile(`<pre id="schedule">([^<]*)</pre>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the page ships no schedule")
	}
	if got, want := html.UnescapeString(m[1]), shared["schedule"].(string); got != want {
		t.Errorf("the page ships %q, fit --by's one schedule is %q", got, want)
	}
	lag := regexp.MustCompile(`data-figs="fitted\.lag_s\.mean=([^";]*)"`).FindStringSubmatch(page)
	want := shared["metrics"].(map[string]any)["lag_s"].(map[string]any)["mean"].(float64)
	if lag == nil {
		t.Fatal("the page shows no fitted mean lag")
	}
	if got, _ := strconv.ParseFloat(lag[1], 64); got != want {
		t.Errorf("the page's fitted mean lag %s, fit --by's one schedule's %v", lag[1], want)
	}
}
