package fit

import (
	"math"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/internal/loggen"
)

func payments(n int, seed uint64) []estimate.Item {
	return loggen.Items(loggen.Rows(loggen.Payments, n, seed))
}

// On a log the optimiser's prediction is exact: Replay measures the same.
func TestFitPredictionEqualsReplay(t *testing.T) {
	items := payments(20000, 7)
	for _, opt := range []Options{
		{Budget: Budget{RequestsPerItem: 15}},
		{Budget: Budget{RequestsPerItem: 25}, Horizon: 15 * time.Minute, Clauses: 6},
		{Budget: Budget{Price: 0.5}, Horizon: 10 * time.Minute, MinInterval: time.Second},
		{Budget: Budget{AsksBy: 30, AsksByAge: 5 * time.Minute}},
		{Budget: Budget{RequestsPerItem: 12}, Horizon: 15 * time.Minute, Exact: true},
		{Budget: Budget{RequestsPerItem: 12}, Horizon: 15 * time.Minute, Objective: RMS},
	} {
		res, err := Fit(items, opt)
		if err != nil {
			t.Fatalf("%+v: %v", opt, err)
		}
		m, err := Replay(res.Schedule, items, ReplayOptions{Horizon: res.Horizon})
		if err != nil {
			t.Fatal(err)
		}
		p := res.Fitted
		if math.Abs(m.Lag.Mean-p.Lag.Mean) > 1e-9 || math.Abs(m.RequestsPerItem-p.RequestsPerItem) > 1e-9 ||
			math.Abs(float64(m.Detected)/float64(m.Items)-p.Detected) > 1e-12 {
			t.Errorf("%s: replay lag %.9g req %.9g, predicted lag %.9g req %.9g", res.Schedule, m.Lag.Mean, m.RequestsPerItem, p.Lag.Mean, p.RequestsPerItem)
		}
		if lim := opt.Budget.RequestsPerItem; lim > 0 && m.RequestsPerItem > lim {
			t.Errorf("%s: %.4g requests per item, over the budget %g", res.Schedule, m.RequestsPerItem, lim)
		}
		if n := opt.Budget.AsksBy; n > 0 && AsksBy(res.Schedule, opt.Budget.AsksByAge) > float64(n) {
			t.Errorf("%s: %g asks by %s, over %d", res.Schedule, AsksBy(res.Schedule, opt.Budget.AsksByAge), opt.Budget.AsksByAge, n)
		}
		// The exact optimum is at least as good as the schedule shipped.
		if res.Optimum.Lag.Mean > p.Lag.Mean*(1+1e-3) && opt.Objective == Mean && opt.Budget.Price == 0 {
			t.Errorf("%s: optimum lag %.6g worse than fitted %.6g", res.Schedule, res.Optimum.Lag.Mean, p.Lag.Mean)
		}
	}
}

// On a model the prediction is an integral; a large sample drawn from the
// model replays to it within sampling error.
func TestModelPredictionMatchesSample(t *testing.T) {
	m := mustModel(t, "0.4*gamma(shape=2, scale=2s) + 0.6*lognormal(median=20s, sigma=0.7)")
	res, err := Optimal(m, Options{Budget: Budget{RequestsPerItem: 10}})
	if err != nil {
		t.Fatal(err)
	}
	items := m.Items(300000, 11, 1e9)
	r, err := Replay(res.Schedule, items, ReplayOptions{Horizon: res.Horizon})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Fitted
	t.Logf("%s: predicted lag %.4g p95 %.4g req %.4g; sample %.4g p95 %.4g req %.4g", res.Schedule, p.Lag.Mean, p.Lag.P95, p.RequestsPerItem, r.Lag.Mean, r.Lag.P95, r.RequestsPerItem)
	// Lags are below the largest interval (≤ 30 s), so the standard error
	// of the mean is < 30/√300000 ≈ 0.055 s; requests per item likewise
	// have sd < 30, se < 0.055.
	if math.Abs(r.Lag.Mean-p.Lag.Mean) > 0.05 || math.Abs(r.RequestsPerItem-p.RequestsPerItem) > 0.1 {
		t.Errorf("sample lag %.4g req %.4g, predicted %.4g %.4g", r.Lag.Mean, r.RequestsPerItem, p.Lag.Mean, p.RequestsPerItem)
	}
	for _, q := range [][2]float64{{r.Lag.P50, p.Lag.P50}, {r.Lag.P90, p.Lag.P90}, {r.Lag.P99, p.Lag.P99}} {
		if math.Abs(q[0]-q[1]) > 0.02*q[1]+0.01 {
			t.Errorf("sample lag quantile %.4g, predicted %.4g", q[0], q[1])
		}
	}
	if p.RequestsPerItem > 10+1e-9 {
		t.Errorf("predicted %g requests per item, over 10", p.RequestsPerItem)
	}
}

func TestOptionErrors(t *testing.T) {
	m := mustModel(t, "0.9*exponential(mean=10s) + 0.1*never")
	for _, opt := range []Options{
		{},
		{Budget: Budget{Price: 1, RequestsPerItem: 3}},
		{Budget: Budget{Price: 1}},                          // never-settling mass needs a horizon
		{Budget: Budget{MaxAttempts: 5}},                    // needs a horizon
		{Budget: Budget{RequestsPerItem: 0.5}, Horizon: 60}, // below one request
		{Budget: Budget{Price: 1}, Horizon: time.Minute, MinInterval: 2 * time.Second, MaxInterval: time.Second},
		{Budget: Budget{Price: 1}, Horizon: time.Minute, FirstAsk: 2 * time.Minute},
	} {
		if _, err := Optimal(m, opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
}

// MaxAttempts with a horizon: at most N asks, the last at the horizon.
func TestMaxAttempts(t *testing.T) {
	m := mustModel(t, "0.7*lognormal(median=5m, sigma=1) + 0.3*lognormal(median=6h, sigma=1)")
	h := time.Duration(3.5 * 24 * float64(time.Hour))
	res, err := Optimal(m, Options{Budget: Budget{MaxAttempts: 8}, Horizon: h, FirstAsk: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Optimum.Asks
	if len(a) > 8 || a[len(a)-1] != h.Seconds() || a[0] != 10 {
		t.Errorf("optimum %v: want at most 8 asks from 10 s to %s", a, h)
	}
	if n := AsksBy(res.Schedule, h); n > 8 {
		t.Errorf("%s asks %g times", res.Schedule, n)
	}
	t.Logf("8 attempts in 3.5d: %s; exact %v", res.Schedule, a)
}
