package source_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/source"
)

// promText is a Prometheus histogram with 2, 3, 4 and 1 answers in
// (0, 0.25], (0.25, 1], (1, 5] and beyond 5 s (cumulative 2, 5, 9, 10);
// promLater a later read of it: 7, 15, 19, 20, so 5 more in each of the
// first two buckets and none in the others.
const (
	promText = "# TYPE settle_seconds histogram\n" +
		"settle_seconds_bucket{le=\"0.25\"} 2\nsettle_seconds_bucket{le=\"1\"} 5\n" +
		"settle_seconds_bucket{le=\"5\"} 9\nsettle_seconds_bucket{le=\"+Inf\"} 10\n" +
		"settle_seconds_sum 31.5\nsettle_seconds_count 10\n"
	promLater = "# TYPE settle_seconds histogram\n" +
		"settle_seconds_bucket{le=\"0.25\"} 7\nsettle_seconds_bucket{le=\"1\"} 15\n" +
		"settle_seconds_bucket{le=\"5\"} 19\nsettle_seconds_bucket{le=\"+Inf\"} 20\n" +
		"settle_seconds_sum 40\nsettle_seconds_count 20\n"
)

func readIntervals(t *testing.T, paths []string, opt source.IntervalOptions) *source.Intervals {
	t.Helper()
	in, err := source.ReadIntervals(context.Background(), paths, opt)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestReadIntervalsMetric: a metric's answers are final and its
// unanswered items, Never 0.2 of all, 10·0.2/0.8 = 2.5, pending; the
// answer beyond 5 s is final for the input's counts, pending at 5 s in
// the set (9 final, 1 + 2.5 pending, four distinct intervals, the beyond
// and the unanswered sharing (5, +Inf)); Since subtracts an earlier read.
func TestReadIntervalsMetric(t *testing.T) {
	m := writeFile(t, "m.prom", promText)
	in := readIntervals(t, []string{m}, source.IntervalOptions{Never: 0.2})
	if in.Kind != source.MetricFile || in.Final != 10 || in.Pending != 2.5 || in.Beyond != 1 || in.Assumed != "" {
		t.Errorf("kind %q, %g final, %g pending, %g beyond, assumed %q; want metric, 10, 2.5, 1, none", in.Kind, in.Final, in.Pending, in.Beyond, in.Assumed)
	}
	if f, p := in.Set.Weights(); f != 9 || p != 3.5 {
		t.Errorf("set: %g final, %g pending; want 9 and 3.5", f, p)
	}
	if st := in.Stats; st.Rows != 4 || st.Final != 9 || st.Pending != 4 || st.Items != 13 {
		t.Errorf("stats %+v; want 4 rows, 9 final, 4 (3.5 rounded) pending, 13 items", st)
	}
	if want := "Prometheus histogram settle_seconds in " + m; in.Input != want {
		t.Errorf("input %q; want %q", in.Input, want)
	}
	bare := readIntervals(t, []string{m}, source.IntervalOptions{})
	if bare.Pending != 0 || !strings.HasPrefix(bare.Assumed, "every item answered") || strings.Contains(bare.Assumed, "--") {
		t.Errorf("neither Pending nor Never: %g pending, assumed %q", bare.Pending, bare.Assumed)
	}
	later := writeFile(t, "later.prom", promLater)
	win := readIntervals(t, []string{later}, source.IntervalOptions{Since: m, Pending: 3})
	want := []estimate.Interval{{Lo: 0, Hi: 0.25, W: 5}, {Lo: 0.25, Hi: 1, W: 5}, {Lo: 5, Hi: math.Inf(1), W: 3}}
	if got := win.Set.Intervals(); !reflect.DeepEqual(got, want) || win.Final != 10 || win.Beyond != 0 || !strings.HasSuffix(win.Input, " minus "+m) {
		t.Errorf("window: %v, %g final, %g beyond, input %q; want %v, 10, 0, minus %s", got, win.Final, win.Beyond, win.Input, want, m)
	}
	if _, err := source.ReadIntervals(context.Background(), []string{m}, source.IntervalOptions{Since: later}); err == nil || !strings.Contains(err.Error(), "counter reset") {
		t.Errorf("a later read subtracted: %v; want a counter reset", err)
	}
	sk := readIntervals(t, []string{m}, source.IntervalOptions{Sketch: true, Seed: 1})
	set, err := source.SketchIntervals(sk.Sketch)
	if err != nil || sk.Set != nil {
		t.Fatalf("sketch: %v, set %v", err, sk.Set)
	}
	if f, p := set.Weights(); f != 9 || p != 1 {
		t.Errorf("sketch of the metric: %g final, %g pending; want 9 and 1", f, p)
	}
}

// pollerItems is the bundled poller log's four items (see
// ExampleReadIntervals) in the form of one row per item.
const pollerItems = "created_at,last_pending_at,first_final_at,status\n" +
	"2026-03-01T00:00:00Z,2026-03-01T00:00:03Z,2026-03-01T00:00:08Z,settled\n" +
	"2026-03-01T00:00:10Z,,2026-03-01T00:00:11Z,failed\n" +
	"2026-03-01T00:00:20Z,2026-03-01T00:00:23Z,,pending\n" +
	"2026-03-01T00:01:00Z,2026-03-01T00:01:02Z,2026-03-01T00:01:05Z,done\n"

// TestReadIntervalsPoller: the bundled log of one row per ask, the same
// items one row per item, and its asks split across two files give the
// four intervals worked out by hand; a sketch holds them; a log whose
// every item is pending is an error that keeps what was read.
func TestReadIntervalsPoller(t *testing.T) {
	const asks = "testdata/poller_asks.csv"
	want := []estimate.Interval{{Lo: 0, Hi: 1, W: 1}, {Lo: 2, Hi: 5, W: 1}, {Lo: 3, Hi: 8, W: 1}, {Lo: 3, Hi: math.Inf(1), W: 1}}
	text, err := os.ReadFile(asks)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(text), "\n")
	a, b := writeFile(t, "a.csv", strings.Join(lines[:5], "")), writeFile(t, "b.csv", lines[0]+strings.Join(lines[5:], ""))
	for _, paths := range [][]string{{asks}, {writeFile(t, "items.csv", pollerItems)}, {a, b}} {
		if k := source.IntervalInput(paths, source.IntervalOptions{}); k != source.PollerLog {
			t.Errorf("%v: kind %q; want a poller log", paths, k)
		}
		in := readIntervals(t, paths, source.IntervalOptions{})
		if got := in.Set.Intervals(); !reflect.DeepEqual(got, want) || in.Final != 3 || in.Pending != 1 || in.Stats.Items != 4 {
			t.Errorf("%v: %v, %g final, %g pending, %d items; want %v, 3, 1, 4", paths, got, in.Final, in.Pending, in.Stats.Items, want)
		}
	}
	sk := readIntervals(t, []string{asks}, source.IntervalOptions{Sketch: true, Holdout: 0.5, Seed: 3})
	set, err := source.SketchIntervals(sk.Sketch)
	if err != nil {
		t.Fatal(err)
	}
	if f, p := set.Weights(); f != 3 || p != 1 || sk.Sketch.Holdout != 0.5 || sk.Sketch.Seed != 3 {
		t.Errorf("sketch: %g final, %g pending, split %g seed %d; want 3, 1, 0.5, 3", f, p, sk.Sketch.Holdout, sk.Sketch.Seed)
	}
	pending := writeFile(t, "pending.csv", "id,created_at,asked_at,status\nc,2026-03-01T00:00:20Z,2026-03-01T00:00:21Z,pending\n")
	in, err := source.ReadIntervals(context.Background(), []string{pending}, source.IntervalOptions{})
	if err == nil || in == nil || in.Pending != 1 || !strings.Contains(err.Error(), "all 1 items are pending") {
		t.Errorf("every item pending: %v, %+v", err, in)
	}
}

// TestReadIntervalsInputs: what is and is not interval-censored input,
// a sketch with an interval part read back as the metric it was made
// of, and the refusals, typed, naming fields and no flags.
func TestReadIntervalsInputs(t *testing.T) {
	m := writeFile(t, "m.prom", promText)
	log := writeFile(t, "log.csv", threeRows)
	sk := readIntervals(t, []string{m}, source.IntervalOptions{Sketch: true})
	var b bytes.Buffer
	if err := source.WriteSketch(&b, "m.sketch.csv", sk.Sketch); err != nil {
		t.Fatal(err)
	}
	msk := writeFile(t, "m.sketch.csv", b.String())
	for path, want := range map[string]source.IntervalKind{m: source.MetricFile, log: source.NotIntervals, msk: source.IntervalSketch, sketchOf(t, log, 0): source.NotIntervals} {
		if k := source.IntervalInput([]string{path}, source.IntervalOptions{}); k != want {
			t.Errorf("%s: kind %q; want %q", filepath.Base(path), k, want)
		}
	}
	back := readIntervals(t, []string{msk}, source.IntervalOptions{})
	if f, p := back.Set.Weights(); f != 9 || p != 1 || back.Kind != source.IntervalSketch {
		t.Errorf("the metric's sketch: %g final, %g pending, kind %q; want 9, 1, sketch", f, p, back.Kind)
	}
	var optErr *source.OptionError
	for _, c := range []struct {
		opt          source.IntervalOptions
		field, value string
	}{
		{source.IntervalOptions{Pending: 2, Never: 0.1}, "Pending", ""},
		{source.IntervalOptions{Pending: -1}, "Pending", "-1"},
		{source.IntervalOptions{Pending: math.NaN()}, "Pending", "NaN"},
		{source.IntervalOptions{Never: 1}, "Never", "1"},
		{source.IntervalOptions{Sketch: true, Holdout: 1}, "Holdout", "1"},
	} {
		_, err := source.ReadIntervals(context.Background(), []string{m}, c.opt)
		if !errors.As(err, &optErr) || optErr.Field != c.field || optErr.Value != c.value || strings.Contains(err.Error(), "--") {
			t.Errorf("%+v: %v; want an OptionError on %s %q", c.opt, err, c.field, c.value)
		}
	}
	if _, err := source.ReadIntervals(context.Background(), []string{log}, source.IntervalOptions{}); err == nil || !strings.Contains(err.Error(), "not interval-censored") {
		t.Errorf("a log of settle times: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := source.ReadIntervals(ctx, []string{m}, source.IntervalOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("a done context: %v", err)
	}
}
