package fit

import (
	"math"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

func TestSplit(t *testing.T) {
	items := payments(10000, 3)
	a, b := Split(items, 0.3, 9)
	if len(a)+len(b) != len(items) {
		t.Fatalf("split lost items: %d + %d != %d", len(a), len(b), len(items))
	}
	// Binomial(10000, 0.3): sd ≈ 46.
	if n := len(b); math.Abs(float64(n)-3000) > 230 {
		t.Errorf("held out %d of 10000 at 0.3", n)
	}
	a2, b2 := Split(items, 0.3, 9)
	if len(a2) != len(a) || len(b2) != len(b) || b2[0] != b[0] {
		t.Errorf("same seed, different split")
	}
	if a3, b3 := Split(items, 0, 9); len(a3) != len(items) || b3 != nil {
		t.Errorf("frac 0 held something out")
	}
}

// smoothed estimates the settle-time density of items with package
// estimate: Kaplan–Meier, then the log-age kernel smoother.
func smoothed(items []estimate.Item) *estimate.Dist {
	ts := make([]float64, len(items))
	final := make([]bool, len(items))
	for i, it := range items {
		ts[i], final[i] = it.Age, it.Status.Final()
	}
	return estimate.Density(estimate.KaplanMeier(ts, final, nil), estimate.DensityOptions{})
}

// The exact optimum fitted to the items of one half of a log learns that
// half's noise; replayed on the other half it loses some of its edge.
// Fitting the exact optimum to the smoothed density of the same half
// generalises at least as well.
func TestExactOverfitsHalf(t *testing.T) {
	if testing.Short() {
		t.Skip("fits on 2 × 3000 items")
	}
	a, b := Split(payments(6000, 5), 0.5, 2)
	opt := Options{Budget: Budget{RequestsPerItem: 8}, Horizon: 15 * time.Minute, Exact: true}
	onItems, err := Fit(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	onDensity, err := Optimal(smoothed(a), opt)
	if err != nil {
		t.Fatal(err)
	}
	replay := func(items []estimate.Item, r *Result) Metrics {
		m, err := Replay(r.Schedule, items, ReplayOptions{Horizon: opt.Horizon})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	inA, onB := replay(a, onItems), replay(b, onItems)
	dA, dB := replay(a, onDensity), replay(b, onDensity)
	t.Logf("exact on items: fitting half %.4fs (%.3f req), other half %.4fs (%.3f req): %+.1f%%", inA.Lag.Mean, inA.RequestsPerItem, onB.Lag.Mean, onB.RequestsPerItem, 100*(onB.Lag.Mean/inA.Lag.Mean-1))
	t.Logf("exact on density: fitting half %.4fs (%.3f req), other half %.4fs (%.3f req)", dA.Lag.Mean, dA.RequestsPerItem, dB.Lag.Mean, dB.RequestsPerItem)
	k4 := opt
	k4.Exact = false
	seg, err := Fit(a, k4)
	if err != nil {
		t.Fatal(err)
	}
	sA, sB := replay(a, seg), replay(b, seg)
	t.Logf("4 clauses on items: fitting half %.4fs (%.3f req), other half %.4fs (%.3f req): %+.1f%%", sA.Lag.Mean, sA.RequestsPerItem, sB.Lag.Mean, sB.RequestsPerItem, 100*(sB.Lag.Mean/sA.Lag.Mean-1))
	if onB.Lag.Mean <= inA.Lag.Mean {
		t.Errorf("the item-exact optimum did as well on the other half (%.4g ≤ %.4g): no overfitting seen", onB.Lag.Mean, inA.Lag.Mean)
	}
	// Compare at equal cost: lag × requests is roughly constant near the
	// budget (lag ∝ 1/requests for a fixed shape).
	item, dens := onB.Lag.Mean*onB.RequestsPerItem, dB.Lag.Mean*dB.RequestsPerItem
	if dens > item*1.03 {
		t.Errorf("density fit: held-out lag×requests %.4g, worse than the item fit's %.4g", dens, item)
	}
}
