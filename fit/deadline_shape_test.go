package fit

import (
	"math"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

func deadlinesOf(items []estimate.Item) []estimate.Deadline {
	ts := make([]float64, len(items))
	final := make([]bool, len(items))
	for i, it := range items {
		ts[i], final[i] = it.Age, it.Status.Final()
	}
	return estimate.Deadlines(estimate.KaplanMeier(ts, final, nil), estimate.DeadlineOptions{})
}

// On a generated deadline log (a quarter of the items fail at 60 s ±
// 50 ms) the burst after the deadline beats the plain fit on held-out
// items at the same budget: it sees every answer the plain fit sees, at
// a mean lag at least 10% lower, within the budget.
func TestWithDeadlinesHeldOut(t *testing.T) {
	train, test := Split(loggen.Items(loggen.Rows(loggen.Deadline, 10000, 11)), 0.3, 1)
	ds := deadlinesOf(train)
	if len(ds) != 1 || math.Abs(ds[0].Age-60) > 0.1 {
		t.Fatalf("deadlines = %+v; want one at 60 s", ds)
	}
	for _, opt := range []Options{
		{Budget: Budget{RequestsPerItem: 8}},
		{Budget: Budget{RequestsPerItem: 8}, Horizon: 2 * time.Minute},
		{Budget: Budget{AsksBy: 20, AsksByAge: 2 * time.Minute}},
	} {
		res, err := Fit(train, opt)
		if err != nil {
			t.Fatal(err)
		}
		sh, err := WithDeadlines(ItemSample(train), ds, res, opt)
		if err != nil || !sh.Paid {
			t.Fatalf("%+v: WithDeadlines = %v, paid %v; want the burst", opt.Budget, err, sh.Paid)
		}
		plain, _ := Replay(res.Schedule, test, asRun(res.Schedule, res.Horizon))
		shaped, _ := Replay(sh.Schedule, test, asRun(sh.Schedule, res.Horizon))
		t.Logf("%+v: plain %q lag %.3f s (%.0f seen, %.2f req); burst %q lag %.3f s (%.0f seen, %.2f req)", opt.Budget,
			plain.Schedule, plain.Lag.Mean, plain.Detected, plain.RequestsPerItem, shaped.Schedule, shaped.Lag.Mean, shaped.Detected, shaped.RequestsPerItem)
		// The plain fit's last clause may stop short of the deadline
		// within the horizon; in life a schedule that never stops would
		// see those answers at its next ask.
		all, _ := Replay(res.Schedule, test, ReplayOptions{})
		t.Logf("plain seeing every answer: lag %.3f s (%.0f seen, %.2f req)", all.Lag.Mean, all.Detected, all.RequestsPerItem)
		if shaped.Detected < plain.Detected || shaped.Lag.Mean > 0.9*plain.Lag.Mean {
			t.Errorf("%+v: burst lag %.3f s seeing %.0f; plain %.3f s seeing %.0f", opt.Budget, shaped.Lag.Mean, shaped.Detected, plain.Lag.Mean, plain.Detected)
		}
		if opt.Budget.RequestsPerItem > 0 && shaped.RequestsPerItem > 1.03*opt.Budget.RequestsPerItem {
			t.Errorf("%+v: burst spends %.3f requests per item on held-out items", opt.Budget, shaped.RequestsPerItem)
		}
		if opt.Budget.AsksBy > 0 && AsksBy(sh.Schedule, opt.Budget.AsksByAge) > float64(opt.Budget.AsksBy) {
			t.Errorf("burst asks %g times by %s", AsksBy(sh.Schedule, opt.Budget.AsksByAge), opt.Budget.AsksByAge)
		}
		if !hasAtNear(sh.Schedule, 60*time.Second, time.Second) {
			t.Errorf("%+v: no explicit ask just after 60 s in %s", opt.Budget, schedule.Format(sh.Schedule))
		}
	}
}

func hasAtNear(s *schedule.Schedule, age, within time.Duration) bool {
	for _, c := range s.Clauses {
		for _, a := range c.At {
			if a >= age && a <= age+within {
				return true
			}
		}
	}
	return false
}

// Worked by hand on a tiny log: "10s until 2m" and answers at 5 s (two
// items) and at 60.02 s (two items). Plain: the answers at 5 s are seen
// at 10 (lag 5, 2 asks each), those at 60.02 at 70 (lag 9.98, 8 asks
// each): mean lag 7.49 s at 5 requests per item. With "at 60.03s"
// spliced in ("10s until 1m, at 1m0.03s 1m10s, 10s until 2m": the asks
// after the burst stay on their grid, so the schedule still ends at 2m)
// the late answers
// are seen at 60.03 (lag 0.01, 8 asks: 0, 10, ..., 60, 60.03): mean lag
// 2.505 s at 5 requests per item, so the burst pays at a price of 1 s
// per request.
func TestWithDeadlinesByHand(t *testing.T) {
	s, _ := schedule.Parse("10s until 2m")
	items := []estimate.Item{
		{Age: 5, Status: estimate.Settled},
		{Age: 5, Status: estimate.Settled},
		{Age: 60.02, Status: estimate.Failed},
		{Age: 60.02, Status: estimate.Failed},
	}
	spliced, err := spliceAt(s, []time.Duration{60030 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := schedule.Format(spliced), "10s until 1m, at 1m0.03s 1m10s, 10s until 2m"; got != want {
		t.Errorf("spliced = %q, want %q", got, want)
	}
	h := 2 * time.Minute
	m0, _ := Replay(s, items, ReplayOptions{Horizon: h})
	m1, _ := Replay(spliced, items, ReplayOptions{Horizon: h})
	if math.Abs(m0.Lag.Mean-7.49) > 1e-9 || m0.RequestsPerItem != 5 || math.Abs(m1.Lag.Mean-2.505) > 1e-9 || m1.RequestsPerItem != 5 {
		t.Errorf("plain lag %g, %g req; spliced lag %g, %g req; want 7.49, 5 and 2.505, 5", m0.Lag.Mean, m0.RequestsPerItem, m1.Lag.Mean, m1.RequestsPerItem)
	}
	res := &Result{Schedule: s, Horizon: h}
	opt := Options{Budget: Budget{Price: 1}, Horizon: h}
	sh, err := WithDeadlines(ItemSample(items), []estimate.Deadline{{Age: 60.02, Share: 0.5, Width: 1.2}}, res, opt)
	if err != nil || !sh.Paid {
		t.Fatalf("WithDeadlines = %v, paid %v; want the burst", err, sh.Paid)
	}
	if !hasAtNear(sh.Schedule, 60020*time.Millisecond, 10*time.Millisecond) {
		t.Errorf("no ask at 60.02 s in %s", schedule.Format(sh.Schedule))
	}
	if sh.Shaped.Lag.Mean+sh.Shaped.RequestsPerItem > 2.505+5 {
		t.Errorf("shaped %s: lag %g + %g requests; want no more than the hand splice's 7.505", schedule.Format(sh.Schedule), sh.Shaped.Lag.Mean, sh.Shaped.RequestsPerItem)
	}
}

// Splicing keeps the clauses before the burst, cuts the one it lands in
// and drops asks of s among the burst's.
func TestSpliceAt(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1s until 30s, 5s until 1m, 15s until 15m", "1s until 30s, 5s until 1m, at 1m0.1s 1m1s 1m15s, 15s until 15m"},
		{"1s until 30s, 5s until 1m, 15s", "1s until 30s, 5s until 1m, at 1m0.1s 1m1s, 15s"},
		{"at 0s 5s, 2s until 15s, 5s until 45s, 10s", "at 0s 5s, 2s until 15s, 5s until 45s, 10s until 55s, at 1m0.1s 1m1s, 10s"},
		{"at 0s 30s 60s 61s 90s", "at 0s 30s 1m 1m0.1s 1m1s 1m30s"},
		{"2m", "at 0s 1m0.1s 1m1s, 2m"},
		{"10s until 1m", "10s until 1m, at 1m0.1s 1m1s"},
	} {
		s, err := schedule.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := spliceAt(s, []time.Duration{60100 * time.Millisecond, 61 * time.Second})
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if f := schedule.Format(got); f != c.want {
			t.Errorf("spliceAt(%q) = %q, want %q", c.in, f, c.want)
		}
	}
}

// Without a deadline (payments) nothing is tried; a deadline past the
// horizon is not tried either.
func TestWithDeadlinesNone(t *testing.T) {
	train := payments(4000, 5)
	if ds := deadlinesOf(train); len(ds) != 0 {
		t.Fatalf("payments have deadlines %+v", ds)
	}
	opt := Options{Budget: Budget{RequestsPerItem: 8}}
	res, err := Fit(train, opt)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := WithDeadlines(ItemSample(train), nil, res, opt)
	if err != nil || sh.Paid || sh.Schedule != res.Schedule {
		t.Errorf("no deadline: %v, paid %v", err, sh.Paid)
	}
	far := []estimate.Deadline{{Age: 1e6, Share: 0.1, Width: 1}}
	if sh, _ := WithDeadlines(ItemSample(train), far, res, opt); sh.Paid || !sh.Schedule.Equal(res.Schedule) {
		t.Errorf("a deadline past the horizon was tried")
	}
}

// A burst that would shift a stopping schedule's end keeps the grid of
// the clause it lands in: "10s until 1m, 1m until 2m" asks at 0, 10, ...,
// 60, 120; the burst at 60.05 replaces nothing, and a shifted "1m until
// 2m" would never ask, so the schedule keeps 120.
func TestSpliceAtKeepsEnd(t *testing.T) {
	s, _ := schedule.Parse("10s until 1m, 1m until 2m")
	got, err := spliceAt(s, []time.Duration{60050 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if f, want := schedule.Format(got), "10s until 1m, at 1m0.05s 2m"; f != want {
		t.Errorf("spliceAt = %q, want %q", f, want)
	}
	s, _ = schedule.Parse("10s until 1m, 15s until 2m")
	got, _ = spliceAt(s, []time.Duration{60050 * time.Millisecond})
	if f, want := schedule.Format(got), "10s until 1m, at 1m0.05s 1m15s, 15s until 2m"; f != want {
		t.Errorf("spliceAt = %q, want %q", f, want)
	}
}
