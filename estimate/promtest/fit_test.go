package promtest

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit"
)

// The split and budget the fits of a histogram use, as pollfit fit's
// defaults with --requests-per-item 8.
const (
	fitHoldout  = 0.3
	fitSeed     = 1
	fitRequests = 8
)

// fitHistogram fits a schedule to a histogram through the library, as
// pollfit fit does to a metric file: its buckets as interval-censored
// items (no unanswered items: the exporter observed answers only), split
// and spread by the fitting part's smoothed Turnbull density
// (source.SplitIntervals), and studied at 8 requests per item.
func fitHistogram(t *testing.T, what string, h *logs.Histogram) *fit.StudyResult {
	t.Helper()
	var set estimate.IntervalSet
	for _, iv := range h.Intervals(0) {
		if err := set.Add(iv); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	in, err := source.SplitIntervals(&set, fitHoldout, fitSeed)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var opt fit.StudyOptions
	opt.Budget.RequestsPerItem = fitRequests
	res, err := fit.Study(context.Background(), in.FitOn, in.HeldOut, opt)
	if err != nil {
		t.Fatalf("%s: fit: %v", what, err)
	}
	return res
}

// figures are the fitted schedule's figures on the held-out items, as
// pollfit fit prints them.
func figures(res *fit.StudyResult) string {
	m := res.Fitted.Metrics
	return fmt.Sprintf("items %g detected %g mean lag %.9g s p95 %.9g s requests/item %.9g stuck %.9g",
		m.Items, m.Detected, m.Lag.Mean, m.Lag.P95, m.RequestsPerItem, res.Fitted.Stuck)
}

// sameFit checks that two histograms of the same observations fit the
// same schedule with the same figures, and that the fit keeps to its
// budget on the held-out items.
func sameFit(t *testing.T, a, b string, ha, hb *logs.Histogram) {
	t.Helper()
	ra, rb := fitHistogram(t, a, ha), fitHistogram(t, b, hb)
	if sa, sb := ra.Schedule.String(), rb.Schedule.String(); sa != sb {
		t.Errorf("the fit from %s ships %s, from %s %s", a, sa, b, sb)
	}
	if fa, fb := figures(ra), figures(rb); fa != fb {
		t.Errorf("the fit's figures from %s: %s\nfrom %s: %s", a, fa, b, fb)
	}
	if r := ra.Fitted.RequestsPerItem; !(r > 1 && r <= fitRequests*(1+1e-9)) || math.IsNaN(ra.Fitted.Lag.Mean) {
		t.Errorf("the fit from %s spends %g requests per item (budget %d), mean lag %g", a, r, fitRequests, ra.Fitted.Lag.Mean)
	}
	t.Logf("%s and %s: ship %s; %s", a, b, ra.Schedule, figures(ra))
}
