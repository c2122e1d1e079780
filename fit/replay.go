package fit

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// ReplayOptions are the settings of Replay. The zero value is usable.
type ReplayOptions struct {
	// Horizon is the age after which the client stops asking. Zero means
	// the end of a stopping schedule, or for a schedule that never stops
	// its first ask at or after the largest final age among the items
	// (so that it sees every answer in the log).
	Horizon time.Duration
	// AsksBy lists ages at which to count the asks made to an item that
	// never settles (inclusive), reported in Metrics.AsksBy.
	AsksBy []time.Duration
	// meanOnly keeps no lags: Metrics.Lag has the mean and the largest
	// lag alone (lagAcc.meanOnly), which is what a search among
	// schedules compares, without sorting the lags.
	meanOnly bool
}

// LagStats summarises lags in seconds over detected items: the mean and
// nearest-rank percentiles, weighted by the items' weights in a Sample
// (the smallest lag whose cumulative weight reaches p × the total). All
// are NaN when no item was detected.
type LagStats struct {
	Mean, P50, P90, P95, P99, Max float64
}

// Metrics is the result of replaying a log under a schedule.
type Metrics struct {
	Name     string
	Schedule string // canonical form
	Horizon  time.Duration
	// Items = Detected + Missed + Pending: weighted counts, whole numbers
	// for a plain log (Sample weights may make them fractional).
	Items, Detected, Missed, Pending float64
	Lag                              LagStats
	// RequestsPerItem is the mean number of asks over all items
	// (weighted).
	RequestsPerItem float64
	// AsksBy[i] is the number of asks by ReplayOptions.AsksBy[i] for an
	// item that never settles and gets no signal. Wall-clock aligned
	// asks count their expectation over a uniformly random creation
	// phase, so the figure may be fractional.
	AsksBy []float64
	// AsksByAges are the ages of AsksBy.
	AsksByAges []time.Duration
	// Spread is set for a randomised strategy replayed over several
	// realisations (ReplayStrategy); the figures above are then medians.
	Spread *Spread
}

// Replay replays items under schedule s, exactly:
//
//   - an item whose final answer comes at age t is detected by the first
//     ask at an age a ≥ t (an ask at exactly t sees it) with a within the
//     horizon; its lag is a − t and it costs every ask up to and
//     including a;
//   - an item still pending when last seen, at age c, costs the asks at
//     ages ≤ min(c, horizon) and has no lag;
//   - an item whose answer comes after the schedule's last ask or after
//     the horizon is missed: it costs every ask ≤ horizon.
//
// Ages are compared in whole nanoseconds, so ties are exact. Signals
// (Item.Signal) matter only to a schedule with reset on signal: the
// client asks at the signal and restarts the age-based clauses from it.
// Wall-clock aligned asks need Item.Created.
func Replay(s *schedule.Schedule, items []estimate.Item, opt ReplayOptions) (Metrics, error) {
	return ReplaySample(s, ItemSample(items), opt)
}

// checkCreated is the error, for what, of the first item without a
// creation time when s asks by the wall clock, which needs them.
func checkCreated(s *schedule.Schedule, items []estimate.Item, what string) error {
	if len(s.Aligned) == 0 {
		return nil
	}
	for i, it := range items {
		if !it.HasCreated() {
			return fmt.Errorf("%s: item %d has no creation time, which wall-clock aligned asks need", what, i+1)
		}
	}
	return nil
}

// ReplaySample is Replay on a sample: each item counts as Weight(i)
// identical items in the counts, the requests per item and the lag
// statistics. Items of weight 0 count for nothing.
func ReplaySample(s *schedule.Schedule, smp Sample, opt ReplayOptions) (Metrics, error) {
	return replaySample(s, smp, opt, nil)
}

// replaySample is ReplaySample, reading each item's aligned asks from
// the table tables gives for s's aligned clauses and the replay's
// horizon, when it gives one (nil tables, or a nil table: worked out
// item by item).
func replaySample(s *schedule.Schedule, smp Sample, opt ReplayOptions, tables func(*schedule.Schedule, time.Duration) *alignedTable) (Metrics, error) {
	if err := s.Validate(); err != nil {
		return Metrics{}, err
	}
	if err := smp.check(); err != nil {
		return Metrics{}, fmt.Errorf("replay: %w", err)
	}
	if smp.Len() == 0 {
		return Metrics{}, errors.New("replay: no items")
	}
	if err := checkCreated(s, smp.Items, "replay"); err != nil {
		return Metrics{}, err
	}
	m := Metrics{Schedule: schedule.Format(s), Items: smp.Total()}
	m.Horizon = replayHorizon(s, smp, opt.Horizon)
	r := newReplayer(s)
	if tables != nil && len(s.Aligned) > 0 {
		if t := tables(s, m.Horizon); t != nil && t.horizon == m.Horizon && len(t.start) == smp.Len()+1 {
			r.tab = t
		}
	}
	acc := lagAcc{keep: !opt.meanOnly}
	acc.reserve(smp)
	requests := replayItems(r, smp, &m, &acc)
	m.RequestsPerItem = requests / m.Items
	switch {
	case opt.meanOnly:
		m.Lag = acc.meanOnly()
	case !smp.Weighted():
		m.Lag = lagStats(acc.lags)
	default:
		m.Lag = weightedLagStats(acc.lags, acc.weights)
	}
	for _, t := range opt.AsksBy {
		m.AsksBy = append(m.AsksBy, AsksBy(s, t))
	}
	m.AsksByAges = opt.AsksBy
	return m, nil
}

// replayItems replays each item of smp, adding its weight to the counts
// of m and the lags of the detected items to acc, and returns the
// weighted sum of the requests.
func replayItems(r *replayer, smp Sample, m *Metrics, acc *lagAcc) (requests float64) {
	direct := r.listed()
	var listed []time.Duration
	for i := range smp.Items {
		w := smp.Weight(i)
		if w == 0 {
			continue
		}
		it := &smp.Items[i]
		var o outcome
		if direct {
			if r.tab != nil {
				listed = r.tab.item(i)
			}
			o = listedOutcome(r.tl, listed, it, m.Horizon)
		} else {
			o = replayOutcome(r.itemAt(i, *it), *it, m.Horizon)
		}
		switch {
		case !it.Status.Final():
			m.Pending += w
		case o.seen:
			m.Detected += w
			acc.add(o.lag, w)
		default:
			m.Missed += w
		}
		requests += w * float64(o.asks)
	}
	return requests
}

// lagAcc gathers a replay's lags: every lag with its weight (weights
// only for a weighted sample) when keep is set, for LagStats; else only
// their weighted sum and the largest (see meanOnly).
type lagAcc struct {
	keep             bool
	lags, weights    []float64
	sum, total, most float64
}

// reserve makes room for the lags of smp's items when they are kept.
func (a *lagAcc) reserve(smp Sample) {
	if a.keep {
		a.lags = make([]float64, 0, smp.Len())
		if smp.Weighted() {
			a.weights = make([]float64, 0, smp.Len())
		}
	}
}

func (a *lagAcc) add(lag, w float64) {
	if a.keep {
		a.lags = append(a.lags, lag)
		if a.weights != nil {
			a.weights = append(a.weights, w)
		}
		return
	}
	a.sum += w * lag
	a.total += w
	a.most = max(a.most, lag)
}

// meanOnly is the lag statistics of a replay that kept only the sums:
// the weighted mean (summed in the items' order, so it may differ in
// its last bits from LagStats' mean, summed in the lags' order) and the
// largest lag; the percentiles are NaN.
func (a *lagAcc) meanOnly() LagStats {
	if a.total == 0 {
		return noLags()
	}
	nan := math.NaN()
	return LagStats{Mean: a.sum / a.total, P50: nan, P90: nan, P95: nan, P99: nan, Max: a.most}
}

// outcome is one item's replay: whether its final answer is seen by the
// horizon, the lag then (seconds), and the asks it gets.
type outcome struct {
	seen bool
	lag  float64
	asks int64
}

// replayOne replays one item to the horizon, by Replay's rules.
func replayOne(r *replayer, it estimate.Item, horizon time.Duration) outcome {
	if !r.reset && len(r.aligned) == 0 {
		return listedOutcome(r.tl, nil, &it, horizon) // by age alone
	}
	return replayOutcome(r.item(it), it, horizon)
}

// replayOutcome is replayOne of the item whose asks v answers.
func replayOutcome(v itemAsks, it estimate.Item, horizon time.Duration) outcome {
	if !it.Status.Final() {
		return outcome{asks: v.count(min(nanos(it.Age), horizon))}
	}
	t := nanos(it.Age)
	if a, ok := v.next(t); ok && a <= horizon {
		return outcome{seen: true, lag: (a - t).Seconds(), asks: v.count(a)}
	}
	return outcome{asks: v.count(horizon)}
}

// nanos converts an age in seconds to whole nanoseconds, saturating
// beyond the int64 range rather than wrapping to a negative age (the
// readers refuse ages beyond estimate.MaxAge, so only items built by
// hand get there).
func nanos(sec float64) time.Duration {
	ns := math.Round(sec * 1e9)
	switch {
	case ns >= math.MaxInt64:
		return math.MaxInt64
	case ns <= math.MinInt64:
		return math.MinInt64
	}
	return time.Duration(ns)
}

// replayHorizon is Replay's horizon: the given one, the end of a stopping
// schedule, or for a schedule that never stops the first ask at or after
// the largest final age, so that such a schedule sees every answer in
// the log, as it would in life.
func replayHorizon(s *schedule.Schedule, smp Sample, given time.Duration) time.Duration {
	if given > 0 {
		return given
	}
	if end, ok := s.End(); ok {
		return end
	}
	last := LargestFinalAgeSample(smp)
	if a, ok := s.Timeline().Next(last); ok {
		return a
	}
	for _, al := range s.Aligned {
		if al.Until == 0 {
			return last + al.Period
		}
	}
	return last
}

// LargestFinalAge is the largest age of a final answer among items, or
// the largest age of any item when none is final.
func LargestFinalAge(items []estimate.Item) time.Duration {
	return LargestFinalAgeSample(ItemSample(items))
}

// LargestFinalAgeSample is LargestFinalAge over the items of smp of
// positive weight.
func LargestFinalAgeSample(smp Sample) time.Duration {
	var final, any time.Duration
	for i, it := range smp.Items {
		if smp.Weight(i) <= 0 {
			continue
		}
		a := nanos(it.Age)
		any = max(any, a)
		if it.Status.Final() {
			final = max(final, a)
		}
	}
	if final > 0 {
		return final
	}
	return any
}

// AsksBy is the number of asks by age t (inclusive) for an item that never
// settles and gets no signal. Each wall-clock aligned clause adds its
// expected count over a uniformly random creation phase, offsets × t/P
// (up to its until), less the asks aligned clauses share.
func AsksBy(s *schedule.Schedule, t time.Duration) float64 {
	return float64(s.Timeline().Count(t)) + expectedAligned(s.Aligned, t)
}
