package fit

import (
	"context"
	"math"
	"testing"
	"time"
)

const paymentsModel = "0.3*lognormal(median=1.5s, sigma=0.4) + 0.6*lognormal(median=14s, sigma=0.6) + 0.08*lognormal(median=120s, sigma=0.8) + 0.02*never"

func geometric(from, to float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = from * math.Pow(to/from, float64(i)/float64(n-1))
	}
	return out
}

func TestFrontierModel(t *testing.T) {
	m := mustModel(t, paymentsModel)
	opt := StudyOptions{Options: Options{Horizon: 15 * time.Minute}, Seed: 1}
	pts, _, err := StudyFrontier(context.Background(), Sample{}, nil, m, opt, geometric(5, 40, 6))
	if err != nil {
		t.Fatal(err)
	}
	prev := pts[0]
	for _, p := range pts {
		b := p.RequestsPerItem
		t.Logf("%.3g req/item: limit %.4g, fitted %.4g, fixed %.4g, backoff %.4g, jitter %.4g; %s", b, p.Limit.Lag.Mean, p.Fitted.Lag.Mean, p.Fixed.Lag.Mean, p.Backoff.Lag.Mean, p.Jitter.Lag.Mean, p.Schedule)
		for _, q := range []Prediction{p.Limit, p.Fitted, p.Fixed, p.Backoff, p.Jitter} {
			if q.RequestsPerItem > b*(1+1e-9) {
				t.Errorf("budget %g: a schedule spends %g", b, q.RequestsPerItem)
			}
		}
		// The model's limit is on a grid of candidates: within 0.1%.
		if p.Limit.Lag.Mean > p.Fitted.Lag.Mean*1.001 || p.Limit.Lag.Mean > p.Fixed.Lag.Mean || p.Limit.Lag.Mean > p.Backoff.Lag.Mean {
			t.Errorf("budget %g: the limit is not the least lag", b)
		}
		// More budget never buys a family a longer wait.
		for k, pair := range [][2]Prediction{{prev.Fixed, p.Fixed}, {prev.Backoff, p.Backoff}, {prev.Jitter, p.Jitter}} {
			if pair[1].Lag.Mean > pair[0].Lag.Mean {
				t.Errorf("budget %g: family %d waits %.4g, more than %.4g at %g", b, k, pair[1].Lag.Mean, pair[0].Lag.Mean, prev.RequestsPerItem)
			}
		}
		prev = p
	}
	again, _, _ := StudyFrontier(context.Background(), Sample{}, nil, m, opt, geometric(5, 40, 6))
	if again[2].Jitter.Lag.Mean != pts[2].Jitter.Lag.Mean || again[2].JitterBase != pts[2].JitterBase {
		t.Errorf("jitter not reproducible with the same seed")
	}
}

// For exponential settle times (rate λ) a fixed interval x asks at 0
// (everyone) and at kx those not seen at (k−1)x: 1 + Σₖ e^{−λkx} =
// 1 + 1/(1 − e^{−λx}) requests per item. An answer waits
// x/(1 − e^{−λx}) − 1/λ on average. So the interval that spends b
// requests is −ln(1 − 1/(b−1))/λ. Given up at 10m, where e^{−60} of the
// answers are still to come, with a stuck cap that does not bind.
func TestFrontierFixedIntervalExponential(t *testing.T) {
	m := mustModel(t, "exponential(mean=10s)")
	opt := StudyOptions{Options: Options{Horizon: 10 * time.Minute, StuckAsks: 10000}, Seed: 1}
	pts, _, err := StudyFrontier(context.Background(), Sample{}, nil, m, opt, []float64{3, 5, 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pts {
		b := p.RequestsPerItem
		x := -10 * math.Log(1-1/(b-1))
		lag := x/(1-math.Exp(-x/10)) - 10
		if math.Abs(p.FixedInterval-x) > 1e-3*x || math.Abs(p.Fixed.Lag.Mean-lag) > 1e-3*lag {
			t.Errorf("budget %g: interval %.6g lag %.6g, want %.6g %.6g", b, p.FixedInterval, p.Fixed.Lag.Mean, x, lag)
		}
	}
}

// The limit is the limit: at every budget neither the fitted schedule
// nor a family does better on the same items. (The families once stopped
// at the horizon and so missed the latest answers, which then counted in
// neither lag nor cost: at 2 requests per item a fixed interval "beat"
// the optimum by half.)
func TestFrontierLimitIsTheLimit(t *testing.T) {
	items := payments(5000, 21)
	opt := StudyOptions{Seed: 1, NoSignals: true}
	pts, _, err := StudyFrontier(context.Background(), ItemSample(items), nil, nil, opt, []float64{2, 2.2, 3, 5, 8, 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range pts {
		lim := pt.Limit.Lag.Mean * pt.Limit.Detected
		for name, pr := range map[string]Prediction{"fitted": pt.Fitted, "fixed": pt.Fixed, "backoff": pt.Backoff} {
			if math.IsNaN(pr.Lag.Mean) || pr.RequestsPerItem > pt.RequestsPerItem*(1+1e-9) {
				continue
			}
			if pr.Lag.Mean*pr.Detected < lim*(1-1e-9) && pr.Detected >= pt.Limit.Detected-1e-12 {
				t.Errorf("budget %v: %s lag %.3fs (seeing %.4f) below the limit's %.3fs (seeing %.4f)",
					pt.RequestsPerItem, name, pr.Lag.Mean, pr.Detected, pt.Limit.Lag.Mean, pt.Limit.Detected)
			}
		}
	}
}

// The knee, worked by hand: lags 10, 4, 2, 1.9, 1.85 s at 2, 4, 6, 8, 10
// requests per item. The next request buys (10−4)/2 = 3, (4−2)/2 = 1,
// (2−1.9)/2 = 0.05 and (1.9−1.85)/2 = 0.025 s. 5% of the lag is 0.5, 0.2,
// 0.1 and 0.095 s: 6 requests per item is the first budget past which a
// request buys less (0.05 < 0.1). A lag that rises with the budget (held-
// out noise) counts as the lag before it.
func TestKnee(t *testing.T) {
	var pts []FrontierPoint
	for i, l := range []float64{10, 4, 2, 1.9, 1.85} {
		fp := FrontierPoint{RequestsPerItem: float64(2 * (i + 1))}
		fp.Fitted.Lag.Mean = l
		pts = append(pts, fp)
	}
	markKnee(pts)
	for i, want := range []float64{3, 1, 0.05, 0.025} {
		if math.Abs(pts[i].Gain-want) > 1e-12 {
			t.Errorf("gain at %g: %g, want %g", pts[i].RequestsPerItem, pts[i].Gain, want)
		}
	}
	for i, p := range pts {
		if p.Knee != (i == 2) {
			t.Errorf("knee at %g: %v", p.RequestsPerItem, p.Knee)
		}
	}
	pts[3].Fitted.Lag.Mean = 2.5 // noise: no better than 2
	pts[2].Knee = false
	markKnee(pts)
	if pts[2].Gain != 0 || !pts[2].Knee {
		t.Errorf("with a rising lag: gain %g, knee %v at 6", pts[2].Gain, pts[2].Knee)
	}
}

// The knee is the first budget from which on every next request buys
// less than 5% of the lag, not the first that does: lags 10, 4, 3.9, 2,
// 1.95 s at 2, 4, 6, 8, 10 requests per item buy 3, 0.05, 0.95 and
// 0.025 s a request, against 5% of the lag 0.5, 0.2, 0.195 and 0.1 s.
// At 4 the next request buys less (0.05 < 0.2), but at 6 it buys more
// (0.95 > 0.195): the knee is at 8, and a sentence "past it a request
// buys less than 5%" holds at every row after it. With the last gain
// above 5% too there is no knee.
func TestKneeHoldsPastIt(t *testing.T) {
	var pts []FrontierPoint
	for i, l := range []float64{10, 4, 3.9, 2, 1.95} {
		fp := FrontierPoint{RequestsPerItem: float64(2 * (i + 1))}
		fp.Fitted.Lag.Mean = l
		pts = append(pts, fp)
	}
	markKnee(pts)
	if k := Knee(pts); k == nil || k.RequestsPerItem != 8 {
		t.Errorf("knee %+v, want at 8", k)
	}
	pts[4].Fitted.Lag.Mean = 1 // (2−1)/2 = 0.5 > 0.1
	markKnee(pts)
	if k := Knee(pts); k != nil {
		t.Errorf("knee at %g, want none", k.RequestsPerItem)
	}
}
