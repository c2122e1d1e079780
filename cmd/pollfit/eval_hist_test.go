package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
)

// writeFineHistogram bins the items of a log by age into bins of
// relative width 1e-3 (from 1 ms; [0, 1 ms) below) and writes them as a
// histogram lo_s,hi_s,final,pending.
func writeFineHistogram(t *testing.T, path string, items []estimate.Item) {
	t.Helper()
	const first, ratio = 1e-3, 1.001
	type bin struct{ final, pending int }
	bins := map[int]*bin{}
	edge := func(k int) float64 {
		if k < 0 {
			return 0
		}
		return first * math.Pow(ratio, float64(k))
	}
	for _, it := range items {
		k := -1
		if it.Age >= first {
			k = int(math.Floor(math.Log(it.Age/first) / math.Log(ratio)))
			for it.Age < edge(k) {
				k--
			}
			for it.Age >= edge(k+1) {
				k++
			}
		}
		if bins[k] == nil {
			bins[k] = &bin{}
		}
		if it.Status.Final() {
			bins[k].final++
		} else {
			bins[k].pending++
		}
	}
	var b strings.Builder
	b.WriteString("lo_s,hi_s,final,pending\n")
	for k, c := range bins {
		fmt.Fprintf(&b, "%.17g,%.17g,%d,%d\n", edge(k), edge(k+1), c.final, c.pending)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// evalJSON runs pollfit eval --json and returns its one schedule's
// metrics.
func evalJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"eval", "-q", "--json"}, args...), &out, &errb); code != 0 {
		t.Fatalf("eval %q: exit %d: %s", args, code, errb.String())
	}
	var doc struct{ Schedules []map[string]any }
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Schedules) != 1 {
		t.Fatalf("eval %q: %v: %s", args, err, out.String())
	}
	return doc.Schedules[0]
}

// TestEvalHistogramMatchesLog replays payments.csv and a fine histogram
// of it: with bins 0.1% wide the requests per item and the mean lag
// must agree closely. Its 10000 items fall in far fewer bins, so the
// item count shows that each bin counts its items.
func TestEvalHistogramMatchesLog(t *testing.T) {
	const log = "../../testdata/payments.csv"
	items, _, err := logs.Read([]string{log}, logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hist := filepath.Join(t.TempDir(), "hist.csv")
	writeFineHistogram(t, hist, items)
	const spec = "1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m"
	raw := evalJSON(t, "-s", spec, log)
	hm := evalJSON(t, "--histogram", "-s", spec, hist)
	if hm["items"] != float64(len(items)) || raw["items"] != float64(len(items)) {
		t.Errorf("items: histogram %v, log %v, want %d", hm["items"], raw["items"], len(items))
	}
	rr, hr := raw["requests_per_item"].(float64), hm["requests_per_item"].(float64)
	if math.Abs(hr/rr-1) > 0.005 {
		t.Errorf("requests per item: histogram %v, log %v", hr, rr)
	}
	rl, hl := raw["lag_s"].(map[string]any)["mean"].(float64), hm["lag_s"].(map[string]any)["mean"].(float64)
	if math.Abs(hl/rl-1) > 0.02 {
		t.Errorf("mean lag: histogram %v, log %v", hl, rl)
	}
	t.Logf("requests per item %.4f (log %.4f), mean lag %.4f s (log %.4f s)", hr, rr, hl, rl)
}

// TestReadSample checks the weights a read into items gives: none for a log,
// the bins' counts for a histogram (settled, then pending, per bin).
func TestReadSample(t *testing.T) {
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	items := source.Options{Needs: source.Needs{Always: "the test"}}
	in, err := parseReadFlags(t).read(e, []string{"../../testdata/payments.csv"}, "test", items)
	if err != nil {
		t.Fatal(err)
	}
	if smp := in.FitOn; smp.Weighted() || smp.Len() != 10000 {
		t.Fatalf("log: weighted %v, %d items", smp.Weighted(), smp.Len())
	}
	hist := filepath.Join(t.TempDir(), "h.csv")
	if err := os.WriteFile(hist, []byte("lo_s,hi_s,final,pending\n0,2,3,0\n4,9,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err = parseReadFlags(t, "--histogram").read(e, []string{hist}, "test", items)
	if err != nil {
		t.Fatal(err)
	}
	if smp := in.FitOn; fmt.Sprint(smp.Weights) != "[3 1 2]" || smp.Total() != 6 || smp.Items[1].Age != 6 {
		t.Errorf("histogram: weights %v, items %+v", smp.Weights, smp.Items)
	}
}
