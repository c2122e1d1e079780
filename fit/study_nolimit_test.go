package fit

import (
	"context"
	"math"
	"testing"
)

// TestStudyNoLimit: with NoLimit the study leaves the limit out (a NaN
// row named "limit", the reason as its note) and a frontier's limit is
// NaN, while the fit and its figures are those of the study without it.
func TestStudyNoLimit(t *testing.T) {
	smp := ItemSample(payments(3000, 5))
	opt := StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 6}}, Holdout: 0.3, Seed: 1, NoSignals: true}
	with, err := Study(context.Background(), smp, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.NoLimit = "limit: not here"
	without, err := Study(context.Background(), smp, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	if math.IsNaN(with.Limit.RequestsPerItem) {
		t.Fatal("the limit is NaN without NoLimit")
	}
	l := without.Limit
	if l.Name != "limit" || !math.IsNaN(l.RequestsPerItem) || !math.IsNaN(l.Lag.Mean) || without.LimitNote != "limit: not here" {
		t.Errorf("limit %+v, note %q", l, without.LimitNote)
	}
	if without.Schedule.String() != with.Schedule.String() || without.Fitted.Lag.Mean != with.Fitted.Lag.Mean {
		t.Errorf("NoLimit moved the fit: %s (%v) against %s (%v)", without.Schedule, without.Fitted.Lag.Mean, with.Schedule, with.Fitted.Lag.Mean)
	}
	opt.Bootstrap = 0
	pts, _, err := StudyFrontier(context.Background(), smp, nil, nil, opt, []float64{4, 8})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pts {
		if !math.IsNaN(p.Limit.Lag.Mean) || math.IsNaN(p.Fitted.Lag.Mean) {
			t.Errorf("frontier at %v: limit %v, fitted %v", p.RequestsPerItem, p.Limit.Lag.Mean, p.Fitted.Lag.Mean)
		}
	}
}
