package fit

import (
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
	pts, err := Frontier(m, nil, geometric(5, 40, 6), Options{Horizon: 15 * time.Minute}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pts {
		b := p.RequestsPerItem
		t.Logf("%.3g req/item: optimum %.4g, 4 segments %.4g, fixed %.4g, backoff %.4g, jitter %.4g; %s", b, p.Optimum.Lag.Mean, p.Segments.Lag.Mean, p.Fixed.Lag.Mean, p.Backoff.Lag.Mean, p.Jitter.Lag.Mean, p.Schedule)
		for _, q := range []Prediction{p.Optimum, p.Segments, p.Fixed, p.Backoff, p.Jitter} {
			if q.RequestsPerItem > b*(1+1e-9) {
				t.Errorf("budget %g: a schedule spends %g", b, q.RequestsPerItem)
			}
		}
		if p.Optimum.Lag.Mean > p.Segments.Lag.Mean*1.001 || p.Optimum.Lag.Mean > p.Fixed.Lag.Mean || p.Optimum.Lag.Mean > p.Backoff.Lag.Mean {
			t.Errorf("budget %g: the optimum is not the least lag", b)
		}
	}
	again, _ := Frontier(m, nil, geometric(5, 40, 6), Options{Horizon: 15 * time.Minute}, 1)
	if again[2].Jitter.Lag.Mean != pts[2].Jitter.Lag.Mean || again[2].JitterBase != pts[2].JitterBase {
		t.Errorf("jitter not reproducible with the same seed")
	}
}

// For exponential settle times (rate λ) a fixed interval x asks at 0
// (everyone) and at kx those not seen at (k−1)x: 1 + Σₖ e^{−λkx} =
// 1 + 1/(1 − e^{−λx}) requests per item. An answer waits
// x/(1 − e^{−λx}) − 1/λ on average. So the interval that spends b
// requests is −ln(1 − 1/(b−1))/λ.
func TestFrontierFixedIntervalExponential(t *testing.T) {
	m := mustModel(t, "exponential(mean=10s)")
	for _, p := range mustFrontier(t, m, []float64{3, 5, 20}) {
		b := p.RequestsPerItem
		x := -10 * math.Log(1-1/(b-1))
		lag := x/(1-math.Exp(-x/10)) - 10
		if math.Abs(p.FixedInterval-x) > 1e-3*x || math.Abs(p.Fixed.Lag.Mean-lag) > 1e-3*lag {
			t.Errorf("budget %g: interval %.6g lag %.6g, want %.6g %.6g", b, p.FixedInterval, p.Fixed.Lag.Mean, x, lag)
		}
	}
}

func mustFrontier(t *testing.T, d Distribution, budgets []float64) []FrontierPoint {
	t.Helper()
	pts, err := Frontier(d, nil, budgets, Options{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

// The exact optimum is the limit: at every budget no family does better
// on the same items. (The families once stopped at the horizon and so
// missed the latest answers, which then counted in neither lag nor cost:
// at 2 requests per item a fixed interval "beat" the optimum by half.)
func TestFrontierOptimumIsTheLimit(t *testing.T) {
	items := payments(5000, 21)
	pts, err := Frontier(nil, items, []float64{2, 2.2, 3, 5, 8, 20}, Options{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range pts {
		for name, pr := range map[string]Prediction{"segments": pt.Segments, "fixed": pt.Fixed, "backoff": pt.Backoff} {
			if math.IsNaN(pr.Lag.Mean) || pr.RequestsPerItem > pt.RequestsPerItem*(1+1e-9) {
				continue
			}
			if pr.Lag.Mean < pt.Optimum.Lag.Mean*(1-1e-9) && pr.Detected >= pt.Optimum.Detected {
				t.Errorf("budget %v: %s lag %.3fs (seeing %.4f) below the optimum's %.3fs (seeing %.4f)",
					pt.RequestsPerItem, name, pr.Lag.Mean, pr.Detected, pt.Optimum.Lag.Mean, pt.Optimum.Detected)
			}
			if pr.Detected < pt.Optimum.Detected-1e-9 {
				t.Errorf("budget %v: %s sees %.4f of the answers, the optimum %.4f", pt.RequestsPerItem, name, pr.Detected, pt.Optimum.Detected)
			}
		}
	}
}
