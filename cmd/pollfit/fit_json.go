package main

import (
	"io"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/fitjson"
)

// The JSON of pollfit fit is fitjson.Fit, whose doc comments are its
// manual:
//
//	{"decision": {"against", "requests_change", "requests_change_ci", "lag_change", "lag_change_ci", "sentence"} (null without a baseline),
//	 "schedule": "<DSL>", "first_ask": {"age_s", "seen_share"},
//	 "give_up": {"age_s", "share", "share_of", "reason", "never"},
//	 "budget": {"objective", "requests_per_item" | "asks_by" | "max_attempts" | "price", "from_baseline"},
//	 "stuck_cap": {"asks", "reason"},
//	 "fitted": <row>, "limit": <row>, "limit_note": "...",
//	 "exact_fit": <row> (a log), "continuous": <row> (a model),
//	 "baselines": [<row>], "at_baseline_cost": [<row>],
//	 "comparisons": [{"name", "budget", "stuck_cap", "equal_cost_lag_s", "change", "change_ci", "requests_change",
//	                  "same_cost", "interpolated", "no_bracket", "bracket": [<row>, <row>], "same_lag"}],
//	 "holdout": {"share", "seed", "fit_items", "test_items"} (null for a model),
//	 "shapes": {...} (a log),
//	 "smoothing": {"bandwidth_log", "rule", "factor"} (a log, unless --smooth=false),
//	 "explore": {"fraction", "lag_mean_s", "explored_lag_mean_s", "lag_change", "requests_per_item",
//	             "explored_requests_per_item", "requests_change", "sentence"} (with --explore),
//	 "notes": [...]}
//
// with rows in eval's shape plus "stuck_asks" and "missed_share"
// (fitjson.Row, fit.Row.MarshalJSON's).
func (r *fitReport) writeJSON(w io.Writer) error {
	return writeJSON(w, fitjson.New(r.res, r.explore))
}
