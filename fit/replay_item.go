package fit

import (
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// ItemReplay is one item replayed under a schedule, as Replay counts it.
type ItemReplay struct {
	// Asks are the ages of the asks the item gets, in order: up to the
	// one that sees its answer, or for an item still pending (or whose
	// answer is missed) every ask up to min(censoring age, horizon).
	Asks []time.Duration
	// Answer is the age of the final answer, or the censoring age of a
	// pending item.
	Answer time.Duration
	// Pending, Missed and Seen say which: a pending item has no answer
	// yet, a missed one answers after the horizon or the schedule's last
	// ask, a seen one is seen by the last of Asks, Lag after its answer.
	Pending, Missed, Seen bool
	Lag                   time.Duration
}

// MaxItemAsks is the most asks ReplayItem lists for one item; an item
// that would get more is cut there (Asks ends before the horizon).
const MaxItemAsks = 100_000

// ReplayItem replays one item under s to the horizon: the asks it gets
// and whether and when its answer is seen, by the rules of Replay (age
// asks, wall-clock aligned asks from its creation time, and with reset
// on signal an ask at the signal and the age clauses restarted there).
// An item without a creation time gets no wall-clock asks (Replay
// refuses such an item under a schedule that has them).
func ReplayItem(s *schedule.Schedule, it estimate.Item, horizon time.Duration) ItemReplay {
	rp := newReplayer(s)
	if !it.HasCreated() {
		rp.aligned = nil
	}
	v := rp.item(it)
	r := ItemReplay{Answer: nanos(it.Age), Pending: !it.Status.Final()}
	end := min(r.Answer, horizon)
	if !r.Pending {
		if a, ok := v.next(r.Answer); ok && a <= horizon {
			r.Seen, r.Lag, end = true, a-r.Answer, a
		} else {
			r.Missed, end = true, horizon
		}
	}
	for a, ok := v.next(0); ok && a <= end && len(r.Asks) < MaxItemAsks; a, ok = v.next(a + 1) {
		r.Asks = append(r.Asks, a)
	}
	return r
}
