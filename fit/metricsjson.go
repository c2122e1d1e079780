package fit

import (
	"encoding/json"
	"math"

	"github.com/pollfit/pollfit/fit/schedule"
)

// MarshalJSON writes m in the shape pollfit eval --json prints, seconds
// as numbers and undefined figures (lags when nothing was detected) as
// null:
//
//	{"name": "now", "schedule": "<canonical DSL>", "horizon_s": 900,
//	 "items": 1000, "detected": 900, "missed": 10, "pending": 90,
//	 "lag_s": {"mean": 1.2, "p50": 0.9, "p90": 2.1, "p95": 2.6, "p99": 3.9, "max": 4.8},
//	 "requests_per_item": 17.5, "asks_by": {"30s": 31, "2m": 76}}
//
// The counts are weighted sums, whole numbers for a plain log (written
// as such: 10000, not 1e+04). asks_by is keyed by the canonical
// durations of AsksByAges. A randomised strategy adds "spread": {"runs",
// "lag_mean_s_p10_p90", "requests_per_item_p10_p90"}.
func (m Metrics) MarshalJSON() ([]byte, error) {
	return json.Marshal(m.jsonValue(nil, nil))
}

// MarshalJSON writes r as its Metrics with two more figures:
// "stuck_asks", the asks by the give-up age to an item that never
// answers, and "missed_share", the share of final answers after it.
//
// With a bootstrap, "lag_mean_ci", "lag_p95_ci" and "requests_per_item_ci"
// are the 95% intervals, [low, high].
func (r Row) MarshalJSON() ([]byte, error) {
	v := r.Metrics.jsonValue(JSONNumber(r.Stuck), JSONNumber(r.MissedShare))
	if r.LagCI != (Interval{}) {
		v.LagCI, v.P95CI, v.RequestsCI = r.LagCI.json(), r.P95CI.json(), r.RequestsCI.json()
	}
	return json.Marshal(v)
}

// json is the interval as a JSON pair, nulls where undefined.
func (c Interval) json() *[2]*float64 { return &[2]*float64{JSONNumber(c[0]), JSONNumber(c[1])} }

// metricsJSON is Metrics as JSON.
type metricsJSON struct {
	Name            string        `json:"name"`
	Schedule        string        `json:"schedule"`
	Horizon         float64       `json:"horizon_s"`
	Items           float64       `json:"items"`
	Detected        float64       `json:"detected"`
	Missed          float64       `json:"missed"`
	Pending         float64       `json:"pending"`
	Lag             lagJSONFields `json:"lag_s"`
	RequestsPerItem *float64      `json:"requests_per_item"`
	AsksBy          orderedFloats `json:"asks_by"`
	Spread          *spreadJSON   `json:"spread,omitempty"`
	StuckAsks       *float64      `json:"stuck_asks,omitempty"`
	MissedShare     *float64      `json:"missed_share,omitempty"`
	LagCI           *[2]*float64  `json:"lag_mean_ci,omitempty"`
	P95CI           *[2]*float64  `json:"lag_p95_ci,omitempty"`
	RequestsCI      *[2]*float64  `json:"requests_per_item_ci,omitempty"`
}

func (m Metrics) jsonValue(stuck, missed *float64) metricsJSON {
	out := metricsJSON{StuckAsks: stuck, MissedShare: missed,
		Name: m.Name, Schedule: m.Schedule, Horizon: m.Horizon.Seconds(),
		Items: m.Items, Detected: m.Detected, Missed: m.Missed, Pending: m.Pending,
		Lag:             lagJSONFields{JSONNumber(m.Lag.Mean), JSONNumber(m.Lag.P50), JSONNumber(m.Lag.P90), JSONNumber(m.Lag.P95), JSONNumber(m.Lag.P99), JSONNumber(m.Lag.Max)},
		RequestsPerItem: JSONNumber(m.RequestsPerItem),
	}
	for i, v := range m.AsksBy {
		if i < len(m.AsksByAges) {
			out.AsksBy = append(out.AsksBy, keyed{schedule.FormatDuration(m.AsksByAges[i]), v})
		}
	}
	if sp := m.Spread; sp != nil {
		out.Spread = &spreadJSON{sp.Runs, [2]*float64{JSONNumber(sp.LagMean[0]), JSONNumber(sp.LagMean[1])},
			[2]*float64{JSONNumber(sp.RequestsPerItem[0]), JSONNumber(sp.RequestsPerItem[1])}}
	}
	return out
}

// spreadJSON is Spread as JSON: [p10, p90] pairs.
type spreadJSON struct {
	Runs            int         `json:"runs"`
	LagMean         [2]*float64 `json:"lag_mean_s_p10_p90"`
	RequestsPerItem [2]*float64 `json:"requests_per_item_p10_p90"`
}

type lagJSONFields struct {
	Mean *float64 `json:"mean"`
	P50  *float64 `json:"p50"`
	P90  *float64 `json:"p90"`
	P95  *float64 `json:"p95"`
	P99  *float64 `json:"p99"`
	Max  *float64 `json:"max"`
}

// JSONNumber is x for encoding/json, or nil (null) for NaN and
// infinities, which JSON cannot hold: how pollfit writes every figure
// that may be undefined.
func JSONNumber(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

type keyed struct {
	key string
	val float64
}

// orderedFloats is a JSON object that keeps its keys in order.
type orderedFloats []keyed

func (o orderedFloats) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, kv := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(kv.key)
		v, err := json.Marshal(JSONNumber(kv.val))
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}
