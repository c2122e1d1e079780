package fit

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	return json.Marshal(m.JSON())
}

// MarshalJSON writes r as its Metrics with two more figures:
// "stuck_asks", the asks by the give-up age to an item that never
// answers, and "missed_share", the share of final answers after it.
//
// With a bootstrap, "lag_mean_ci", "lag_p95_ci" and "requests_per_item_ci"
// are the 95% intervals, [low, high].
func (r Row) MarshalJSON() ([]byte, error) { return json.Marshal(r.JSON()) }

// JSON is the interval as a JSON pair, nulls where undefined.
func (c Interval) JSON() *[2]*float64 { return &[2]*float64{JSONNumber(c[0]), JSONNumber(c[1])} }

// RowJSON is a schedule replayed on items as JSON, the shape pollfit
// eval --json writes a schedule (Metrics.JSON and Row.JSON make it;
// MarshalJSON writes it), so that a reader takes a row's figures by
// field. A row of Metrics alone has no stuck_asks, missed_share or
// intervals. Counts are weighted sums; a figure that is undefined (a lag
// when nothing was detected) is nil, null in JSON.
type RowJSON struct {
	// Name names the schedule ("fitted", "limit", a baseline's name).
	Name string `json:"name"`
	// Schedule is the schedule in the schedule language, canonical.
	Schedule string `json:"schedule"`
	// Horizon is the age the schedule was replayed to (the give-up
	// age), in seconds; 0 for one that never stops.
	Horizon float64 `json:"horizon_s"`
	// Items = Detected + Missed + Pending.
	Items    float64 `json:"items"`
	Detected float64 `json:"detected"`
	Missed   float64 `json:"missed"`
	Pending  float64 `json:"pending"`
	// Lag is the detection lag of the detected items, in seconds.
	Lag LagJSON `json:"lag_s"`
	// RequestsPerItem is the mean number of asks over all items.
	RequestsPerItem *float64 `json:"requests_per_item"`
	// AsksBy is the asks by each age to an item that never answers,
	// keyed by the age in the schedule language ("30s": 31).
	AsksBy AsksByJSON `json:"asks_by"`
	// Spread is set for a randomised strategy replayed over several
	// realisations: the p10 and p90 of the figures over the runs.
	Spread *SpreadJSON `json:"spread,omitempty"`
	// StuckAsks is the stuck cost: the asks by the give-up age to an
	// item that never answers.
	StuckAsks *float64 `json:"stuck_asks,omitempty"`
	// MissedShare is the share of final answers after the give-up age,
	// or after the schedule's last ask.
	MissedShare *float64 `json:"missed_share,omitempty"`
	// LagCI, P95CI and RequestsCI are 95% bootstrap intervals [low,
	// high] of the mean lag, its 95th percentile and the requests per
	// item; absent without a bootstrap.
	LagCI      *[2]*float64 `json:"lag_mean_ci,omitempty"`
	P95CI      *[2]*float64 `json:"lag_p95_ci,omitempty"`
	RequestsCI *[2]*float64 `json:"requests_per_item_ci,omitempty"`
}

// JSON is m as RowJSON, without the stuck cost, missed share and
// intervals.
func (m Metrics) JSON() RowJSON { return m.jsonValue(nil, nil) }

// JSON is r as RowJSON: its Metrics, stuck cost and missed share, and
// its intervals when bootstrapped.
func (r Row) JSON() RowJSON {
	v := r.Metrics.jsonValue(JSONNumber(r.Stuck), JSONNumber(r.MissedShare))
	if r.LagCI != (Interval{}) {
		v.LagCI, v.P95CI, v.RequestsCI = r.LagCI.JSON(), r.P95CI.JSON(), r.RequestsCI.JSON()
	}
	return v
}

func (m Metrics) jsonValue(stuck, missed *float64) RowJSON {
	out := RowJSON{StuckAsks: stuck, MissedShare: missed,
		Name: m.Name, Schedule: m.Schedule, Horizon: m.Horizon.Seconds(),
		Items: m.Items, Detected: m.Detected, Missed: m.Missed, Pending: m.Pending,
		Lag:             LagJSON{JSONNumber(m.Lag.Mean), JSONNumber(m.Lag.P50), JSONNumber(m.Lag.P90), JSONNumber(m.Lag.P95), JSONNumber(m.Lag.P99), JSONNumber(m.Lag.Max)},
		RequestsPerItem: JSONNumber(m.RequestsPerItem),
	}
	for i, v := range m.AsksBy {
		if i < len(m.AsksByAges) {
			out.AsksBy = append(out.AsksBy, AgeAsks{schedule.FormatDuration(m.AsksByAges[i]), JSONNumber(v)})
		}
	}
	if sp := m.Spread; sp != nil {
		out.Spread = &SpreadJSON{sp.Runs, [2]*float64{JSONNumber(sp.LagMean[0]), JSONNumber(sp.LagMean[1])},
			[2]*float64{JSONNumber(sp.RequestsPerItem[0]), JSONNumber(sp.RequestsPerItem[1])}}
	}
	return out
}

// SpreadJSON is a randomised strategy's spread over its runs as JSON:
// [p10, p90] pairs.
type SpreadJSON struct {
	Runs            int         `json:"runs"`
	LagMean         [2]*float64 `json:"lag_mean_s_p10_p90"`
	RequestsPerItem [2]*float64 `json:"requests_per_item_p10_p90"`
}

// LagJSON is the detection lag's mean and percentiles, in seconds.
type LagJSON struct {
	Mean *float64 `json:"mean"`
	P50  *float64 `json:"p50"`
	P90  *float64 `json:"p90"`
	P95  *float64 `json:"p95"`
	P99  *float64 `json:"p99"`
	Max  *float64 `json:"max"`
}

// UnmarshalJSON reads an object of asks by age, keeping its order (a
// RowJSON read back, as a reader of pollfit's --json does).
func (a *AsksByJSON) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("asks_by %.40q: want a JSON object of asks by age", b)
	}
	*a = AsksByJSON{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return fmt.Errorf("asks_by: %w", err)
		}
		kv := AgeAsks{Age: t.(string)}
		if err := dec.Decode(&kv.Asks); err != nil {
			return fmt.Errorf("asks_by %q: %w", kv.Age, err)
		}
		*a = append(*a, kv)
	}
	return nil
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

// AsksByJSON is a JSON object of asks by age that keeps its keys in
// order.
type AsksByJSON []AgeAsks

// AgeAsks is one key of AsksByJSON: the asks by Age (in the schedule
// language); Asks is nil (null) where undefined.
type AgeAsks struct {
	Age  string
	Asks *float64
}

// MarshalJSON writes a as an object in its order.
func (a AsksByJSON) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, kv := range a {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(kv.Age)
		v, err := json.Marshal(kv.Asks)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}
