package fit

import (
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// A replay of a schedule that ignores signals, with no aligned clauses
// or with each item's aligned asks listed in a table (the grafts', many
// of one batch shape under many age-based parts), asks the timeline and
// the item's listed asks directly (listedOutcome), as itemAsks' next and
// count do, without making an itemAsks of each item and copying it into
// every question: the same outcomes, summed in the same order, in half
// the time.

// listed reports whether r's replays ask directly (see above).
func (r *replayer) listed() bool {
	return !r.reset && (r.tab != nil || len(r.aligned) == 0)
}

// listedOutcome is replayOutcome of an item whose aligned asks are
// listed (to the horizon at least; none without aligned clauses), under
// timeline tl.
func listedOutcome(tl *schedule.Timeline, listed []time.Duration, it *estimate.Item, horizon time.Duration) outcome {
	if !it.Status.Final() {
		return outcome{asks: listedCount(tl, listed, min(nanos(it.Age), horizon))}
	}
	t := nanos(it.Age)
	a, ok := tl.Next(t)
	for _, at := range listed {
		if at >= t {
			if !ok || at < a {
				a, ok = at, true
			}
			break
		}
	}
	if ok && a <= horizon {
		return outcome{seen: true, lag: (a - t).Seconds(), asks: listedCount(tl, listed, a)}
	}
	return outcome{asks: listedCount(tl, listed, horizon)}
}

// listedCount is the asks at ages ≤ x of both kinds, an age both ask at
// once (itemAsks.count of a tabled item).
func listedCount(tl *schedule.Timeline, listed []time.Duration, x time.Duration) int64 {
	n := tl.Count(x)
	if x < 0 {
		return n
	}
	for _, at := range listed {
		if at > x {
			break
		}
		if b, ok := tl.Next(at); !ok || b != at {
			n++
		}
	}
	return n
}
