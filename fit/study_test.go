package fit

import (
	"context"
	"github.com/pollfit/pollfit/internal/testenv"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

// randomNiceSchedule is a schedule of at most k clauses of nice
// intervals on nice boundaries, the last ending at h: one the quantiser's
// search contains.
func randomNiceSchedule(r *rand.Rand, k int, h time.Duration) *schedule.Schedule {
	ivals := []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second}
	bounds := []time.Duration{10 * time.Second, 20 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 3 * time.Minute}
	s := &schedule.Schedule{}
	var last time.Duration
	for c := range k {
		every := ivals[r.IntN(len(ivals))]
		until := h
		if c < k-1 {
			b := bounds[r.IntN(len(bounds))]
			if b > last && b < h && (b-last)%every == 0 {
				until = b
			}
		}
		if (until-last)%every != 0 && until != h {
			continue
		}
		s.Clauses = append(s.Clauses, schedule.Clause{Every: every, Until: until})
		if until == h {
			break
		}
		last = until
	}
	if len(s.Clauses) == 0 || s.Clauses[len(s.Clauses)-1].Until != h {
		s.Clauses = append(s.Clauses, schedule.Clause{Every: time.Second, Until: h})
	}
	if asks, _ := s.Timeline().Asks(h); asks[len(asks)-1] < h {
		s.Clauses = append(s.Clauses, schedule.Clause{At: []time.Duration{h}})
	}
	return schedule.Canonical(s)
}

// In sample, at the cost of a baseline that is itself a schedule of at
// most K nice clauses ending at the give-up age, the K-clause fit is
// never worse than the baseline on the items it was fitted to: the
// search alone (Fit, at the baseline's requests and stuck cost, without
// the baseline as a candidate), and Study.
func TestFitNeverLosesToANiceBaselineInSample(t *testing.T) {
	t.Parallel() // minutes of fitting: shares the cores with the other slow tests
	r := rand.New(rand.NewPCG(11, 5))
	h := 5 * time.Minute
	models := []loggen.Model{loggen.Payments, loggen.Deadline, loggen.Batch}
	trials := 36
	if !testenv.Long() {
		trials = 6 // two logs of each model; 36 in the long run
	}
	for trial := range trials {
		items := loggen.Items(loggen.Rows(models[trial%3], 400, uint64(100+trial)))
		base := randomNiceSchedule(r, 1+r.IntN(4), h)
		res, err := Study(context.Background(), ItemSample(items), nil, StudyOptions{Options: Options{Horizon: h},
			Baselines: []Baseline{{Name: "b", Schedule: base}}, NoSignals: true, NoBatches: true, NoDeadlines: true})
		if err != nil {
			t.Fatalf("%s: %v", schedule.Format(base), err)
		}
		b, f := res.Baselines[0].Baseline, res.Fitted
		if f.RequestsPerItem > b.RequestsPerItem*(1+1e-9) || f.Stuck > b.Stuck+1e-9 || f.Lag.Mean > b.Lag.Mean*(1+1e-12) {
			t.Errorf("log %d: at %q's cost (%.3f req/item, %g stuck asks, lag %.4g) the study ships %q: %.3f, %g stuck, lag %.4g",
				trial, b.Schedule, b.RequestsPerItem, b.Stuck, b.Lag.Mean, f.Schedule, f.RequestsPerItem, f.Stuck, f.Lag.Mean)
		}
		fr, err := Fit(items, Options{Budget: Budget{RequestsPerItem: b.RequestsPerItem}, StuckAsks: int(b.Stuck), Horizon: h})
		if err != nil {
			t.Fatal(err)
		}
		m, err := Replay(fr.Schedule, items, ReplayOptions{Horizon: h})
		if err != nil {
			t.Fatal(err)
		}
		if m.RequestsPerItem > b.RequestsPerItem*(1+1e-9) || AsksBy(fr.Schedule, h) > b.Stuck || m.Lag.Mean > b.Lag.Mean*(1+1e-12) {
			t.Errorf("log %d: at %q's cost (%.3f req/item, %g stuck asks, lag %.4g) the search finds %q: %.3f, %g stuck, lag %.4g",
				trial, b.Schedule, b.RequestsPerItem, b.Stuck, b.Lag.Mean, m.Schedule, m.RequestsPerItem, AsksBy(fr.Schedule, h), m.Lag.Mean)
		}
	}
}

// The seed post's Before and Now on the bundled payments log, in sample,
// each the budget of a fit given up at its own end.
func TestFitBeatsBeforeAndNowInSample(t *testing.T) {
	items, _, err := logs.Read([]string{"../testdata/payments.csv"}, logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, dsl string
		h         time.Duration
	}{{"before", beforeDSL + " until 15m", 15 * time.Minute}, {"now", nowDSL, 15 * time.Minute}} {
		base, err := schedule.Parse(c.dsl)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Study(context.Background(), ItemSample(items), nil, StudyOptions{Options: Options{Horizon: c.h},
			Baselines: []Baseline{{Name: c.name, Schedule: base}}, NoSignals: true})
		if err != nil {
			t.Fatal(err)
		}
		b, f := res.Baselines[0].Baseline, res.Fitted
		t.Logf("%s: %.3fs at %.2f req/item; fitted %q %.3fs at %.2f", c.name, b.Lag.Mean, b.RequestsPerItem, f.Schedule, f.Lag.Mean, f.RequestsPerItem)
		if f.RequestsPerItem > b.RequestsPerItem*(1+1e-9) || f.Lag.Mean > b.Lag.Mean {
			t.Errorf("%s: fitted %.4gs at %.3f requests per item, baseline %.4gs at %.3f", c.name, f.Lag.Mean, f.RequestsPerItem, b.Lag.Mean, b.RequestsPerItem)
		}
	}
}

// On every bundled log at budgets 2 to 32: the shipped schedule's stuck
// cost is within its cap, no interval or boundary is past the give-up
// age, and the give-up age is one of the nice ages.
func TestShippedSchedulesGiveUpAndCapTheStuck(t *testing.T) {
	t.Parallel() // minutes of fitting: shares the cores with the other slow tests
	nice := giveUpAges()
	names := []string{"payments", "deadline", "batch"}
	if !testenv.Long() {
		names = names[1:2] // the deadline log, whose burst the cap must hold; all three in the long run
	}
	for _, log := range names {
		items, _, err := logs.Read([]string{"../testdata/" + log + ".csv"}, logs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []float64{2, 4, 8, 16, 32} {
			res, err := Study(context.Background(), ItemSample(items), nil, StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: b}}, Holdout: 0.3, Seed: 1})
			if err != nil {
				t.Fatalf("%s at %g: %v", log, b, err)
			}
			h, s := res.GiveUp.Age, res.Schedule
			if !slices.Contains(nice, h) {
				t.Errorf("%s at %g: give-up age %s is not a nice age", log, b, h)
			}
			// The cap is 8 × the budget, counted by hand from the asks.
			asks, err := s.Timeline().Asks(h)
			if err != nil {
				t.Fatal(err)
			}
			stuck := float64(len(asks)) + alignedBy(s, h)
			if cap := math.Ceil(8 * b); res.StuckCap != int(cap) || stuck > cap || math.Abs(stuck-res.Fitted.Stuck) > 1e-9 {
				t.Errorf("%s at %g: %q asks a stuck item %g times by %s (row says %g), cap %d (want %g)", log, b, schedule.Format(s), stuck, h, res.Fitted.Stuck, res.StuckCap, cap)
			}
			end, ok := s.End()
			if !ok || end > h {
				t.Errorf("%s at %g: %q does not stop by %s", log, b, schedule.Format(s), h)
			}
			for _, c := range s.Clauses {
				if c.Every > h || c.Until > h || slices.ContainsFunc(c.At, func(a time.Duration) bool { return a > h }) {
					t.Errorf("%s at %g: clause of %q past %s", log, b, schedule.Format(s), h)
				}
			}
			for _, a := range s.Aligned {
				if a.Until == 0 || a.Until > h {
					t.Errorf("%s at %g: aligned asks of %q past %s", log, b, schedule.Format(s), h)
				}
			}
		}
	}
}

// alignedBy is the expected number of aligned asks by h over a uniform
// creation phase: offsets × span / period, worked out apart from AsksBy.
func alignedBy(s *schedule.Schedule, h time.Duration) float64 {
	var n float64
	for _, a := range s.Aligned {
		span := min(h, a.Until)
		n += float64(len(a.Offsets)) * float64(span) / float64(a.Period)
	}
	return n
}

// Same lag as a baseline: the schedule found, replayed on the held-out
// items apart from the study, waits no longer than the baseline there
// and spends the requests the row says, the saving being their ratio.
func TestSameLagAsABaseline(t *testing.T) {
	items := payments(6000, 12)
	base, err := schedule.Parse(beforeDSL + " until 15m")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Study(context.Background(), ItemSample(items), nil, StudyOptions{Options: Options{Horizon: 15 * time.Minute},
		Holdout: 0.3, Seed: 2, NoSignals: true, Baselines: []Baseline{{Name: "before", Schedule: base}}})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Baselines[0]
	if c.SameLag == nil {
		t.Fatal("no schedule as fast as before")
	}
	m, err := ReplaySample(c.SameLagSchedule, *res.HeldOut, ReplayOptions{Horizon: 15 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReplaySample(base, *res.HeldOut, ReplayOptions{Horizon: 15 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("before %.4gs at %.3f; same lag: %q %.4gs at %.3f (saving %.1f%%)", b.Lag.Mean, b.RequestsPerItem, m.Schedule, m.Lag.Mean, m.RequestsPerItem, 100*c.Saving)
	if m.Lag.Mean > b.Lag.Mean || m.RequestsPerItem != c.SameLag.RequestsPerItem || m.Lag.Mean != c.SameLag.Lag.Mean {
		t.Errorf("same lag row %.4gs at %.4g, replayed %.4gs at %.4g; before %.4gs", c.SameLag.Lag.Mean, c.SameLag.RequestsPerItem, m.Lag.Mean, m.RequestsPerItem, b.Lag.Mean)
	}
	// Before is a poor schedule: the fit matches it for fewer requests.
	if want := 1 - m.RequestsPerItem/b.RequestsPerItem; math.Abs(c.Saving-want) > 1e-12 || !(c.Saving > 0) {
		t.Errorf("saving %g, want %g", c.Saving, want)
	}
}

// The bootstrap's interval for the improvement at a baseline's cost
// covers the improvement the same schedules show on a log ten times as
// large from the same process, in at least 90% of 50 seeded trials (95%
// nominal; the binomial sd of 50 trials at 95% is 3%).
func TestBootstrapCoverage(t *testing.T) {
	testenv.SkipUnlessLong(t) // 50 studies
	t.Parallel()              // minutes of fitting: shares the cores with the other slow tests
	base, err := schedule.Parse(beforeDSL + " until 15m")
	if err != nil {
		t.Fatal(err)
	}
	h := 15 * time.Minute
	covered := 0
	for trial := range 50 {
		res, err := Study(context.Background(), ItemSample(payments(1500, uint64(1000+trial))), nil, StudyOptions{Options: Options{Horizon: h},
			Holdout: 0.3, Seed: uint64(trial), NoSignals: true, Bootstrap: 200, Baselines: []Baseline{{Name: "before", Schedule: base}}})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Baselines[0]
		big := ItemSample(payments(15000, uint64(5000+trial)))
		replay := func(s *schedule.Schedule) Metrics {
			m, err := ReplaySample(s, big, ReplayOptions{Horizon: h})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		bm := replay(base)
		var lags []float64
		for _, s := range c.reads {
			lags = append(lags, replay(s).Lag.Mean)
		}
		y := c.equalCostLag(lags)
		truth := y/bm.Lag.Mean - 1
		if c.ChangeCI[0] <= truth && truth <= c.ChangeCI[1] {
			covered++
		}
		if !(c.ChangeCI[1]-c.ChangeCI[0] > 1e-3) {
			t.Errorf("trial %d: a degenerate interval %v (the fit and before must differ)", trial, c.ChangeCI)
		}
	}
	t.Logf("covered %d of 50", covered)
	if covered < 45 {
		t.Errorf("the 95%% interval covered the larger log's improvement in %d of 50 trials, want at least 45", covered)
	}
}

// TestStudyProgress: Study tells Progress its stages in the order it
// runs them, and StudyFrontier each budget as it starts.
func TestStudyProgress(t *testing.T) {
	var got []string
	opt := StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 6}, Horizon: 5 * time.Minute},
		Holdout: 0.3, Seed: 1, Bootstrap: 2, Progress: func(s string) { got = append(got, s) }}
	smp := ItemSample(payments(2000, 5))
	if _, err := Study(context.Background(), smp, nil, opt); err != nil {
		t.Fatal(err)
	}
	want := []string{"fitting", "measuring", "the limit", "the baselines", "the bootstrap"}
	if !slices.Equal(got, want) {
		t.Errorf("stages %q, want %q", got, want)
	}
	got = nil
	opt.Bootstrap = 0
	every, err := schedule.Parse("10s until 10m")
	if err != nil {
		t.Fatal(err)
	}
	opt.Baselines = []Baseline{{Name: "every", Schedule: every}, {Name: "every", Schedule: every}}
	if _, err := Study(context.Background(), smp, nil, opt); err != nil {
		t.Fatal(err)
	}
	want = []string{"fitting", "measuring", "the limit", "the baselines", "baseline every (1 of 2)", "baseline every (2 of 2)", "the bootstrap"}
	if !slices.Equal(got, want) {
		t.Errorf("stages with two baselines %q, want %q", got, want)
	}
	got, opt.Baselines = nil, nil
	if _, _, err := StudyFrontier(context.Background(), smp, nil, nil, opt, []float64{8, 4}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"budget 1 of 2", "budget 2 of 2"}; !slices.Equal(got, want) {
		t.Errorf("frontier stages %q, want %q", got, want)
	}
}
