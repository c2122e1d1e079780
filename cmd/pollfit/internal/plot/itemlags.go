package plot

import (
	"fmt"
	"math"
	"sync"

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
	cs := make([]Curve, len(ms))
	var wg sync.WaitGroup
	for i, m := range ms {
		wg.Add(1)
		go func() { // each schedule replayed on its own core: they only read smp
			defer wg.Done()
			cs[i] = lagCurve(m, scheds[i], smp)
		}()
	}
	wg.Wait()
	return cs
}

// lagCurve is lagCurves' curve of one schedule.
func lagCurve(m fit.Metrics, s *schedule.Schedule, smp fit.Sample) Curve {
	if lags, ws, err := fit.SampleLags(s, smp, m.Horizon); err == nil && len(lags) > 0 {
		x, y := WeightedECDF(lags, ws)
		return Curve{Name: withCost(m.Name, m.RequestsPerItem), X: x, Y: y, Steps: true}
	}
	x, y := percentileCurve(m.Lag)
	return Curve{Name: withCost(m.Name, m.RequestsPerItem), X: x, Y: y}
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
