package fit

import (
	"math"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

// Webhook retries (the hanzo-webhooks paper's section 5): the settle time
// is how long an endpoint stays down. Outages persist, so attempts are
// not independent and the paper's P(delivered) = 1 − (1 − a)^n does not
// hold: delivery within the window is F(last attempt), at most the share
// that recovers at all.
func TestWebhookAgainstPaperTable(t *testing.T) {
	m, err := estimate.ParseModel("0.6*lognormal(median=10m, sigma=1.2) + 0.35*lognormal(median=4h, sigma=1.2) + 0.05*never")
	if err != nil {
		t.Fatal(err)
	}
	paper, _ := schedule.Parse("at 0s 1m 6m 36m 2h36m 10h36m 34h36m 82h36m")
	window := 84 * time.Hour // 3.5 days

	// P(delivered) by the paper's last attempt, by hand:
	// 0.6·Φ(ln(4956/10)/1.2) + 0.35·Φ(ln(4956/240)/1.2)
	// = 0.6·Φ(5.172) + 0.35·Φ(2.524) = 0.6·1.0000 + 0.35·0.99420 = 0.94797.
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	hand := 0.6*phi(math.Log(4956.0/10)/1.2) + 0.35*phi(math.Log(4956.0/240)/1.2)
	if math.Abs(hand-0.94797) > 5e-5 {
		t.Fatalf("hand value %v, want 0.94797", hand)
	}
	if got := m.CDF((82*time.Hour + 36*time.Minute).Seconds()); math.Abs(got-hand) > 1e-9 {
		t.Errorf("P(delivered by 82h36m) = %v, want %v", got, hand)
	}
	claim := 1 - math.Pow(1-0.5, 8) // the paper's 99.6% for a = 0.5, n = 8
	if !(hand < claim-0.04) {
		t.Errorf("persistent outages deliver %.4f, expected well below the independent-attempts claim %.4f", hand, claim)
	}

	// Eight attempts fitted to the outages beat the paper's table on the
	// expected delivery delay and deliver at least as often in the window.
	res, err := Optimal(m, Options{Budget: Budget{MaxAttempts: 8}, Horizon: window})
	if err != nil {
		t.Fatal(err)
	}
	asks, err := res.Schedule.Timeline().Asks(window)
	if err != nil || len(asks) > 8 {
		t.Fatalf("fitted schedule %s asks %d times (%v), want at most 8", res.Schedule, len(asks), err)
	}
	items := m.Items(200000, 9, math.Inf(1))
	fm, err := Replay(res.Schedule, items, ReplayOptions{Horizon: window})
	if err != nil {
		t.Fatal(err)
	}
	pm, err := Replay(paper, items, ReplayOptions{Horizon: window})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fitted %s: delay %.0fs, delivered %.4f; paper: delay %.0fs, delivered %.4f",
		res.Schedule, fm.Lag.Mean, float64(fm.Detected)/float64(fm.Items), pm.Lag.Mean, float64(pm.Detected)/float64(pm.Items))
	if !(fm.Lag.Mean < 0.8*pm.Lag.Mean) {
		t.Errorf("fitted mean delay %.0fs, paper's %.0fs: want at least 20%% less", fm.Lag.Mean, pm.Lag.Mean)
	}
	if fm.Detected < pm.Detected {
		t.Errorf("fitted delivers %.0f, paper %.0f", fm.Detected, pm.Detected)
	}
}

// A horizon that no nice interval reaches (the paper's last attempt, at
// 82h36m) still gets a schedule: its last clause is followed by an
// explicit ask at the horizon, so no answer before it is missed.
func TestOddHorizon(t *testing.T) {
	m, _ := estimate.ParseModel("0.6*lognormal(median=10m, sigma=1.2) + 0.4*lognormal(median=4h, sigma=1.2)")
	h := 82*time.Hour + 36*time.Minute
	for _, b := range []Budget{{MaxAttempts: 8}, {RequestsPerItem: 20}} {
		res, err := Optimal(m, Options{Budget: b, Horizon: h})
		if err != nil {
			t.Fatalf("%+v: %v", b, err)
		}
		last, ok := res.Schedule.End()
		if !ok || last != h {
			t.Errorf("%+v: %s ends at %v, %v; want the horizon %v", b, res.Schedule, last, ok, h)
		}
	}
}

// On a log where every answer comes within a minute, the log says nothing
// of what a forever clause costs after that. Fit assumes one more stuck
// item than it saw, asked for an hour, so the tail does not ask every few
// milliseconds (before that assumption it fitted "10ms" forever: 360,000
// asks an hour for a stuck item).
func TestForeverTailIsNotFree(t *testing.T) {
	items := loggen.Items(loggen.Rows(loggen.Deadline, 4000, 5))
	res, err := Fit(items, Options{Budget: Budget{RequestsPerItem: 8}})
	if err != nil {
		t.Fatal(err)
	}
	cs := res.Schedule.Clauses
	if last := cs[len(cs)-1]; !last.Forever || last.Every < time.Second {
		t.Errorf("fitted %s: want a forever tail of at least 1s", res.Schedule)
	}
}
