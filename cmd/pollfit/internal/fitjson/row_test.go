package fitjson

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit"
)

// TestRowIsFitsJSON: a Row written is byte for byte what fit.Row (and
// fit.Metrics) write, for rows with and without intervals, a spread,
// asks by age, fractional counts and undefined figures (NaN lags, an
// infinite cost, a NaN stuck cost, which fit leaves out).
func TestRowIsFitsJSON(t *testing.T) {
	nan := math.NaN()
	base := fit.Metrics{Name: "now", Schedule: "1s until 30s", Horizon: 15 * time.Minute, Items: 10, Detected: 8, Missed: 1, Pending: 1,
		Lag: fit.LagStats{Mean: 1.25, P50: 1, P90: 2, P95: 2.5, P99: 3, Max: 4}, RequestsPerItem: 17.5,
		AsksBy: []float64{31, 76, 9}, AsksByAges: []time.Duration{30 * time.Second, 2 * time.Minute}}
	weighted := base
	weighted.Items, weighted.Detected, weighted.Missed, weighted.Pending = 1e4, 9999.5, 0.25, 0.25
	weighted.Lag = fit.LagStats{Mean: nan, P50: nan, P90: nan, P95: nan, P99: nan, Max: nan}
	weighted.RequestsPerItem = math.Inf(1)
	weighted.AsksBy, weighted.AsksByAges = nil, nil
	spread := base
	spread.Spread = &fit.Spread{Runs: 9, LagMean: fit.Interval{1, 2}, RequestsPerItem: fit.Interval{nan, 18}}
	for name, r := range map[string]fit.Row{
		"plain":           {Metrics: base, Stuck: 40, MissedShare: 0.1},
		"bootstrap":       {Metrics: base, Stuck: 40.5, MissedShare: 0, LagCI: fit.Interval{1, 1.5}, P95CI: fit.Interval{nan, 3}, RequestsCI: fit.Interval{17, 18}},
		"undefined":       {Metrics: weighted, Stuck: nan, MissedShare: nan},
		"spread":          {Metrics: spread, Stuck: 3e-7, MissedShare: 1},
		"zero":            {},
		"weighted counts": {Metrics: weighted, Stuck: 1e21, MissedShare: 0.5},
	} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := json.Marshal(NewRow(r)); string(got) != string(want) {
			t.Errorf("%s: fitjson writes\n%s\nfit writes\n%s", name, got, want)
		}
		want, _ = json.Marshal(r.Metrics)
		if got, _ := json.Marshal(NewMetricsRow(r.Metrics)); string(got) != string(want) {
			t.Errorf("%s metrics: fitjson writes\n%s\nfit writes\n%s", name, got, want)
		}
	}
}

// TestRowFields: the fields hold the row's figures, worked out by hand
// (seconds, nulls for undefined figures, asks by age in order).
func TestRowFields(t *testing.T) {
	r := NewRow(fit.Row{Metrics: fit.Metrics{Name: "now", Horizon: 90 * time.Second, Lag: fit.LagStats{Mean: 2, P95: math.NaN()},
		AsksBy: []float64{3, 5}, AsksByAges: []time.Duration{2 * time.Minute, 30 * time.Second}}, Stuck: 7})
	if r.Name != "now" || r.Horizon != 90 || *r.Lag.Mean != 2 || r.Lag.P95 != nil || *r.StuckAsks != 7 || r.LagCI != nil {
		t.Errorf("row %+v", r)
	}
	if len(r.AsksBy) != 2 || r.AsksBy[0].Age != "2m" || *r.AsksBy[0].Asks != 3 || r.AsksBy[1].Age != "30s" || *r.AsksBy[1].Asks != 5 {
		t.Errorf("asks_by %+v, want 2m: 3 then 30s: 5", r.AsksBy)
	}
	var a AsksBy
	if err := json.Unmarshal([]byte(`[1]`), &a); err == nil {
		t.Error("asks_by from a JSON array: no error")
	}
}
