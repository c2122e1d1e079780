package simulate

import (
	"encoding/json"
	"math"
	"math/rand/v2"

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
// PCG seeded with (seed, i), so a seed repeats the summary.
func (c Crowd) Repeat(seed uint64, runs int) (Summary, []Result, error) {
	if err := checkRuns(runs); err != nil {
		return Summary{}, nil, err
	}
	if err := c.Check(); err != nil {
		return Summary{}, nil, err
	}
	res := make([]Result, runs)
	for i := range res {
		r, err := c.Run(rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			return Summary{}, nil, err
		}
		res[i] = r
	}
	return Summarise(res), res, nil
}

// Summarise gives the spread of each metric over the runs.
func Summarise(res []Result) Summary {
	f := func(get func(Result) float64) backoff.Spread {
		x := make([]float64, len(res))
		for i, r := range res {
			x[i] = get(r)
		}
		return backoff.Summarise(x)
	}
	return Summary{
		Runs:               len(res),
		LastServed:         f(func(r Result) float64 { return r.LastServed }),
		CallsSent:          f(func(r Result) float64 { return float64(r.CallsSent) }),
		CallsRefused:       f(func(r Result) float64 { return float64(r.CallsRefused) }),
		TypicalServed:      f(func(r Result) float64 { return r.TypicalServed }),
		PeakCallsPerSecond: f(func(r Result) float64 { return float64(r.PeakCallsPerSecond) }),
		GaveUp:             f(func(r Result) float64 { return float64(r.GaveUp) }),
		Unfinished:         f(func(r Result) float64 { return float64(r.Unfinished) }),
	}
}

// jsonSpread writes a spread with NaN as null.
type jsonSpread backoff.Spread

func (s jsonSpread) MarshalJSON() ([]byte, error) {
	num := func(x float64) any {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return x
	}
	return json.Marshal(map[string]any{"median": num(s.Median), "p10": num(s.P10), "p90": num(s.P90)})
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
