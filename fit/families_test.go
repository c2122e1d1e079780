package fit

import (
	"context"
	"math"
	"testing"

	"github.com/pollfit/pollfit/estimate/logs"
)

// The families are costed as the limit is: each member asks at the
// give-up age and sees every answer by it, so no family row beats the
// limit at or below its cost. On the bundled payments log at 2 requests
// per item the fixed interval (2m14s) and the backoff (86.2s) stopped
// before H, missed the answers after their last ask and beat the limit
// (4m38s) on the answers they saw.
func TestFamiliesNeverBeatTheLimit(t *testing.T) {
	items, _, err := logs.Read([]string{"../testdata/payments.csv"}, logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opt := StudyOptions{Holdout: 0.3, Seed: 1, NoSignals: true}
	pts, _, err := StudyFrontier(context.Background(), ItemSample(items), nil, nil, opt, []float64{2, 3, 6})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pts {
		lim := p.Limit
		for name, f := range map[string]Prediction{"fixed": p.Fixed, "backoff": p.Backoff, "jitter": p.Jitter} {
			if math.IsNaN(f.Lag.Mean) {
				continue
			}
			if f.RequestsPerItem <= p.RequestsPerItem*(1+1e-9) && f.Lag.Mean < lim.Lag.Mean*(1-1e-9) {
				t.Errorf("at %g requests per item: %s waits %.4gs at %.4g requests, below the limit's %.4gs", p.RequestsPerItem, name, f.Lag.Mean, f.RequestsPerItem, lim.Lag.Mean)
			}
			if math.Abs(f.Detected-lim.Detected) > 1e-9 {
				t.Errorf("at %g requests per item: %s sees %.6g of the items, the limit %.6g: the rows do not see the same answers", p.RequestsPerItem, name, f.Detected, lim.Detected)
			}
		}
	}
}
