package simulate

import (
	"context"
	"encoding/json"
	"github.com/pollfit/pollfit/internal/quantile"
	"math/rand/v2"

	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/backoff"
)

// Summary is the spread of the results of repeated runs.
type Summary struct {
	Runs               int
	LastServed         backoff.Spread // seconds
	CallsSent          backoff.Spread
	CallsRefused       backoff.Spread
	TypicalServed      backoff.Spread // seconds
	PeakCallsPerSecond backoff.Spread
	GaveUp             backoff.Spread
	Unfinished         backoff.Spread
}

// Repeat runs the crowd runs times (1 to MaxRuns); run i draws from a
// PCG seeded with (seed, i), so a seed repeats the summary. Each run's
// result is folded into running quantile sketches (quantile.Quantiles:
// exact up to 1024 runs, within 0.1% beyond), so memory does not grow
// with runs. It stops soon after ctx is done, with ctx's error wrapped.
func (c Crowd) Repeat(ctx context.Context, seed uint64, runs int) (Summary, error) {
	if err := checkRuns(runs); err != nil {
		return Summary{}, err
	}
	if err := c.Check(); err != nil {
		return Summary{}, err
	}
	var acc summary
	for i := range runs {
		r, err := c.run(ctx, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			return Summary{}, err
		}
		acc.add(r)
	}
	return acc.summary(), nil
}

// Summarise gives the spread of each metric over the runs.
func Summarise(res []Result) Summary {
	var acc summary
	for _, r := range res {
		acc.add(r)
	}
	return acc.summary()
}

// summary folds results into a sketch a metric.
type summary struct {
	runs                                       int
	last, sent, refused, typical, peak, gaveUp quantile.Quantiles
	unfinished                                 quantile.Quantiles
}

func (s *summary) add(r Result) {
	s.runs++
	s.last.Add(r.LastServed)
	s.sent.Add(float64(r.CallsSent))
	s.refused.Add(float64(r.CallsRefused))
	s.typical.Add(r.TypicalServed)
	s.peak.Add(float64(r.PeakCallsPerSecond))
	s.gaveUp.Add(float64(r.GaveUp))
	s.unfinished.Add(float64(r.Unfinished))
}

func (s *summary) summary() Summary {
	return Summary{Runs: s.runs, LastServed: s.last.Spread(), CallsSent: s.sent.Spread(), CallsRefused: s.refused.Spread(),
		TypicalServed: s.typical.Spread(), PeakCallsPerSecond: s.peak.Spread(), GaveUp: s.gaveUp.Spread(),
		Unfinished: s.unfinished.Spread()}
}

// jsonSpread writes a spread with NaN as null.
type jsonSpread backoff.Spread

func (s jsonSpread) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]*float64{"median": fit.JSONNumber(s.Median), "p10": fit.JSONNumber(s.P10), "p90": fit.JSONNumber(s.P90)})
}

// MarshalJSON writes the summary with the keys last_served_s,
// calls_sent, calls_refused, typical_served_s, peak_calls_per_s,
// gave_up and unfinished, each {"median", "p10", "p90"} (null where
// no client was served), and runs.
func (s Summary) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Runs          int        `json:"runs"`
		LastServed    jsonSpread `json:"last_served_s"`
		CallsSent     jsonSpread `json:"calls_sent"`
		CallsRefused  jsonSpread `json:"calls_refused"`
		TypicalServed jsonSpread `json:"typical_served_s"`
		Peak          jsonSpread `json:"peak_calls_per_s"`
		GaveUp        jsonSpread `json:"gave_up"`
		Unfinished    jsonSpread `json:"unfinished"`
	}{s.Runs, jsonSpread(s.LastServed), jsonSpread(s.CallsSent), jsonSpread(s.CallsRefused),
		jsonSpread(s.TypicalServed), jsonSpread(s.PeakCallsPerSecond), jsonSpread(s.GaveUp), jsonSpread(s.Unfinished)})
}
