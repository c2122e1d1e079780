package fit

import (
	"context"
	"math"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit/schedule"
)

// fineHistogram bins items on a grid of relative width 1e-3 (above a
// first bin [0, 1ms)) and puts each bin's final and pending counts at its
// geometric midpoint, as the histogram reader does.
func fineHistogram(items []estimate.Item) Sample {
	type key struct {
		bin   int
		final bool
	}
	counts := map[key]float64{}
	for _, it := range items {
		k := 0
		if it.Age >= 1e-3 {
			k = 1 + int(math.Floor(math.Log(it.Age/1e-3)/math.Log(1.001)))
		}
		counts[key{k, it.Status.Final()}]++
	}
	var smp Sample
	for k, n := range counts {
		mid := 0.5e-3
		if k.bin > 0 {
			lo := 1e-3 * math.Pow(1.001, float64(k.bin-1))
			mid = math.Sqrt(lo * lo * 1.001)
		}
		st := estimate.Pending
		if k.final {
			st = estimate.Settled
		}
		smp.Items = append(smp.Items, estimate.Item{Age: mid, Status: st})
		smp.Weights = append(smp.Weights, n)
	}
	return smp
}

// A fit from a fine histogram of the bundled payments log ships a
// schedule within 2% of the raw log's held-out lag: both fitted to the
// same 70% (the raw items, or their histogram) and replayed on the same
// raw 30%, given up at the same age.
func TestFitFromAHistogramMatchesTheLog(t *testing.T) {
	items, _, err := logs.Read([]string{"../testdata/payments.csv"}, logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	train, test := Split(items, 0.3, 1)
	hist := fineHistogram(train)
	if got := hist.Total(); got != float64(len(train)) || hist.Len() >= len(train) {
		t.Fatalf("histogram of %g items in %d bins, want %d items in fewer bins", got, hist.Len(), len(train))
	}
	opt := StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 8}}, NoSignals: true}
	fromHist, err := Study(context.Background(), hist, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	fromLog, err := Study(context.Background(), ItemSample(train), nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	if fromHist.GiveUp.Age != fromLog.GiveUp.Age {
		t.Fatalf("give-up ages %s (histogram) and %s (log)", fromHist.GiveUp.Age, fromLog.GiveUp.Age)
	}
	h := fromLog.GiveUp.Age
	replay := func(s *schedule.Schedule) Metrics {
		m, err := Replay(s, test, ReplayOptions{Horizon: h})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	mh, ml := replay(fromHist.Schedule), replay(fromLog.Schedule)
	t.Logf("histogram: %q %.4gs at %.3f; log: %q %.4gs at %.3f", mh.Schedule, mh.Lag.Mean, mh.RequestsPerItem, ml.Schedule, ml.Lag.Mean, ml.RequestsPerItem)
	if r := mh.Lag.Mean / ml.Lag.Mean; math.Abs(r-1) > 0.02 {
		t.Errorf("held-out lag from the histogram's fit %.4gs, from the log's %.4gs: ratio %.4f", mh.Lag.Mean, ml.Lag.Mean, r)
	}
	if r := mh.RequestsPerItem / ml.RequestsPerItem; math.Abs(r-1) > 0.02 {
		t.Errorf("held-out requests from the histogram's fit %.4g, from the log's %.4g", mh.RequestsPerItem, ml.RequestsPerItem)
	}
}

// frontier at a budget and fit at that budget are one pipeline: the same
// schedule and the same held-out figures.
func TestFrontierAgreesWithFit(t *testing.T) {
	items := payments(4000, 8)
	opt := StudyOptions{Holdout: 0.3, Seed: 4}
	pts, _, err := StudyFrontier(context.Background(), ItemSample(items), nil, nil, opt, []float64{4, 8, 16})
	if err != nil {
		t.Fatal(err)
	}
	for _, fp := range pts {
		o := opt
		o.Budget = Budget{RequestsPerItem: fp.RequestsPerItem}
		res, err := Study(context.Background(), ItemSample(items), nil, o)
		if err != nil {
			t.Fatal(err)
		}
		if fp.Schedule != schedule.Format(res.Schedule) || fp.Fitted.Lag.Mean != res.Fitted.Lag.Mean || fp.Fitted.RequestsPerItem != res.Fitted.RequestsPerItem {
			t.Errorf("at %g: frontier %q %.4gs at %.3f, fit %q %.4gs at %.3f", fp.RequestsPerItem, fp.Schedule, fp.Fitted.Lag.Mean, fp.Fitted.RequestsPerItem,
				schedule.Format(res.Schedule), res.Fitted.Lag.Mean, res.Fitted.RequestsPerItem)
		}
		// The limit falls as the cost rises: the frontier's at B against
		// the fit's at the fitted schedule's held-out cost.
		lim := res.Limit.Lag.Mean * res.Limit.Detected / res.Limit.Items
		front := fp.Limit.Lag.Mean * fp.Limit.Detected
		if c := res.Limit.RequestsPerItem; (c <= fp.RequestsPerItem && front > lim*(1+1e-9)) || (c >= fp.RequestsPerItem && front < lim*(1-1e-9)) {
			t.Errorf("at %g: the frontier's limit %.5g against the fit's %.5g at %.4g requests per item", fp.RequestsPerItem, front, lim, c)
		}
	}
}
