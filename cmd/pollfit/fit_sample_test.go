package main

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
	"github.com/spf13/pflag"
)

// studyFlags parses fit's flags as the command does.
func studyFlags(t *testing.T, args ...string) (*readFlags, *fitFlagValues) {
	t.Helper()
	fs := pflag.NewFlagSet("fit", pflag.ContinueOnError)
	v := addFitFlags(fs)
	rf := addReadFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return rf, v
}

// hashSplit reads a log and splits its items as a sketch's hash does,
// in read order: the reference the item sample must match.
func hashSplit(t *testing.T, path string, holdout float64, seed uint64) (fitOn, heldOut []estimate.Item) {
	t.Helper()
	items, _, err := logs.Read([]string{path}, logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sk := &estimate.Sketch{Holdout: holdout, Seed: seed}
	for _, it := range items {
		n := sk.HeldOut.Items
		if sk.Add(it, 1); sk.HeldOut.Items > n {
			heldOut = append(heldOut, it)
		} else {
			fitOn = append(fitOn, it)
		}
	}
	return fitOn, heldOut
}

// On payments.csv (10000 rows, with signals: fewer than the sample's k
// a part) the one-pass fit uses the whole item sample, every row once:
// it ships what fit.Study ships on the log's items split by the same
// hash, with the same figures.
func TestSampleFitExact(t *testing.T) {
	const log = "../../testdata/payments.csv"
	args := []string{"-q", "--requests-per-item", "8", "--bootstrap", "0", "--baseline", "now=1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m"}
	rf, v := studyFlags(t, args...)
	var out, errb bytes.Buffer
	rep, err := runStudy(&env{stdout: &out, stderr: &errb}, rf, v, []string{log}, "fit")
	if err != nil {
		t.Fatal(err)
	}
	if rep.sample.Weighted() || rep.sample.Len() != 7038 {
		t.Fatalf("fitted on %d items (weighted %v), want the 7038 the hash keeps, unweighted", rep.sample.Len(), rep.sample.Weighted())
	}
	opt, err := v.studyOptions("fit")
	if err != nil {
		t.Fatal(err)
	}
	fitOn, heldOut := hashSplit(t, log, 0.3, 1)
	held := &fit.HeldOut{Sample: fit.ItemSample(heldOut), Holdout: 0.3, Seed: 1}
	want, err := fit.Study(context.Background(), fit.ItemSample(fitOn), held, opt)
	if err != nil {
		t.Fatal(err)
	}
	got := rep.res
	if got.Schedule.String() != want.Schedule.String() || !got.Schedule.ResetOnSignal {
		t.Fatalf("ships %s, from the items %s", got.Schedule, want.Schedule)
	}
	close := func(what string, a, b fit.Row) {
		t.Helper()
		for i, x := range []float64{a.Lag.Mean, a.Lag.P95, a.RequestsPerItem, a.Stuck, a.Items} {
			y := []float64{b.Lag.Mean, b.Lag.P95, b.RequestsPerItem, b.Stuck, b.Items}[i]
			if math.Abs(x-y) > 1e-9*math.Abs(y) {
				t.Errorf("%s: figure %d is %v, from the items %v", what, i, x, y)
			}
		}
	}
	close("fitted", got.Fitted, want.Fitted)
	close("limit", got.Limit, want.Limit)
	if len(got.Baselines) != 1 || len(want.Baselines) != 1 {
		t.Fatalf("%d baselines, from the items %d", len(got.Baselines), len(want.Baselines))
	}
	close("now", got.Baselines[0].Baseline, want.Baselines[0].Baseline)
	close("fitted@now", got.Baselines[0].Fitted, want.Baselines[0].Fitted)
}

// Beyond k rows a part, the fit works on the item sample by hash of k
// rows, each weighted by the rows it stands for: its figures on the
// sampled held-out rows are those of the whole held-out part within
// sampling error (four standard errors of a mean over k of its rows,
// drawn without replacement, from the spread of the rows' own figures).
func TestSampleFitBeyondK(t *testing.T) {
	const log, k = "../../testdata/payments.csv", 1500
	defer func(n int) { sampleRows = n }(sampleRows)
	sampleRows = k
	rf, v := studyFlags(t, "-q", "--requests-per-item", "8", "--bootstrap", "0")
	var out, errb bytes.Buffer
	rep, err := runStudy(&env{stdout: &out, stderr: &errb}, rf, v, []string{log}, "fit")
	if err != nil {
		t.Fatal(err)
	}
	fitOn, heldOut := hashSplit(t, log, 0.3, 1)
	for _, c := range []struct {
		smp  *fit.Sample
		rows int
	}{{&rep.sample, len(fitOn)}, {rep.res.HeldOut, len(heldOut)}} {
		if c.smp.Len() != k || math.Abs(c.smp.Total()-float64(c.rows)) > 1e-9*float64(c.rows) {
			t.Fatalf("a part of %d rows: a sample of %d rows standing for %g, want %d standing for all", c.rows, c.smp.Len(), c.smp.Total(), k)
		}
	}
	s, res := rep.res.Schedule, rep.res.Fitted
	if !s.ResetOnSignal {
		t.Errorf("ships %s: the sample's signals should make reset on signal pay, as the whole log's do", s)
	}
	opt := fit.ReplayOptions{Horizon: res.Horizon}
	whole, err := fit.Replay(s, heldOut, opt)
	if err != nil {
		t.Fatal(err)
	}
	var lags, reqs []float64
	for _, it := range heldOut {
		m, err := fit.Replay(s, []estimate.Item{it}, opt)
		if err != nil {
			t.Fatal(err)
		}
		if m.Detected == 1 {
			lags = append(lags, m.Lag.Mean)
		}
		reqs = append(reqs, m.RequestsPerItem)
	}
	fpc := math.Sqrt(1 - float64(k)/float64(len(heldOut)))
	for _, c := range []struct {
		what      string
		got, want float64
		xs        []float64
	}{
		{"mean lag", res.Lag.Mean, whole.Lag.Mean, lags},
		{"requests per item", res.RequestsPerItem, whole.RequestsPerItem, reqs},
	} {
		se := sd(c.xs) / math.Sqrt(k*float64(len(c.xs))/float64(len(heldOut))) * fpc
		t.Logf("%s: %.4g on the sample, %.4g on every row (standard error %.3g)", c.what, c.got, c.want, se)
		if math.Abs(c.got-c.want) > 4*se {
			t.Errorf("%s on the sample %.4g, on every held-out row %.4g: more than 4 × %.3g apart", c.what, c.got, c.want, se)
		}
	}
}

// sd is the standard deviation of xs.
func sd(xs []float64) float64 {
	var m, q float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		q += (x - m) * (x - m)
	}
	return math.Sqrt(q / float64(len(xs)-1))
}
