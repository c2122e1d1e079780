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
