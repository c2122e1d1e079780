package fit

import (
	"errors"
	"math"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Predict is what schedule s achieves on distribution d up to horizon,
// by exact integrals: the model counterpart of Replay. Only the
// age-based clauses count (a model has no wall clock and no signals).
// A schedule that never stops needs a horizon.
func Predict(d Distribution, s *schedule.Schedule, horizon time.Duration) (Prediction, error) {
	if err := s.Validate(); err != nil {
		return Prediction{}, err
	}
	if horizon <= 0 {
		end, ok := s.End()
		if !ok {
			return Prediction{}, errors.New("predict: the schedule never stops: give a horizon")
		}
		horizon = end
	}
	asks, err := s.Timeline().Asks(horizon)
	if err != nil {
		return Prediction{}, err
	}
	if len(asks) == 0 {
		return Prediction{}, errors.New("predict: the schedule asks nothing by the horizon")
	}
	sec := seconds(asks)
	return predict(newDistLaw(d, horizon.Seconds()), sec), nil
}

// PredictItems is what asks (seconds, increasing) achieve on a log, with
// the lag percentiles: the same figures Replay gives for an "at"
// schedule of those asks.
func PredictItems(items []estimate.Item, asks []float64) Prediction {
	return PredictSample(ItemSample(items), asks)
}

// PredictSample is PredictItems on a sample, each item counting with its
// weight: the figures ReplaySample gives for an "at" schedule of asks.
func PredictSample(smp Sample, asks []float64) Prediction {
	p := predict(newSampleLaw(smp), asks)
	lags := make([]float64, 0, smp.Len())
	var ws []float64
	for i, it := range smp.Items {
		w := smp.Weight(i)
		if !it.Status.Final() || w == 0 {
			continue
		}
		k := searchAsk(asks, it.Age)
		if k < len(asks) {
			lags = append(lags, asks[k]-it.Age)
			if smp.Weighted() {
				ws = append(ws, w)
			}
		}
	}
	if smp.Weighted() {
		p.Lag = weightedLagStats(lags, ws)
	} else {
		p.Lag = lagStats(lags)
	}
	return p
}

// searchAsk is the index of the first ask ≥ t.
func searchAsk(asks []float64, t float64) int {
	lo, hi := 0, len(asks)
	for lo < hi {
		m := (lo + hi) / 2
		if asks[m] >= t {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// Metrics writes a prediction in Replay's shape, for output next to
// replayed metrics: Items, Detected, Missed and Pending are zero (a
// distribution has no items), the lag statistics and requests per item
// are the prediction's, and AsksBy counts the asks of s by each age.
func (p Prediction) Metrics(name string, s *schedule.Schedule, horizon time.Duration, asksBy []time.Duration) Metrics {
	m := Metrics{Name: name, Horizon: horizon, Lag: p.Lag, RequestsPerItem: p.RequestsPerItem, AsksByAges: asksBy}
	if s != nil {
		m.Schedule = schedule.Format(s)
		for _, t := range asksBy {
			m.AsksBy = append(m.AsksBy, AsksBy(s, t))
		}
	} else {
		for range asksBy {
			m.AsksBy = append(m.AsksBy, math.NaN())
		}
	}
	return m
}
