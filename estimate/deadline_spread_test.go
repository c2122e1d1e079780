package estimate_test

import (
	"math"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/internal/loggen"
)

// kmOf is the Kaplan–Meier estimate of items, as the CLI builds it.
func kmOf(items []estimate.Item) *estimate.Survival {
	var acc estimate.Accumulator
	for _, it := range items {
		acc.Add(it)
	}
	return acc.Survival()
}

// Timeouts spread normally by σ at 60 s: the deadline found holds the
// model's share of items, at 60 s, with the model's spread. The shares
// are the models' (the timeout model fails 30% of items at 60 s, the
// deadline model 25%), not figures read off the estimator.
func TestDeadlinesSpread(t *testing.T) {
	for _, c := range []struct {
		name  string
		model func(time.Duration) loggen.Model
		share float64
	}{{"timeout", loggen.Timeout, 0.30}, {"deadline", loggen.DeadlineSpread, 0.25}} {
		for _, sigma := range []float64{0, 0.5, 1.5, 3} {
			items := loggen.Items(loggen.Rows(c.model(time.Duration(sigma*1e9)), 20000, 31))
			ds := estimate.Deadlines(kmOf(items), estimate.DeadlineOptions{})
			t.Logf("%s σ %g: %+v", c.name, sigma, ds)
			if len(ds) != 1 {
				t.Errorf("%s σ %gs: deadlines %+v, want one", c.name, sigma, ds)
				continue
			}
			d := ds[0]
			// σ 0 in the deadline model is its ±50 ms uniform jitter.
			want := sigma
			if sigma == 0 && c.name == "deadline" {
				want = 0.05 / math.Sqrt(3)
			}
			if math.Abs(d.Share-c.share) > 0.05 || math.Abs(d.Age-60) > 0.5 || math.Abs(d.Spread-want) > 0.3*want+0.01 {
				t.Errorf("%s σ %gs: deadline at %.3fs ± %.3fs holding %.3f, want 60s ± %.3gs holding %.2f", c.name, sigma, d.Age, d.Spread, d.Share, want, c.share)
			}
		}
	}
}

// A spread deadline stays in the density as a narrow normal component:
// the CDF gains 2Φ(1) − 1 = 68.3% of the spike's 30% between 58.5 and
// 61.5 s, plus the little background there (under 1% of items), not the
// whole spike at one age nor its middle third.
func TestDensityKeepsSpreadSpike(t *testing.T) {
	items := loggen.Items(loggen.Rows(loggen.Timeout(1500*time.Millisecond), 20000, 32))
	d := estimate.Density(kmOf(items), estimate.DensityOptions{})
	want := 0.30 * math.Erf(1/math.Sqrt2)
	if got := d.CDF(61.5) - d.CDF(58.5); math.Abs(got-want) > 0.02 {
		t.Errorf("CDF(61.5) − CDF(58.5) = %.4f, want %.4f ± 0.02 (atoms %+v)", got, want, d.Atoms())
	}
}

// FailedShare counts the failed share of the final answers in a range of
// ages: 100 failures at 60 s and 50 successes at 60.01 s among 200
// successes at 10 s make 2/3 at 59–61 s, none at 5–15 s.
func TestFailedShare(t *testing.T) {
	var acc estimate.Accumulator
	add := func(n int, age float64, st estimate.Status) {
		for range n {
			acc.Add(estimate.Item{Age: age, Status: st})
		}
	}
	add(100, 60, estimate.Failed)
	add(50, 60.01, estimate.Settled)
	add(200, 10, estimate.Settled)
	if got := acc.FailedShare(59, 61); math.Abs(got-2.0/3) > 1e-12 {
		t.Errorf("failed share at 59–61 s: %g, want 2/3", got)
	}
	if got := acc.FailedShare(5, 15); got != 0 {
		t.Errorf("failed share at 5–15 s: %g, want 0", got)
	}
	if got := acc.FailedShare(100, 200); !math.IsNaN(got) {
		t.Errorf("failed share with no answers: %g, want NaN", got)
	}
}
