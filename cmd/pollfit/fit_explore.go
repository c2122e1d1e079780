package main

import (
	"github.com/pollfit/pollfit/fit"
)

// checkExploreFlag refuses fit --explore where it has no one schedule
// on held-out items to cost, or would be mistaken for exporting one.
func checkExploreFlag(f float64, format, by, model string) error {
	switch {
	case f == 0:
		return nil
	case !(f > 0 && f <= 1):
		return usagef("fit: --explore %v is not in (0, 1]: 0.1 moves each ask by up to a tenth of the gap before it", f)
	case format != "":
		return usagef("fit: --explore prints what exploring costs; write the exploring poller with pollfit export --explore")
	case by != "":
		return usagef("fit: --explore costs one schedule: leave out --by")
	case model != "":
		return usagef("fit: --explore replays the schedule on a log's held-out items: give a log, not --model")
	}
	return nil
}

// exploreText is the line of fit --explore, with what the figures are.
func exploreText(c fit.ExploreCost) string {
	return c.String() + " (expected over the shifts, on the held-out items; pollfit export --explore writes the poller)"
}

// exploreJSON is fit --json's "explore".
type exploreJSON struct {
	Fraction         float64  `json:"fraction"`
	Lag              *float64 `json:"lag_mean_s"`
	ExploredLag      *float64 `json:"explored_lag_mean_s"`
	LagChange        *float64 `json:"lag_change"`
	Requests         *float64 `json:"requests_per_item"`
	ExploredRequests *float64 `json:"explored_requests_per_item"`
	RequestsChange   *float64 `json:"requests_change"`
	Sentence         string   `json:"sentence"`
}

func newExploreJSON(c *fit.ExploreCost) *exploreJSON {
	if c == nil {
		return nil
	}
	return &exploreJSON{c.Fraction, fit.JSONNumber(c.Lag), fit.JSONNumber(c.ExploredLag), fit.JSONNumber(c.LagChange()),
		fit.JSONNumber(c.Requests), fit.JSONNumber(c.ExploredRequests), fit.JSONNumber(c.RequestsChange()), c.String()}
}
