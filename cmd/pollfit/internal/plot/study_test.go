package plot

import (
	"math"
	"slices"
	"testing"

	"github.com/pollfit/pollfit/fit"
)

// FrontierOf labels the fitted curve with the clauses asked for, adds the
// knee as the last point and leaves out the kinds with no schedule
// within a budget (NaN).
func TestFrontierOf(t *testing.T) {
	nan := math.NaN()
	pred := func(req, lag float64) fit.Prediction {
		return fit.Prediction{RequestsPerItem: req, Lag: fit.LagStats{Mean: lag}}
	}
	pts := []fit.FrontierPoint{
		{RequestsPerItem: 4, Limit: pred(4, 3), Fitted: pred(4.1, 3.5), Fixed: pred(nan, nan), Backoff: pred(4, 6), Jitter: pred(nan, nan)},
		{RequestsPerItem: 8, Limit: pred(8, 1), Fitted: pred(7.9, 1.2), Fixed: pred(8, 4), Backoff: pred(8, 3), Jitter: pred(nan, nan), Knee: true},
	}
	f := FrontierOf(pts, []Point{{Name: "now", Cost: 20, Wait: 0.6}}, 6)
	var names []string
	for _, s := range f.Series {
		names = append(names, s.Name)
	}
	want := []string{"limit, in hindsight", "fitted, 6 clauses", "fixed interval", "backoff ×2", "now", "knee (8 req/item)"}
	if !slices.Equal(names, want) {
		t.Errorf("series %q, want %q", names, want)
	}
	if f := FrontierOf(pts, nil, 0); f.Series[1].Name != "fitted schedules" {
		t.Errorf("exact asks: fitted curve %q", f.Series[1].Name)
	}
}
