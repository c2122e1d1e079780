package fit

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

// A mean-only replay (what the shapes' searches compare) agrees with the
// full replay on every count and the requests to the bit, on the largest
// lag to the bit, and on the mean lag to rounding (it sums in the items'
// order, the full replay in the lags'); its percentiles are NaN. On
// unweighted and weighted samples of a batch log, with aligned asks and
// without, to a horizon and to the schedule's own end.
func TestMeanOnlyReplay(t *testing.T) {
	items := loggen.Items(loggen.Rows(loggen.Batch, 3000, 5))
	r := rand.New(rand.NewPCG(5, 6))
	ws := make([]float64, len(items))
	for i := range ws {
		ws[i] = 0.5 + 3*r.Float64()
	}
	smps := []Sample{ItemSample(items), {Items: items, Weights: ws}}
	plain := mustSchedule(t, "1s until 30s, 5s until 5m, 30s")
	aligned := schedule.Canonical(plain)
	aligned.Aligned = append(aligned.Aligned, schedule.Aligned{Period: 5 * time.Minute, Offsets: []time.Duration{3 * time.Second}, Until: 20 * time.Minute})
	for k, smp := range smps {
		for _, s := range []*schedule.Schedule{plain, aligned} {
			for _, h := range []time.Duration{0, 10 * time.Minute} {
				full, err := ReplaySample(s, smp, ReplayOptions{Horizon: h})
				if err != nil {
					t.Fatal(err)
				}
				lean, err := ReplaySample(s, smp, ReplayOptions{Horizon: h, meanOnly: true})
				if err != nil {
					t.Fatal(err)
				}
				what := []any{k, schedule.Format(s), h}
				same := func(name string, a, b float64) {
					if math.Float64bits(a) != math.Float64bits(b) {
						t.Errorf("%v: %s mean-only %v, full %v", what, name, a, b)
					}
				}
				same("detected", lean.Detected, full.Detected)
				same("missed", lean.Missed, full.Missed)
				same("pending", lean.Pending, full.Pending)
				same("requests", lean.RequestsPerItem, full.RequestsPerItem)
				same("max lag", lean.Lag.Max, full.Lag.Max)
				if d := math.Abs(lean.Lag.Mean - full.Lag.Mean); !(d <= 1e-12*full.Lag.Mean) {
					t.Errorf("%v: mean lag mean-only %v, full %v", what, lean.Lag.Mean, full.Lag.Mean)
				}
				if !math.IsNaN(lean.Lag.P50) || !math.IsNaN(lean.Lag.P95) || !math.IsNaN(lean.Lag.P99) {
					t.Errorf("%v: mean-only percentiles %+v; want NaN", what, lean.Lag)
				}
			}
		}
	}
}

// The metrics a Shape reports are full replays of its schedules on the
// items, though its search compares mean-only ones: Plain is the plain
// schedule's replay and Shaped the shaped one's, to the bit, at the
// fit's horizon (a schedule that never stops, fitted without one, as it
// runs).
func TestShapeMetricsAreFullReplays(t *testing.T) {
	check := func(name string, smp Sample, res *Result, opt Options, sh Shape) {
		t.Helper()
		at := func(s *schedule.Schedule) ReplayOptions {
			if !s.Stops() && opt.Horizon == 0 {
				return ReplayOptions{}
			}
			return ReplayOptions{Horizon: res.Horizon}
		}
		plain, _ := ReplaySample(res.Schedule, smp, at(res.Schedule))
		if !sameMetrics(sh.Plain, plain) || math.IsNaN(sh.Plain.Lag.P95) {
			t.Errorf("%s: Plain %+v, the replay %+v", name, sh.Plain.Lag, plain.Lag)
		}
		if !sh.Paid {
			t.Fatalf("%s: the shape did not pay; nothing to compare", name)
		}
		shaped, _ := ReplaySample(sh.Schedule, smp, at(sh.Schedule))
		if !sameMetrics(sh.Shaped, shaped) || math.IsNaN(sh.Shaped.Lag.P95) {
			t.Errorf("%s: Shaped %+v, the replay of %s %+v", name, sh.Shaped.Lag, schedule.Format(sh.Schedule), shaped.Lag)
		}
	}
	deadline, _ := Split(loggen.Items(loggen.Rows(loggen.Deadline, 10000, 11)), 0.3, 1)
	batch := loggen.Items(loggen.Rows(loggen.Batch, 6000, 12))
	withDeadlines := func(smp Sample, res *Result, opt Options) (Shape, error) {
		return WithDeadlines(smp, deadlinesOf(smp.Items), res, opt)
	}
	withBatches := func(smp Sample, res *Result, opt Options) (Shape, error) {
		return WithBatches(smp, periodOf(smp.Items), res, opt)
	}
	for _, c := range []struct {
		name  string
		items []estimate.Item
		opt   Options
		with  func(Sample, *Result, Options) (Shape, error)
	}{
		{"deadlines", deadline, Options{Budget: Budget{RequestsPerItem: 8}}, withDeadlines},
		{"deadlines to 2m", deadline, Options{Budget: Budget{RequestsPerItem: 8}, Horizon: 2 * time.Minute}, withDeadlines},
		{"batches", batch, Options{Budget: Budget{RequestsPerItem: 8}}, withBatches},
	} {
		res, err := Fit(c.items, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		smp := ItemSample(c.items)
		sh, err := c.with(smp, res, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		check(c.name, smp, res, c.opt, sh)
	}
}
