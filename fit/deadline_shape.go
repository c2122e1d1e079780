package fit

import (
	"errors"
	"math"
	"slices"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// WithDeadlines tries a burst of explicit asks just after each deadline
// (estimate.Deadlines: a spike of answers at a timeout) on res, the plain
// fit of items with opt. A deadline's answers land within a few tens of
// milliseconds of one age, where clauses of constant interval waste asks
// or lag, so one or two asks placed just after them see a large share
// of the answers at once: "1s until 30s, 5s until 55s, at 60.1s, 15s".
//
// The burst's ages are taken from the answers in the deadline's window
// (their latest age, or their median and latest, or their 90th
// percentile), rounded up to 10 ms; the age-based part is fitted again at
// what the budget leaves (see Shape) and the burst spliced in as an "at"
// clause, cutting the clause it lands in. Deadlines are tried in order of
// share, each kept only when it lowers the mean lag on items at the
// budget, seeing as many answers. Each item of smp counts with its
// weight.
//
// A deadline spread over seconds (estimate.Deadline.Spread) wants more
// than one or two asks: the items are also fitted again with the spikes'
// starts and ends among the quantiser's boundaries (DeadlineLandmarks),
// so that a clause of short intervals can cover a spike ("1s until
// 1m4s"), and the bursts tried include asks over the spike spaced by its
// spread and the exact optimum's asks (res.Optimum) over it or up to its
// end, as a prefix (see optimumBursts). The bursts are tried on the
// plain fit and on the fit with landmarks, and whichever of the two
// searches ends with less lag at the budget on the items is kept.
func WithDeadlines(smp Sample, deadlines []estimate.Deadline, res *Result, opt Options) (Shape, error) {
	return withDeadlines(smp, deadlines, res, opt, true)
}

// withDeadlines is WithDeadlines, with the Shape's metrics the search's
// mean-only replays (see shaper.replay) unless full is set.
func withDeadlines(smp Sample, deadlines []estimate.Deadline, res *Result, opt Options, full bool) (Shape, error) {
	if smp.Len() == 0 || res == nil || res.Schedule == nil {
		return Shape{}, errors.New("with deadlines: no items or no fit")
	}
	sh, err := newShaper(smp, res, opt)
	if err != nil {
		return Shape{}, err
	}
	out := Shape{Schedule: res.Schedule, Plain: sh.plain}
	ds := slices.Clone(deadlines)
	slices.SortStableFunc(ds, func(a, b estimate.Deadline) int { return -cmpFloat(a.Share, b.Share) })
	// The search from the plain fit and the same search from the fit with
	// landmarks share nothing but the items: both run at once.
	lm := *sh
	plain, marked := out, out
	var errs [2]error
	parallel(2, func(i int) error {
		if i == 0 {
			plain, errs[0] = sh.bursts(ds, res.Optimum.Asks, out)
			return nil
		}
		lm.tryLandmarks(ds, &marked)
		marked, errs[1] = lm.bursts(ds, res.Optimum.Asks, marked)
		return nil
	})
	for _, err := range errs {
		if err != nil {
			return plain, err
		}
	}
	kept := plain
	if marked.Paid && (!plain.Paid || sh.score(marked.Shaped) < sh.score(plain.Shaped)) {
		kept = marked
	}
	if full {
		return sh.complete(kept, res.Schedule)
	}
	return kept, nil
}

// bursts tries the bursts after each deadline on sh's fit, in order, each
// on the schedule the last one kept, and returns out with what paid.
func (sh *shaper) bursts(ds []estimate.Deadline, optimum []float64, out Shape) (Shape, error) {
	for _, d := range ds {
		lo, hi := d.Age-d.Width/2, d.Age+d.Width/2
		if nanos(hi) >= sh.horizon {
			continue
		}
		seenBy := func(burst []time.Duration) func(estimate.Item) bool {
			// A burst from before the spike sees every answer it spans.
			first, last := min(lo, burst[0].Seconds()), burst[len(burst)-1].Seconds()
			return func(it estimate.Item) bool { return it.Age >= first && it.Age <= last }
		}
		var tried, kept *schedule.Schedule
		var triedM, keptM Metrics
		cands := slices.Concat(burstCandidates(sh.smp, lo, hi), spreadBursts(d), optimumBursts(optimum, d))
		fits, err := sh.graftAll(len(cands), func(i int) (*schedule.Schedule, Metrics, error) {
			return sh.graftBurst(cands[i], seenBy(cands[i]))
		})
		if err != nil {
			return out, err
		}
		for _, f := range fits {
			s, m := f.s, f.m
			if s == nil || !sh.withinClauses(s, ds) {
				continue
			}
			if tried == nil || sh.score(m) < sh.score(triedM) {
				tried, triedM = s, m
			}
			if sh.better(s, m) && (kept == nil || sh.score(m) < sh.score(keptM)) {
				kept, keptM = s, m
			}
		}
		switch {
		case kept != nil:
			// Further deadlines are tried on the shaped schedule.
			out.Schedule, out.Shaped, out.Paid = kept, keptM, true
			sh.res = &Result{Schedule: kept, Horizon: sh.horizon}
			sh.plain = keptM
		case tried != nil && !out.Paid:
			out.Shaped, out.tried = triedM, tried
		}
	}
	return out, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// burstCandidates are the bursts tried for the final answers at ages in
// [lo, hi]: one ask after them all, asks after the median and after them
// all, one ask after nine in ten. Ages round up to 10 ms.
func burstCandidates(smp Sample, lo, hi float64) [][]time.Duration {
	var ages, ws []float64
	for i, it := range smp.Items {
		if w := smp.Weight(i); it.Status.Final() && w > 0 && it.Age >= lo && it.Age <= hi {
			ages = append(ages, it.Age)
			if smp.Weighted() {
				ws = append(ws, w)
			}
		}
	}
	if len(ages) == 0 {
		return nil
	}
	q := nearestRanks(ages, ws, 1, 0.5, 0.9)
	up := func(a float64) time.Duration {
		return time.Duration(math.Ceil(a*100-1e-9)) * 10 * time.Millisecond
	}
	var out [][]time.Duration
	add := func(c ...time.Duration) { out = addCandidate(out, c) }
	add(up(q[0]))
	add(up(q[1]), up(q[0]))
	add(up(q[2]))
	return out
}

// spliceAt puts the explicit asks burst into s's age-based clauses: the
// clauses before it stay, the clause it lands in stops before its first
// ask and takes up again after its last (an interval clause asks every D
// from the burst's last ask), and asks of s among the burst's are dropped.
// When that would move the end of a schedule that stops (a clause after
// the burst no longer reaching its until), the clause the burst lands in
// takes up again on its own grid instead, so every ask of s outside the
// burst stays where it was.
func spliceAt(s *schedule.Schedule, burst []time.Duration) (*schedule.Schedule, error) {
	out, err := splice(s, burst, false)
	if err != nil || !s.Stops() {
		return out, err
	}
	end, _ := s.End()
	if e, _ := out.End(); e != end && end > burst[len(burst)-1] {
		return splice(s, burst, true)
	}
	return out, nil
}

// splice is spliceAt, the clause the burst lands in taking up again from
// the burst's last ask, or on its own grid with keepGrid.
func splice(s *schedule.Schedule, burst []time.Duration, keepGrid bool) (*schedule.Schedule, error) {
	b1, bk := burst[0], burst[len(burst)-1]
	out := &schedule.Schedule{Aligned: s.Aligned, ResetOnSignal: s.ResetOnSignal}
	add := func(c schedule.Clause) { out.Clauses = append(out.Clauses, c) }
	var prev time.Duration // the last ask of s so far
	inserted := false
	insert := func() {
		if len(out.Clauses) == 0 && len(s.Clauses) > 0 && !s.Clauses[0].IsAt() && b1 > 0 {
			add(schedule.Clause{At: []time.Duration{0}}) // the implied first ask
		}
		add(schedule.Clause{At: slices.Clone(burst)})
		inserted = true
	}
	for _, c := range s.Clauses {
		switch {
		case inserted:
			add(c)
		case c.IsAt():
			var before, after []time.Duration
			for _, a := range c.At {
				switch {
				case a < b1:
					before = append(before, a)
				case a > bk:
					after = append(after, a)
				}
			}
			if len(before) > 0 {
				add(schedule.Clause{At: before})
			}
			if len(before) < len(c.At) {
				insert()
			}
			if len(after) > 0 {
				add(schedule.Clause{At: after})
			}
		default:
			last := c.Until
			if !c.Forever {
				last = prev + (c.Until-prev)/c.Every*c.Every
			}
			if !c.Forever && last < b1 {
				add(c)
				break
			}
			if k := (b1 - 1 - prev) / c.Every; k >= 1 {
				add(schedule.Clause{Every: c.Every, Until: prev + k*c.Every})
			}
			insert()
			if keepGrid {
				next := prev + ((bk-prev)/c.Every+1)*c.Every
				if c.Forever || next <= last {
					add(schedule.Clause{At: []time.Duration{next}})
				}
				if c.Forever || last >= next+c.Every {
					add(c)
				}
			} else if c.Forever || c.Until >= bk+c.Every {
				add(c)
			}
		}
		if !c.IsAt() && !c.Forever {
			prev = prev + (c.Until-prev)/c.Every*c.Every
		} else if c.IsAt() {
			prev = c.At[len(c.At)-1]
		}
	}
	if !inserted {
		insert()
	}
	return fixClauses(out)
}

// fixClauses drops the clauses that, once the asks before them moved,
// would not ask at all, and checks the result.
func fixClauses(s *schedule.Schedule) (*schedule.Schedule, error) {
	var kept []schedule.Clause
	var prev time.Duration
	for _, c := range s.Clauses {
		switch {
		case c.IsAt():
			var at []time.Duration
			for _, a := range c.At {
				if len(kept) == 0 && len(at) == 0 || a > prev {
					at = append(at, a)
					prev = a
				}
			}
			if len(at) == 0 {
				continue
			}
			c.At = at
		case c.Forever:
		case c.Until < prev+c.Every:
			continue
		default:
			prev += (c.Until - prev) / c.Every * c.Every
		}
		kept = append(kept, c)
	}
	s.Clauses = kept
	s = schedule.Canonical(s)
	return s, s.Validate()
}
