package fit

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// ExploreCost is what exploring costs a schedule on a sample: its mean
// lag and requests per item replayed with its own asks, and their
// expectations with its asks moved as the pollers of pollfit export
// --explore move them (export.Explore): each age-based ask after the
// first and before the schedule's last, nominally at age a with the ask
// before it at a − g, is made at a − u·F·g, u uniform in [0, 1) and
// independent from ask to ask and item to item.
type ExploreCost struct {
	Fraction float64
	// Lag and Requests are the schedule's mean lag (seconds, over the
	// items whose answer it sees) and requests per item, as Replay
	// finds them; ExploredLag and ExploredRequests their expectations
	// explored (the expected lag of the seen items over their expected
	// number).
	Lag, Requests                 float64
	ExploredLag, ExploredRequests float64
}

// LagChange is the relative change of the mean lag, 0.05 for +5%.
func (c ExploreCost) LagChange() float64 { return c.ExploredLag/c.Lag - 1 }

// RequestsChange is the change of the requests per item.
func (c ExploreCost) RequestsChange() float64 { return c.ExploredRequests - c.Requests }

// String is "exploring 10% of each gap costs +1.2% mean lag and +0.31
// requests per item".
func (c ExploreCost) String() string {
	return fmt.Sprintf("exploring %s of each gap costs %+.1f%% mean lag and %+.2f requests per item",
		gapShare(c.Fraction), 100*c.LagChange(), c.RequestsChange())
}

// gapShare writes a fraction of the gap as "10%".
func gapShare(f float64) string { return fmt.Sprintf("%.4g%%", 100*f) }

// Explored computes the cost of exploring fraction F of each gap of s
// on smp, replayed to opt.Horizon as Replay does, exactly: an item's
// answer is seen by the first moved ask at or after it, which is its
// schedule's first ask at or after it, a, when a moved is still at or
// after the answer, else the ask after a, so each expectation is an
// integral of one or two uniform shifts in closed form. With reset on
// signal, an item's asks before its signal, the ask at it and the
// schedule's asks after age 0 restarted there are moved alike, as the
// pollers move them. A schedule that never stops (and no horizon given)
// is replayed, moved, to one ask beyond Replay's horizon, so that it
// still sees every answer. Schedules with wall-clock aligned asks are
// refused: the pollers do not move those, and the cost of moving the
// rest is not computed here.
func Explored(s *schedule.Schedule, smp Sample, fraction float64, opt ReplayOptions) (ExploreCost, error) {
	if math.IsNaN(fraction) || fraction < 0 || fraction > 1 {
		return ExploreCost{}, fmt.Errorf("explore: fraction %v is not in [0, 1]", fraction)
	}
	if len(s.Aligned) > 0 {
		return ExploreCost{}, errors.New("explore: the cost of exploring is computed for age-based schedules only, not with wall-clock aligned asks")
	}
	m, err := ReplaySample(s, smp, opt)
	if err != nil {
		return ExploreCost{}, err
	}
	e, err := newExplorer(s, fraction, m.Horizon, opt.Horizon == 0)
	if err != nil {
		return ExploreCost{}, err
	}
	c := ExploreCost{Fraction: fraction, Lag: m.Lag.Mean, Requests: m.RequestsPerItem}
	var lag, seen, asks, total float64
	for i, it := range smp.Items {
		w := smp.Weight(i)
		if w == 0 {
			continue
		}
		g := math.Inf(1) // the signal, when it restarts the schedule
		if s.ResetOnSignal && it.HasSignal() && it.Signal >= 0 {
			g = nanos(it.Signal).Seconds()
		}
		o := e.item(it.Age, it.Status.Final(), g)
		lag, seen, asks, total = lag+w*o.lag, seen+w*o.seen, asks+w*o.asks, total+w
	}
	c.ExploredLag, c.ExploredRequests = lag/seen, asks/total
	return c, nil
}

// explorer holds a schedule's asks to the horizon, each with the width
// of its shift.
type explorer struct {
	asks, width []float64 // seconds; ask j is uniform in (asks[j] − width[j], asks[j]]
	// horizon counts the asks of pending and missed items; see is the
	// latest age at which an ask sees an answer.
	horizon, see float64
	atZero       float64 // 1 when the schedule asks at age 0
}

// newExplorer lists s's asks to the horizon h (or, when extend, to one
// ask beyond it, for a schedule that never stops), and one ask beyond.
func newExplorer(s *schedule.Schedule, f float64, h time.Duration, extend bool) (*explorer, error) {
	tl := s.Timeline()
	see := h
	if next, ok := tl.Next(h + 1); ok && extend && tl.Forever() {
		see = next
	}
	asks, err := tl.Asks(see)
	if err != nil {
		return nil, fmt.Errorf("explore: %w", err)
	}
	if next, ok := tl.Next(see + 1); ok {
		asks = append(asks, next)
	}
	e := &explorer{horizon: h.Seconds(), see: see.Seconds(), atZero: float64(tl.Count(0))}
	for j, a := range asks {
		w := 0.0
		if _, more := tl.Next(a + 1); j > 0 && more {
			w = f * (a - asks[j-1]).Seconds()
		}
		e.asks, e.width = append(e.asks, a.Seconds()), append(e.width, w)
	}
	return e, nil
}

// exploredItem is one item's expectations: of its lag when seen (times
// the chance that it is), of whether it is seen, and of its asks.
type exploredItem struct{ lag, seen, asks float64 }

// between is the chance that ask j falls in [x1, x2] and its mean there.
func (e *explorer) between(j int, x1, x2 float64) (p, mean float64) {
	a, w := e.asks[j], e.width[j]
	if w == 0 {
		if a >= x1 && a <= x2 {
			return 1, a
		}
		return 0, 0
	}
	lo, hi := math.Max(a-w, x1), math.Min(a, x2)
	if hi <= lo {
		return 0, 0
	}
	return (hi - lo) / w, (lo + hi) / 2
}

// count is the expected number of asks at ages ≤ x: those whose
// schedule age is ≤ x, and the first after it if moved to x or before
// (no later one can be: it stays after the schedule's ask before it).
func (e *explorer) count(x float64) float64 {
	k := sort.Search(len(e.asks), func(j int) bool { return e.asks[j] > x })
	n := float64(k)
	if k < len(e.asks) {
		p, _ := e.between(k, math.Inf(-1), x)
		n += p
	}
	return n
}

// item is the expectations for an item whose answer comes at age t
// (final) or that is pending when last seen at age t, with a signal at
// age g that restarts the schedule (+Inf: none): as Replay has it, the
// asks before g, one at g, then g plus the schedule's asks after age 0.
func (e *explorer) item(t float64, final bool, g float64) exploredItem {
	x := math.Min(t, e.horizon) // the asks of a pending or missed item
	switch {
	case final && t <= g && t <= e.horizon:
		return e.seenBy(t, g, e.horizon, e.see)
	case t <= g || x < g:
		return exploredItem{asks: e.count(x)}
	}
	// The signal came first: the asks before it, the one at it, then the
	// restarted schedule's after age 0, as an item of age t − g.
	before := e.count(math.Nextafter(g, math.Inf(-1))) + 1 - e.atZero
	if !final || t > e.horizon {
		return exploredItem{asks: before + e.count(x-g)}
	}
	o := e.seenBy(t-g, math.Inf(1), e.horizon-g, e.see-g)
	o.asks += before
	return o
}

// seenBy is item for an answer at t ≤ the signal g and the horizon h,
// seen by the first moved ask at or after it up to see (and before g),
// else by the ask at g if g ≤ h, else missed.
func (e *explorer) seenBy(t, g, h, see float64) exploredItem {
	i := sort.Search(len(e.asks), func(j int) bool { return e.asks[j] >= t })
	if i == len(e.asks) {
		if g <= h {
			return exploredItem{lag: g - t, seen: 1, asks: float64(i) + 1}
		}
		return exploredItem{asks: e.count(h)}
	}
	limit := math.Min(see, g)
	var o exploredItem
	add := func(p, mean, asks float64) { o.seen, o.lag, o.asks = o.seen+p, o.lag+p*(mean-t), o.asks+p*asks }
	pi, mi := e.between(i, t, limit) // seen by ask i
	add(pi, mi, float64(i+1))
	early := 0.0 // the chance that ask i is moved before t
	if e.width[i] > 0 {
		early, _ = e.between(i, math.Inf(-1), t)
	}
	pn := 0.0 // then the chance that ask i+1 sees it
	if i+1 < len(e.asks) {
		var mn float64
		pn, mn = e.between(i+1, t, limit)
		add(early*pn, mn, float64(i+2))
	}
	// Otherwise the next ask comes after limit, with i asks before it
	// (ask i beyond limit) or i+1 (ask i before t, ask i+1 beyond): the
	// ask at the signal sees the answer, or it is missed.
	rest, asks := 1-pi-early+early*(1-pn), (1-pi-early)*float64(i)+early*(1-pn)*float64(i+1)
	if g <= h && g <= see {
		o.seen, o.lag, o.asks = o.seen+rest, o.lag+rest*(g-t), o.asks+asks+rest
	} else {
		o.asks += asks
	}
	return o
}

// StudyExplored is Explored on a study's result: its schedule on the
// held-out items, to its give-up age (a schedule that never stops, as
// it runs). A model's study has no items to replay and is refused.
func StudyExplored(res *StudyResult, fraction float64) (ExploreCost, error) {
	if res.HeldOut == nil {
		return ExploreCost{}, errors.New("explore: the cost of exploring is replayed on a log's held-out items, and a model has none")
	}
	h := res.GiveUp.Age
	if res.Never {
		h = 0
	}
	return Explored(res.Schedule, *res.HeldOut, fraction, ReplayOptions{Horizon: h})
}
