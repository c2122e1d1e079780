package fit

import (
	"math"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Replay on a sketch (the log's items in bins 0.023% wide, at each bin's
// mean age) against replay on the items themselves: mean lag within
// 0.1%, requests per item within 0.01%, percentiles within a bin's width
// of the item's lag.
func TestReplayOnASketch(t *testing.T) {
	items, _, err := logs.Read([]string{"../testdata/payments.csv"}, logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sk, err := estimate.NewSketch(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		sk.Add(it, 1)
	}
	var smp Sample
	smp.Items, smp.Weights = sk.Fit.Bins()
	if smp.Total() != float64(len(items)) || smp.Len() >= len(items) {
		t.Fatalf("%g items in %d bins from %d", smp.Total(), smp.Len(), len(items))
	}
	for _, dsl := range []string{nowDSL, beforeDSL, "at 0s 2s 5s 10s, 2s until 20s, 5s until 1m, 10s until 5m"} {
		s, err := schedule.Parse(dsl)
		if err != nil {
			t.Fatal(err)
		}
		opt := ReplayOptions{Horizon: 5 * time.Minute}
		raw, err := Replay(s, items, opt)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReplaySample(s, smp, opt)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: lag %+.4f%%, requests %+.5f%%", dsl, 100*(got.Lag.Mean/raw.Lag.Mean-1), 100*(got.RequestsPerItem/raw.RequestsPerItem-1))
		if math.Abs(got.Lag.Mean/raw.Lag.Mean-1) > 1e-3 || math.Abs(got.RequestsPerItem/raw.RequestsPerItem-1) > 1e-4 {
			t.Errorf("%s: sketch lag %.6g at %.6g requests, log %.6g at %.6g", dsl, got.Lag.Mean, got.RequestsPerItem, raw.Lag.Mean, raw.RequestsPerItem)
		}
		// A bin is 0.023% of the age wide; an answer moves by at most that,
		// and its lag with it unless an ask falls inside the bin.
		for _, p := range [][2]float64{{got.Lag.P50, raw.Lag.P50}, {got.Lag.P90, raw.Lag.P90}, {got.Lag.P99, raw.Lag.P99}} {
			if math.Abs(p[0]-p[1]) > 0.00023*300+1e-9 && math.Abs(p[0]-p[1]) > 0.01*p[1] {
				t.Errorf("%s: sketch percentile %.6g, log %.6g", dsl, p[0], p[1])
			}
		}
		if got.Detected != raw.Detected || got.Missed != raw.Missed || got.Pending != raw.Pending {
			t.Errorf("%s: sketch %g/%g/%g seen/missed/pending, log %g/%g/%g", dsl, got.Detected, got.Missed, got.Pending, raw.Detected, raw.Missed, raw.Pending)
		}
	}
}
