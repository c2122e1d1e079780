package fitjson

import (
	"math"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit"
)

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
}
