package main

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/pollfit/pollfit/fit"
)

// frontierRow is one row of frontier --csv and --json: a point of a
// curve at a budget (kind limit, fitted, fixed, backoff or jitter), or
// a baseline (kind baseline, with its name). A figure that does not
// apply, or is undefined, is left out of the JSON and empty in the CSV.
//
//	kind                "limit" | "fitted" | "fixed" | "backoff" | "jitter" | "baseline"
//	name                the baseline's name, or the limit's label (fit.LimitLabel, as fit's table names it)
//	requests_per_item   the budget (a baseline's held-out cost)
//	mean_lag_s          mean lag on the held-out items
//	p95_lag_s           95th percentile of the lag (not for jitter)
//	param_s             the fixed interval, or backoff's base
//	schedule            the fitted schedule, or the baseline's
//	stuck_asks          the asks to an item that never answers
//	gain_s_per_request  mean lag saved per extra request, fitted only
//	knee                1 at the frontier's knee
//	clauses             what the fitted schedule counts against the clause cap (--clauses), fitted only
type frontierRow struct {
	Kind     string   `json:"kind"`
	Name     string   `json:"name,omitempty"`
	Requests *float64 `json:"requests_per_item,omitempty"`
	MeanLag  *float64 `json:"mean_lag_s,omitempty"`
	P95Lag   *float64 `json:"p95_lag_s,omitempty"`
	Param    *float64 `json:"param_s,omitempty"`
	Schedule string   `json:"schedule,omitempty"`
	Stuck    *float64 `json:"stuck_asks,omitempty"`
	Gain     *float64 `json:"gain_s_per_request,omitempty"`
	Knee     int      `json:"knee,omitempty"`
	Clauses  int      `json:"clauses,omitempty"`
}

// frontierHeader is the CSV header: frontierRow's JSON names, in order.
var frontierHeader = []string{"kind", "name", "requests_per_item", "mean_lag_s", "p95_lag_s", "param_s", "schedule", "stuck_asks", "gain_s_per_request", "knee", "clauses"}

func frontierRows(pts []fit.FrontierPoint, base []fit.Row) []frontierRow {
	n := fit.JSONNumber
	var rows []frontierRow
	for _, p := range pts {
		b := n(p.RequestsPerItem)
		knee := 0
		if p.Knee {
			knee = 1
		}
		rows = append(rows,
			frontierRow{Kind: "limit", Name: p.LimitName, Requests: b, MeanLag: n(p.Limit.Lag.Mean), P95Lag: n(p.Limit.Lag.P95)},
			frontierRow{Kind: "fitted", Requests: b, MeanLag: n(p.Fitted.Lag.Mean), P95Lag: n(p.Fitted.Lag.P95),
				Schedule: p.Schedule, Stuck: asks(p.Fitted), Gain: n(p.Gain), Knee: knee, Clauses: p.Clauses},
			frontierRow{Kind: "fixed", Requests: b, MeanLag: n(p.Fixed.Lag.Mean), P95Lag: n(p.Fixed.Lag.P95),
				Param: n(p.FixedInterval), Stuck: asks(p.Fixed)},
			frontierRow{Kind: "backoff", Requests: b, MeanLag: n(p.Backoff.Lag.Mean), P95Lag: n(p.Backoff.Lag.P95),
				Param: n(p.BackoffBase), Stuck: asks(p.Backoff)},
			frontierRow{Kind: "jitter", Requests: b, MeanLag: n(p.Jitter.Lag.Mean), Param: n(p.JitterBase), Stuck: asks(p.Jitter)})
	}
	for _, m := range base {
		rows = append(rows, frontierRow{Kind: "baseline", Name: m.Name, Requests: n(m.RequestsPerItem), MeanLag: n(m.Lag.Mean),
			P95Lag: n(m.Lag.P95), Schedule: m.Schedule, Stuck: n(m.Stuck)})
	}
	return rows
}

// asks is a prediction's asks to a stuck item, or nil when none fits.
func asks(p fit.Prediction) *float64 {
	if p.Lag.Mean != p.Lag.Mean {
		return nil
	}
	x := float64(p.Asks)
	return &x
}

// cells is the row as CSV fields, in frontierHeader's order, numbers to
// six significant digits.
func (r frontierRow) cells() []string {
	f := func(x *float64) string {
		if x == nil {
			return ""
		}
		return strconv.FormatFloat(*x, 'g', 6, 64)
	}
	whole := func(k int) string {
		if k == 0 {
			return ""
		}
		return strconv.Itoa(k)
	}
	return []string{r.Kind, r.Name, f(r.Requests), f(r.MeanLag), f(r.P95Lag), f(r.Param), r.Schedule, f(r.Stuck), f(r.Gain), whole(r.Knee), whole(r.Clauses)}
}

func writeFrontierCSV(w io.Writer, pts []fit.FrontierPoint, base []fit.Row) error {
	cw := csv.NewWriter(w)
	cw.Write(frontierHeader)
	for _, r := range frontierRows(pts, base) {
		cw.Write(r.cells())
	}
	cw.Flush()
	return cw.Error()
}

// frontierJSON is frontier --json: {"points": [<frontierRow>...],
// "notes": [...]}, the notes (what the input could not serve) left out
// when there are none.
type frontierJSON struct {
	Points []frontierRow `json:"points"`
	Notes  []string      `json:"notes,omitempty"`
}

func writeFrontierJSON(w io.Writer, pts []fit.FrontierPoint, base []fit.Row, notes []string) error {
	return writeJSON(w, frontierJSON{frontierRows(pts, base), notes})
}
