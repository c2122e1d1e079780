package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Spread is the variation of a randomised strategy's metrics over its
// realisations: 10th and 90th percentiles (R's type 7) of the mean lag
// and of the requests per item.
type Spread struct {
	Runs            int
	LagMean         [2]float64
	RequestsPerItem [2]float64
}

// ReplayStrategy replays a retry strategy (package fit/backoff). A
// deterministic one is converted to its schedule and replayed once. A
// randomised one (jitter) is replayed by Monte Carlo: runs realisations,
// realisation i drawing its jitter from a PCG seeded with (seed, i), each
// a schedule of explicit asks shared by every item; the metrics reported
// are the medians over realisations, with their Spread.
//
// A realisation asks up to the horizon, or when none is given up to its
// first ask at or after the largest final age, so that, like a schedule
// that never stops, it sees every answer in the log.
func ReplayStrategy(st backoff.Strategy, items []estimate.Item, opt ReplayOptions, seed uint64, runs int) (Metrics, error) {
	return ReplayStrategySample(st, ItemSample(items), opt, seed, runs)
}

// ReplayStrategySample is ReplayStrategy on a sample (see ReplaySample).
func ReplayStrategySample(st backoff.Strategy, smp Sample, opt ReplayOptions, seed uint64, runs int) (Metrics, error) {
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
	ms := make([]Metrics, runs)
	for i := range ms {
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
		ms[i] = m
	}
	return medianMetrics(st.String(), ms), nil
}

// MaxStrategyRuns is the most realisations ReplayStrategy makes; the
// metrics of each are kept for the percentiles.
const MaxStrategyRuns = 100_000

func firstAtOrAfter(s *schedule.Schedule, age, fallback time.Duration) time.Duration {
	if a, ok := s.Timeline().Next(age); ok {
		return a
	}
	return fallback
}

// medianMetrics combines the metrics of realisations field by field.
func medianMetrics(name string, ms []Metrics) Metrics {
	pick := func(f func(Metrics) float64) backoff.Spread {
		x := make([]float64, len(ms))
		for i, m := range ms {
			x[i] = f(m)
		}
		return backoff.Summarise(x)
	}
	med := func(f func(Metrics) float64) float64 { return pick(f).Median }
	round := func(f func(Metrics) float64) float64 { return math.Round(med(f)) }
	out := Metrics{
		Schedule:   name,
		Items:      ms[0].Items,
		Horizon:    time.Duration(med(func(m Metrics) float64 { return float64(m.Horizon) })),
		Detected:   round(func(m Metrics) float64 { return float64(m.Detected) }),
		Missed:     round(func(m Metrics) float64 { return float64(m.Missed) }),
		Pending:    ms[0].Pending,
		AsksByAges: ms[0].AsksByAges,
		Lag: LagStats{
			Mean: med(func(m Metrics) float64 { return m.Lag.Mean }),
			P50:  med(func(m Metrics) float64 { return m.Lag.P50 }),
			P90:  med(func(m Metrics) float64 { return m.Lag.P90 }),
			P95:  med(func(m Metrics) float64 { return m.Lag.P95 }),
			P99:  med(func(m Metrics) float64 { return m.Lag.P99 }),
			Max:  med(func(m Metrics) float64 { return m.Lag.Max }),
		},
		RequestsPerItem: med(func(m Metrics) float64 { return m.RequestsPerItem }),
	}
	for j := range out.AsksByAges {
		out.AsksBy = append(out.AsksBy, med(func(m Metrics) float64 { return m.AsksBy[j] }))
	}
	l := pick(func(m Metrics) float64 { return m.Lag.Mean })
	r := pick(func(m Metrics) float64 { return m.RequestsPerItem })
	out.Spread = &Spread{Runs: len(ms), LagMean: [2]float64{l.P10, l.P90}, RequestsPerItem: [2]float64{r.P10, r.P90}}
	return out
}
