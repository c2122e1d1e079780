package fitjson

import "github.com/pollfit/pollfit/fit"

// Row is a schedule replayed on items, in the shape pollfit eval --json
// writes a schedule: fit.RowJSON, which fit makes (fit.Row.JSON,
// fit.Metrics.JSON) and writes, so that a row's figures are converted
// (seconds, nulls, the intervals left out without a bootstrap) in one
// place. A row of fit.Metrics (a shape's "plain" and "shaped") has no
// stuck_asks, missed_share or intervals.
type Row = fit.RowJSON

// Lag, Spread, AsksBy and AgeAsks are a Row's parts (fit's).
type (
	Lag     = fit.LagJSON
	Spread  = fit.SpreadJSON
	AsksBy  = fit.AsksByJSON
	AgeAsks = fit.AgeAsks
)

// NewRow is r as its JSON row.
func NewRow(r fit.Row) Row { return r.JSON() }

// NewMetricsRow is m as its JSON row.
func NewMetricsRow(m fit.Metrics) Row { return m.JSON() }

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
