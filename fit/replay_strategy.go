package fit

import (
	"context"
	"fmt"
	"github.com/pollfit/pollfit/internal/quantile"
	"math"
	"math/rand/v2"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Spread is the variation of a randomised strategy's metrics over its
// realisations: 10th and 90th percentiles (R's type 7) of the mean lag
// and of the requests per item. StuckAsks is the median over the
// realisations of the stuck cost, the asks by the horizon to an item
// that never answers (a schedule's is fixed, so it has no Spread).
type Spread struct {
	Runs            int
	LagMean         [2]float64
	RequestsPerItem [2]float64
	StuckAsks       float64
}

// ReplayStrategy replays a retry strategy (package fit/backoff). A
// deterministic one is converted to its schedule and replayed once. A
// randomised one (jitter) is replayed by Monte Carlo: runs realisations,
// realisation i drawing its jitter from a PCG seeded with (seed, i), each
// a schedule of explicit asks shared by every item; the metrics reported
// are the medians over realisations, with their Spread. The metrics of
// each realisation are folded into running quantile sketches
// (quantile.Quantiles: exact up to 1024 runs, within 0.1% beyond), so
// memory does not grow with runs; MaxStrategyRuns bounds the time.
//
// A realisation asks up to the horizon, or when none is given up to its
// first ask at or after the largest final age, so that, like a schedule
// that never stops, it sees every answer in the log. The replay stops
// soon after ctx is done, with ctx's error wrapped.
func ReplayStrategy(ctx context.Context, st backoff.Strategy, items []estimate.Item, opt ReplayOptions, seed uint64, runs int) (Metrics, error) {
	return ReplayStrategySample(ctx, st, ItemSample(items), opt, seed, runs)
}

// ReplayStrategySample is ReplayStrategy on a sample (see ReplaySample).
func ReplayStrategySample(ctx context.Context, st backoff.Strategy, smp Sample, opt ReplayOptions, seed uint64, runs int) (Metrics, error) {
	last := LargestFinalAgeSample(smp)
	if st.Deterministic() {
		s, err := backoff.Schedule(st, max(opt.Horizon, 2*last))
		if err != nil {
			return Metrics{}, err
		}
		return ReplaySample(s, smp, opt)
	}
	if runs < 1 {
		return Metrics{}, fmt.Errorf("replay %s: need at least one run", st)
	}
	if runs > MaxStrategyRuns {
		return Metrics{}, fmt.Errorf("replay %s: %d runs is more than the %d pollfit makes: use fewer runs (the percentiles settle within a few hundred)", st, runs, MaxStrategyRuns)
	}
	var acc metricsSpread
	for i := range runs {
		if err := stopped(ctx, fmt.Sprintf("replay %s", st)); err != nil {
			return Metrics{}, err
		}
		o := opt
		limit := o.Horizon
		if limit == 0 {
			limit = 2*last + time.Minute
		}
		s := backoff.Realise(st, rand.New(rand.NewPCG(seed, uint64(i))), limit)
		if o.Horizon == 0 {
			o.Horizon = firstAtOrAfter(s, last, limit)
		}
		m, err := ReplaySample(s, smp, o)
		if err != nil {
			return Metrics{}, err
		}
		acc.add(m, AsksBy(s, o.Horizon))
	}
	return acc.medians(st.String()), nil
}

// MaxStrategyRuns is the most realisations ReplayStrategy makes: a
// guard on time (each replays the whole sample), not on memory, which
// stays flat.
const MaxStrategyRuns = 10_000_000

func firstAtOrAfter(s *schedule.Schedule, age, fallback time.Duration) time.Duration {
	if a, ok := s.Timeline().Next(age); ok {
		return a
	}
	return fallback
}

// metricsSpread folds the metrics of realisations, field by field, into
// quantile sketches; the first realisation's fixed fields (items,
// pending, asks-by ages) are kept as they are.
type metricsSpread struct {
	first                            Metrics
	n                                int
	horizon, detected, missed, req   quantile.Quantiles
	mean, p50, p90, p95, p99, maxLag quantile.Quantiles
	stuck                            quantile.Quantiles
	asksBy                           []quantile.Quantiles
}

// add folds in a realisation's metrics and its stuck cost.
func (a *metricsSpread) add(m Metrics, stuck float64) {
	if a.n == 0 {
		a.first = m
		a.asksBy = make([]quantile.Quantiles, len(m.AsksByAges))
	}
	a.n++
	a.horizon.Add(float64(m.Horizon))
	a.detected.Add(float64(m.Detected))
	a.missed.Add(float64(m.Missed))
	a.req.Add(m.RequestsPerItem)
	a.mean.Add(m.Lag.Mean)
	a.p50.Add(m.Lag.P50)
	a.p90.Add(m.Lag.P90)
	a.p95.Add(m.Lag.P95)
	a.p99.Add(m.Lag.P99)
	a.maxLag.Add(m.Lag.Max)
	a.stuck.Add(stuck)
	for j := range a.asksBy {
		a.asksBy[j].Add(m.AsksBy[j])
	}
}

// medians are the realisations' medians, with their Spread.
func (a *metricsSpread) medians(name string) Metrics {
	med := func(q *quantile.Quantiles) float64 { return q.Quantile(0.5) }
	out := Metrics{
		Schedule:   name,
		Items:      a.first.Items,
		Horizon:    time.Duration(med(&a.horizon)),
		Detected:   math.Round(med(&a.detected)),
		Missed:     math.Round(med(&a.missed)),
		Pending:    a.first.Pending,
		AsksByAges: a.first.AsksByAges,
		Lag: LagStats{Mean: med(&a.mean), P50: med(&a.p50), P90: med(&a.p90),
			P95: med(&a.p95), P99: med(&a.p99), Max: med(&a.maxLag)},
		RequestsPerItem: med(&a.req),
	}
	for j := range a.asksBy {
		out.AsksBy = append(out.AsksBy, med(&a.asksBy[j]))
	}
	l, r := a.mean.Spread(), a.req.Spread()
	out.Spread = &Spread{Runs: a.n, LagMean: [2]float64{l.P10, l.P90}, RequestsPerItem: [2]float64{r.P10, r.P90}, StuckAsks: med(&a.stuck)}
	return out
}
