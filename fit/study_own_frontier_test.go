package fit

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/testenv"
)

// TestReportBudgets: the report's budgets are 1.5·(80/3)^(k/6), k = 0…6
// (a step of e^(ln(80/3)/6) = 1.7285, worked out by hand), with the study's own requests budget in place of
// the grid budget within a quarter step (a factor of (80/3)^(1/24) ≈
// 1.147) of it, and the grid alone for a budget of another kind.
func TestReportBudgets(t *testing.T) {
	grid := []float64{1.5, 2.5927, 4.4814, 7.7460, 13.389, 23.142, 40}
	cases := []struct {
		own  Budget
		want []float64
	}{
		{Budget{RequestsPerItem: 8}, []float64{1.5, 2.5927, 4.4814, 8, 13.389, 23.142, 40}},           // 7.746 is 3% off: gives way
		{Budget{RequestsPerItem: 10}, []float64{1.5, 2.5927, 4.4814, 7.7460, 10, 13.389, 23.142, 40}}, // 1.29 and 1.34 off: both stay
		{Budget{RequestsPerItem: 100}, append(grid[:7:7], 100)},
		{Budget{AsksBy: 20, AsksByAge: 600e9}, grid},
	}
	for _, c := range cases {
		got := ReportBudgets(c.own)
		if len(got) != len(c.want) {
			t.Errorf("own %+v: budgets %.5g, want %.5g", c.own, got, c.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 5e-4*c.want[i] {
				t.Errorf("own %+v: budgets %.5g, want %.5g", c.own, got, c.want)
				break
			}
		}
	}
}

// TestStudyFrontierIsFit: the report's frontier is fit's (issue 24's
// "frontier = fit"). On the log that settles in batches, with the fit's
// budget the baseline's cost, every point but the fit's own is the
// schedule an independent Study ships at that budget, with its held-out
// mean lag and cost; the fit's own point is the study's own fitted row,
// under the baseline's stuck cap, not a refit.
func TestStudyFrontierIsFit(t *testing.T) {
	items, _, err := logs.Read([]string{"../testdata/batch.csv"}, logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	now, err := schedule.Parse("10s until 10m")
	if err != nil {
		t.Fatal(err)
	}
	smp := ItemSample(items)
	opt := StudyOptions{Holdout: 0.3, Seed: 1, Baselines: []Baseline{{Name: "now", Schedule: now}}}
	fo := opt
	fo.Frontier = true
	res, err := Study(context.Background(), smp, nil, fo)
	if err != nil {
		t.Fatal(err)
	}
	want := ReportBudgets(res.Budget)
	if len(res.Frontier) != len(want) {
		t.Fatalf("%d frontier points, want %d (%.4g)", len(res.Frontier), len(want), want)
	}
	own := 0
	for i, p := range res.Frontier {
		if p.RequestsPerItem != want[i] {
			t.Errorf("point %d at %g requests per item, want %g", i, p.RequestsPerItem, want[i])
		}
		if p.RequestsPerItem == res.Budget.RequestsPerItem {
			own++
			if p.Schedule != res.Schedule.String() || p.Fitted.Lag.Mean != res.Fitted.Lag.Mean || p.Fitted.RequestsPerItem != res.Fitted.RequestsPerItem {
				t.Errorf("own point %q (%.6gs, %.6g req), the fit %q (%.6gs, %.6g req)", p.Schedule, p.Fitted.Lag.Mean, p.Fitted.RequestsPerItem, res.Schedule, res.Fitted.Lag.Mean, res.Fitted.RequestsPerItem)
			}
			continue
		}
		if p.RequestsPerItem > 8 && !testenv.Long() {
			continue // the dear budgets' studies under POLLFIT_LONG_TESTS=1
		}
		o := opt
		o.Budget = Budget{RequestsPerItem: p.RequestsPerItem}
		alone, err := Study(context.Background(), smp, nil, o)
		if err != nil {
			var ie *InfeasibleError
			if !errors.As(err, &ie) || !math.IsNaN(p.Fitted.Lag.Mean) {
				t.Errorf("at %.4g: Study: %v; the frontier's fitted row %q waits %.6gs", p.RequestsPerItem, err, p.Schedule, p.Fitted.Lag.Mean)
			}
			continue
		}
		if p.Schedule != alone.Schedule.String() || p.Fitted.Lag.Mean != alone.Fitted.Lag.Mean || p.Fitted.RequestsPerItem != alone.Fitted.RequestsPerItem {
			t.Errorf("at %.4g: frontier %q (%.6gs, %.6g req), Study %q (%.6gs, %.6g req)", p.RequestsPerItem, p.Schedule, p.Fitted.Lag.Mean, p.Fitted.RequestsPerItem,
				alone.Schedule, alone.Fitted.Lag.Mean, alone.Fitted.RequestsPerItem)
		}
	}
	if own != 1 {
		t.Errorf("the fit's own budget %g is %d points of the frontier, want 1", res.Budget.RequestsPerItem, own)
	}
	if res.Shapes.Batch == nil {
		t.Error("the batch asks were not tried: the log does not test the shapes")
	}
}
