package fit

import (
	"context"
	"testing"

	"github.com/pollfit/pollfit/estimate/logs"
)

// TestFrontierIsStudy: each row of StudyFrontier is Study at that
// budget, with the same shapes: on the log whose failures land at a
// 60 s timeout, the schedule and held-out mean lag of every fitted row
// are those Study ships at the budget alone, budgets given out of order.
func TestFrontierIsStudy(t *testing.T) {
	items, _, err := logs.Read([]string{"../testdata/deadline.csv"}, logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	smp := ItemSample(items)
	opt := StudyOptions{Holdout: 0.3, Seed: 1}
	budgets := []float64{8, 3}
	pts, _, err := StudyFrontier(context.Background(), smp, nil, nil, opt, budgets)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pts {
		o := opt
		o.Budget = Budget{RequestsPerItem: p.RequestsPerItem}
		res, err := Study(context.Background(), smp, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		if p.Schedule != res.Schedule.String() || p.Fitted.Lag.Mean != res.Fitted.Lag.Mean {
			t.Errorf("at %g: frontier %q (%.4gs), Study %q (%.4gs)", p.RequestsPerItem, p.Schedule, p.Fitted.Lag.Mean, res.Schedule, res.Fitted.Lag.Mean)
		}
		if res.Shapes.Deadline == nil {
			t.Errorf("at %g: the deadline burst was not tried", p.RequestsPerItem)
		}
	}
}
