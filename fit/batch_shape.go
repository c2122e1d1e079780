package fit

import (
	"errors"
	"math"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// WithBatches tries wall-clock aligned asks just after each batch
// boundary (estimate.Periodicity: answers a few seconds after every
// 5-minute UTC boundary) on res, the plain fit of items with opt: "every
// 5m at +4s until 5m10s". An item waits at most one period for its batch,
// so the aligned asks stop at the period plus the last offset.
//
// The offsets come from the phases (settle time modulo the period) of
// the answers on the arc after the boundary where the batch lands (up to
// three times the period's phase, at most a quarter period): their 90th
// or 99th percentile, or their median and 95th percentile, rounded up to
// 100 ms. The age-based part is fitted again at what the budget leaves
// (see Shape). The shape is kept only when it lowers the mean lag on
// items at the budget, seeing as many answers. Items without a creation
// time, or a nil period, leave res alone. Each item of smp counts with
// its weight.
func WithBatches(smp Sample, p *estimate.Period, res *Result, opt Options) (Shape, error) {
	return withBatches(smp, p, res, opt, true)
}

// withBatches is WithBatches, with the Shape's metrics the search's
// mean-only replays (see shaper.replay) unless full is set: a fit whose
// Shape nobody reads skips measuring it.
func withBatches(smp Sample, p *estimate.Period, res *Result, opt Options, full bool) (Shape, error) {
	if smp.Len() == 0 || res == nil || res.Schedule == nil {
		return Shape{}, errors.New("with batches: no items or no fit")
	}
	out := Shape{Schedule: res.Schedule}
	if p == nil || !(p.Period > 0) {
		return out, nil
	}
	for _, it := range smp.Items {
		if !it.HasCreated() {
			return out, nil
		}
	}
	sh, err := newShaper(smp, res, opt)
	if err != nil {
		return out, err
	}
	out.Plain = sh.plain
	period := time.Duration(math.Round(p.Period*1e9/1e6)) * time.Millisecond
	arc := min(3*p.Phase, p.Period/4)
	var tried *schedule.Schedule
	var triedM Metrics
	cands := offsetCandidates(smp, period, arc)
	fits, err := sh.graftAll(len(cands), func(i int) (*schedule.Schedule, Metrics, error) {
		offs := cands[i]
		al := schedule.Aligned{Period: period, Offsets: offs, Until: untilAfter(period + offs[len(offs)-1])}
		if !sh.forever() {
			al.Until = min(al.Until, sh.horizon) // the poller gives up there
		}
		last := offs[len(offs)-1]
		key := alignedKey(period, last, al.Until)
		return sh.graft(&key, alignedSeen(period, last, al.Until), func(rest *schedule.Schedule) (*schedule.Schedule, error) {
			r := schedule.Canonical(rest)
			r.Aligned = append(r.Aligned, al)
			return r, r.Validate()
		})
	})
	if err != nil {
		return out, err
	}
	for _, f := range fits {
		s, m := f.s, f.m
		if s == nil {
			continue
		}
		if sh.better(s, m) && (!out.Paid || sh.score(m) < sh.score(out.Shaped)) {
			out.Schedule, out.Shaped, out.Paid = s, m, true
		}
		if tried == nil || sh.score(m) < sh.score(triedM) {
			tried, triedM = s, m
		}
	}
	if !out.Paid && tried != nil {
		out.Shaped, out.tried = triedM, tried
	}
	if full {
		return sh.complete(out, res.Schedule)
	}
	return out, nil
}

// alignedSeen reports whether aligned asks at offsets up to last after
// each boundary of period, until the age until, see an item's answer.
func alignedSeen(period, last, until time.Duration) func(estimate.Item) bool {
	return func(it estimate.Item) bool {
		return settlePhase(it, period) <= last && nanos(it.Age) <= until
	}
}

// settlePhase is how long after a boundary of period the item's answer
// came (Created must be known).
func settlePhase(it estimate.Item, period time.Duration) time.Duration {
	t := it.Created + int64(nanos(it.Age))
	ph := t % int64(period)
	if ph < 0 {
		ph += int64(period)
	}
	return time.Duration(ph)
}

// offsetCandidates are the offset lists tried, from the phases of the
// final answers on the arc [0, arc] seconds after a boundary.
func offsetCandidates(smp Sample, period time.Duration, arc float64) [][]time.Duration {
	var ph []time.Duration
	var ws []float64
	for i, it := range smp.Items {
		w := smp.Weight(i)
		if x := settlePhase(it, period); it.Status.Final() && w > 0 && x.Seconds() <= arc {
			ph = append(ph, x)
			if smp.Weighted() {
				ws = append(ws, w)
			}
		}
	}
	if len(ph) == 0 {
		return nil
	}
	const step = 100 * time.Millisecond
	q := nearestRanks(ph, ws, 0.9, 0.99, 0.5, 0.95)
	up := func(x time.Duration) time.Duration { return min((x+step-1)/step*step, period-step) }
	var out [][]time.Duration
	add := func(c ...time.Duration) { out = addCandidate(out, c) }
	add(up(q[0]))
	add(up(q[1]))
	add(up(q[2]), up(q[3]))
	return out
}

// untilAfter rounds d up to a whole second, a readable "until".
func untilAfter(d time.Duration) time.Duration {
	return (d + time.Second - 1) / time.Second * time.Second
}
