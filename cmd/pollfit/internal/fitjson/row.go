package fitjson

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/pollfit/pollfit/fit"
)

// Row is a schedule replayed on items, in the shape pollfit eval --json
// writes a schedule: fit.Row.MarshalJSON's, which writes it, decoded
// into fields (NewRow), so that the report reads a row's figures by
// field. A row of fit.Metrics (a shape's "plain" and "shaped") has no
// stuck_asks, missed_share or intervals. Counts are weighted sums; a
// figure that is undefined (a lag when nothing was detected) is null.
type Row struct {
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
	Lag Lag `json:"lag_s"`
	// RequestsPerItem is the mean number of asks over all items.
	RequestsPerItem *float64 `json:"requests_per_item"`
	// AsksBy is the asks by each age to an item that never answers,
	// keyed by the age in the schedule language ("30s": 31).
	AsksBy AsksBy `json:"asks_by"`
	// Spread is set for a randomised strategy replayed over several
	// realisations: the p10 and p90 of the figures over the runs.
	Spread *Spread `json:"spread,omitempty"`
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

// Lag is the detection lag's mean and percentiles, in seconds.
type Lag struct {
	Mean *float64 `json:"mean"`
	P50  *float64 `json:"p50"`
	P90  *float64 `json:"p90"`
	P95  *float64 `json:"p95"`
	P99  *float64 `json:"p99"`
	Max  *float64 `json:"max"`
}

// Spread is a randomised strategy's spread over its runs: [p10, p90].
type Spread struct {
	Runs            int         `json:"runs"`
	LagMean         [2]*float64 `json:"lag_mean_s_p10_p90"`
	RequestsPerItem [2]*float64 `json:"requests_per_item_p10_p90"`
}

// AsksBy is a JSON object of asks by age that keeps its keys in order.
type AsksBy []AgeAsks

// AgeAsks is one key of AsksBy: the asks by Age (in the schedule
// language); Asks is null where undefined.
type AgeAsks struct {
	Age  string
	Asks *float64
}

// MarshalJSON writes a as an object in its order.
func (a AsksBy) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, kv := range a {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(kv.Age)
		v, _ := json.Marshal(kv.Asks)
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads an object of asks by age, keeping its order.
func (a *AsksBy) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("fitjson: asks_by %.40q is not a JSON object (a bug: fit writes one)", b)
	}
	*a = AsksBy{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return fmt.Errorf("fitjson: asks_by: %w", err)
		}
		kv := AgeAsks{Age: t.(string)}
		if err := dec.Decode(&kv.Asks); err != nil {
			return fmt.Errorf("fitjson: asks_by %q: %w", kv.Age, err)
		}
		*a = append(*a, kv)
	}
	return nil
}

// NewRow is r as fit.Row.MarshalJSON writes it, decoded: the figures
// are fit's, converted (seconds, nulls, the intervals left out without a
// bootstrap) by fit alone.
func NewRow(r fit.Row) Row { return decodeRow(r) }

// NewMetricsRow is m as fit.Metrics.MarshalJSON writes it, decoded.
func NewMetricsRow(m fit.Metrics) Row { return decodeRow(m) }

// decodeRow decodes the JSON v writes. Neither can fail: fit writes
// every figure that may be undefined as null, and Row has each key.
func decodeRow(v json.Marshaler) Row {
	b, err := v.MarshalJSON()
	var out Row
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		panic(fmt.Sprintf("fitjson: a row's JSON does not decode into fitjson.Row (a bug: the two have drifted apart): %v", err))
	}
	return out
}

// rows is NewRow of each of rs, never nil (JSON [] for none).
func rows(rs []fit.Row) []Row {
	out := make([]Row, 0, len(rs))
	for _, r := range rs {
		out = append(out, NewRow(r))
	}
	return out
}

// rowPtr is NewRow of *r, nil for nil.
func rowPtr(r *fit.Row) *Row {
	if r == nil {
		return nil
	}
	j := NewRow(*r)
	return &j
}
