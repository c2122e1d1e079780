package simulate

import (
	"fmt"
	"time"
)

// Ceilings on the counts a user controls, checked before anything is
// allocated or run, so that a typo (--runs 1000000000) is an error
// rather than an out-of-memory crash.
const (
	// MaxClients is the most clients a Crowd simulates (about 100
	// bytes each), unless they come from a log's arrival times, which
	// are in memory already.
	MaxClients = 1_000_000
	// MaxRuns is the most repetitions Repeat makes: a guard on time,
	// not memory, since the results are folded into fixed-size quantile
	// sketches as they come.
	MaxRuns = 10_000_000
	// MaxFleetItems is the most items a Fleet run creates: the burst
	// plus the stream's expected Arrivals·(MaxAge+Duration).
	MaxFleetItems = 10_000_000
	// MaxFleetAsks is the most asks a Fleet run simulates, one by one.
	MaxFleetAsks = 100_000_000
	// MaxFleetSpan is the longest measured span of a Fleet (it keeps a
	// count per second).
	MaxFleetSpan = 31 * 24 * time.Hour
)

// fleetAskLimit is MaxFleetAsks, lowered by tests.
var fleetAskLimit = MaxFleetAsks

// checkRuns refuses a number of runs outside [1, MaxRuns].
func checkRuns(runs int) error {
	switch {
	case runs < 1:
		return fmt.Errorf("need at least one run, not %d", runs)
	case runs > MaxRuns:
		return fmt.Errorf("%d runs is more than the %d pollfit makes: use fewer runs (the percentiles settle within a few hundred)", runs, MaxRuns)
	}
	return nil
}

// checkSize refuses a fleet too large to simulate.
func (f Fleet) checkSize() error {
	if f.Duration > MaxFleetSpan {
		return fmt.Errorf("fleet: a measured span of %s is longer than the %s pollfit simulates", f.Duration, MaxFleetSpan)
	}
	items := float64(f.Burst)
	if f.Arrivals != (Rate{}) {
		items += f.Arrivals.PerSecond() * (f.MaxAge + f.Duration).Seconds()
	}
	if items > MaxFleetItems {
		return fmt.Errorf("fleet: about %.3g items (burst plus arrivals over max age and duration), more than the %d pollfit simulates: lower the rate, burst or span", items, MaxFleetItems)
	}
	return nil
}
