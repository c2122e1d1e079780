package main

import (
	"encoding/json"
	"io"
	"math"

	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// writeJSON writes the fit as
//
//	{"schedule": "<DSL>", "fitted": <metrics>, "optimum": {"asks_s": [...],
//	 "lag_s": {...}, "requests_per_item": x}, "continuous": <metrics> (a
//	 model only), "baselines": [<metrics>], "at_baseline_cost": [<metrics>
//	 of the schedule fitted at each baseline's cost], "budget": {...},
//	 "holdout": {...} (null for a model), "shapes": {...} (a log only:
//	 the deadlines and batch period found and whether their shapes paid,
//	 see shapesFound.json)}
//
// with metrics in eval's shape (fit.Metrics.MarshalJSON).
func (r *fitReport) writeJSON(w io.Writer) error {
	type opt struct {
		Asks []float64      `json:"asks_s"`
		Lag  map[string]any `json:"lag_s"`
		Req  float64        `json:"requests_per_item"`
	}
	lag := map[string]any{}
	for k, v := range map[string]float64{"mean": r.optimum.Lag.Mean, "p50": r.optimum.Lag.P50, "p90": r.optimum.Lag.P90, "p95": r.optimum.Lag.P95, "p99": r.optimum.Lag.P99, "max": r.optimum.Lag.Max} {
		if !math.IsNaN(v) {
			lag[k] = v
		} else {
			lag[k] = nil
		}
	}
	budget := map[string]any{"objective": r.opt.Objective.String(), "horizon_s": r.res.Horizon.Seconds(), "multiplier": r.res.Multiplier}
	b := r.opt.Budget
	switch {
	case b.RequestsPerItem > 0:
		budget["requests_per_item"] = b.RequestsPerItem
	case b.AsksBy > 0:
		budget["asks_by"] = map[string]any{"asks": b.AsksBy, "age_s": b.AsksByAge.Seconds()}
	case b.MaxAttempts > 0:
		budget["max_attempts"] = b.MaxAttempts
	default:
		budget["price"] = b.Price
	}
	if r.budgetFrom != "" {
		budget["from_baseline"] = r.budgetFrom
	}
	hold := map[string]any{"share": r.in.holdout, "seed": r.in.seed, "fit_items": len(r.in.train), "test_items": len(r.in.test)}
	if r.in.model != nil {
		hold = nil
	}
	baselines := append([]fit.Metrics{}, r.baselines...)
	matched := []fit.Metrics{}
	for _, m := range r.matched {
		matched = append(matched, m.metrics)
	}
	out := map[string]any{
		"schedule": schedule.Format(r.schedule), "fitted": r.fitted,
		"optimum":   opt{Asks: r.res.Optimum.Asks, Lag: lag, Req: r.optimum.RequestsPerItem},
		"baselines": baselines, "at_baseline_cost": matched, "budget": budget, "holdout": hold,
	}
	if r.continuous != nil {
		out["continuous"] = r.continuous
	}
	if r.in.shapes != nil {
		out["shapes"] = r.in.shapes.json()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
