package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit/schedule"
)

// pollerAsks simulates a poller asking each item at the ages of spec
// up to its end: one row per ask (id, created_at and asked_at in epoch
// milliseconds, the status that ask saw), stopping at the first ask
// that sees the answer; an item still pending in the log is asked up
// to its censoring age. It returns the log's text, its number of asks
// and of items asked at least once (a pending item censored before the
// first ask has no row).
func pollerAsks(t *testing.T, items []estimate.Item, spec string) (text string, asks, asked int) {
	t.Helper()
	s, err := schedule.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	end, ok := s.End()
	if !ok {
		t.Fatalf("%s never stops", spec)
	}
	tl := s.Timeline()
	var b strings.Builder
	b.WriteString("id,created_at,asked_at,status\n")
	rows := 0
	for i, it := range items {
		if a, _ := tl.Next(0); !it.Status.Final() && time.Duration(math.Round(it.Age*1e9)) < a {
			continue
		}
		asked++
		created := int64(1_772_000_000_000) + int64(i)*1000
		age := time.Duration(math.Round(it.Age * 1e9))
		stop := end
		if !it.Status.Final() {
			stop = min(end, age)
		}
		for a, ok := tl.Next(0); ok && a <= stop; a, ok = tl.Next(a + 1) {
			st := "pending"
			if it.Status.Final() && age <= a {
				st = "settled"
			}
			fmt.Fprintf(&b, "p%d,%d,%d,%s\n", i, created, created+a.Milliseconds(), st)
			rows++
			if st == "settled" {
				break
			}
		}
	}
	return b.String(), rows, asked
}

// TestEvalPollerOwnSchedule: eval of a poller log under the poller's
// own schedule counts exactly the asks the log holds, per item, as the
// exact log of the same items does; its expected mean lag is near the
// exact log's.
func TestEvalPollerOwnSchedule(t *testing.T) {
	const log = "../../testdata/payments.csv"
	items, _, err := logs.Read([]string{log}, logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{
		"1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m",
		"at 3s 10s 20s 30s, 30s until 5m",
	} {
		text, rows, asked := pollerAsks(t, items, spec)
		path := filepath.Join(t.TempDir(), "asks.csv")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		got := evalJSON(t, "--time-unit", "ms", "-s", spec, path)
		want := float64(rows) / float64(asked)
		if r := got["requests_per_item"].(float64); math.Abs(r-want) > 1e-9*want {
			t.Errorf("%s: requests per item %.12g, want the log's %d asks / %d items = %.12g", spec, r, rows, asked, want)
		}
		if got["items"].(float64) != float64(asked) {
			t.Errorf("%s: %v items, want %d", spec, got["items"], asked)
		}
		// The same through a sketch of the log (its interval part).
		sk := filepath.Join(t.TempDir(), "asks.sketch.csv")
		var out, errb bytes.Buffer
		if code := run([]string{"sketch", "-q", "--time-unit", "ms", "-o", sk, path}, &out, &errb); code != 0 {
			t.Fatalf("sketch: exit %d: %s", code, errb.String())
		}
		fromSketch := evalJSON(t, "-s", spec, sk)
		if r := fromSketch["requests_per_item"].(float64); math.Abs(r-want) > 1e-9*want {
			t.Errorf("%s: from the sketch, requests per item %.12g, want %.12g", spec, r, want)
		}
		exact := evalJSON(t, "-s", spec, log)
		want = float64(rows) / float64(len(items))
		if r := exact["requests_per_item"].(float64); math.Abs(r-want) > 1e-9*want {
			t.Errorf("%s: the exact log costs %.12g, want %.12g (the simulated poller is wrong)", spec, r, want)
		}
		gl, el := got["lag_s"].(map[string]any)["mean"].(float64), exact["lag_s"].(map[string]any)["mean"].(float64)
		if math.Abs(gl/el-1) > 0.1 {
			t.Errorf("%s: expected mean lag %.4gs, the exact log's %.4gs", spec, gl, el)
		}
		t.Logf("%s: %.4f requests per item; mean lag %.4gs expected, %.4gs exact", spec, want, gl, el)
	}
}

// TestFitPollerLog: fit reads a poller log, says which figures are
// expected, and shows no limit row.
func TestFitPollerLog(t *testing.T) {
	items, _, err := logs.Read([]string{"../../testdata/payments.csv"}, logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text, _, _ := pollerAsks(t, items[:3000], "1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m")
	path := filepath.Join(t.TempDir(), "asks.csv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"fit", "--time-unit", "ms", "--bootstrap", "0", "--requests-per-item", "8", path}, &out, &errb); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, errb.String())
	}
	o := out.String()
	for _, want := range []string{"known only to lie in an interval: their lag and requests are expected figures", "limit: not shown"} {
		if !strings.Contains(o+errb.String(), want) {
			t.Errorf("fit output lacks %q:\n%s\n%s", want, o, errb.String())
		}
	}
	for _, line := range strings.Split(o, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "limit" {
			t.Errorf("a limit row on interval-censored input: %q", line)
		}
	}
}
