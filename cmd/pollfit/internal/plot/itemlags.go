package plot

import (
	"fmt"
	"math"

	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// percentileCurve is the lag distribution known only by its replayed
// percentiles: (lag, share) pairs.
func percentileCurve(l fit.LagStats) (x, y []float64) {
	for _, p := range []struct{ v, q float64 }{{l.P50, 0.5}, {l.P90, 0.9}, {l.P95, 0.95}, {l.P99, 0.99}, {l.Max, 1}} {
		if !math.IsNaN(p.v) {
			x, y = append(x, p.v), append(y, p.q)
		}
	}
	return x, y
}

// lagCurves are the lag distributions of the replayed schedules ms
// (ms[i] replays scheds[i] on smp), for Lags: the ECDF of each
// schedule's lags (weighted by each item's weight: a sketch's bins
// count their items), or its replayed percentiles when the items cannot
// say (aligned asks on items without creation times).
func lagCurves(ms []fit.Metrics, scheds []*schedule.Schedule, smp fit.Sample) []Curve {
	var cs []Curve
	for i, m := range ms {
		if lags, ws, err := fit.SampleLags(scheds[i], smp, m.Horizon); err == nil && len(lags) > 0 {
			x, y := WeightedECDF(lags, ws)
			cs = append(cs, Curve{Name: withCost(m.Name, m.RequestsPerItem), X: x, Y: y, Steps: true})
			continue
		}
		x, y := percentileCurve(m.Lag)
		cs = append(cs, Curve{Name: withCost(m.Name, m.RequestsPerItem), X: x, Y: y})
	}
	return cs
}

// withCost is a schedule's legend name with its requests per item, so
// that a legend comparing schedules says what each one spends: "now,
// 20.09 req/item".
func withCost(name string, requests float64) string {
	if !finite(requests) {
		return name
	}
	return fmt.Sprintf("%s, %.2f req/item", name, requests)
}
