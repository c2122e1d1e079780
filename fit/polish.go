package fit

import (
	"slices"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// The quantiser's programme meets the budget on bins of requests rounded
// up clause by clause, and the stuck cap through a price per ask, so it
// can stop short of a schedule that spends the budget exactly. polish
// looks around the schedule it found: each interval clause's interval
// and end moved to the neighbouring nice values, one or both at once,
// keeping any move that lowers the objective within both budgets, until
// none does.

// polishRounds bounds the rounds of moves.
const polishRounds = 40

// polish improves s by local moves on the nice values (a schedule that
// never stops is left as it is).
func (p *problem) polish(s *schedule.Schedule) *schedule.Schedule {
	if p.forever {
		return s
	}
	best := s
	bestScore, ok := p.score(s)
	if !ok {
		return s
	}
	ds, bs := niceSets(p.opt.AnyValues)
	ds, bs = sortedSet(ds), sortedSet(append(bs, p.opt.Landmarks...))
	for range polishRounds {
		if p.opt.ctx != nil && p.opt.ctx.Err() != nil {
			break // run reports it
		}
		improved := false
		for _, c := range p.neighbours(best, ds, bs) {
			if sc, ok := p.score(c); ok && sc < bestScore-1e-12*max(bestScore, 1) {
				best, bestScore, improved = c, sc, true
			}
		}
		if !improved {
			break
		}
	}
	return best
}

// neighbours are the valid schedules one move from s that still ask at
// the horizon: an interval clause with its interval or end moved, or an
// "at" clause without one of its asks after the first (the clause after
// it then starts earlier).
func (p *problem) neighbours(s *schedule.Schedule, ds, bs []time.Duration) []*schedule.Schedule {
	var out []*schedule.Schedule
	keep := func(n *schedule.Schedule) {
		if n.Validate() == nil && p.asksAtHorizon(n) {
			out = append(out, schedule.Canonical(n))
		}
	}
	last := len(s.Clauses) - 1
	for i, c := range s.Clauses {
		if c.IsAt() {
			for k := range c.At {
				if (i == 0 && k == 0) || len(c.At) == 1 {
					continue // the first ask, or the clause itself, stays
				}
				n := *s
				n.Clauses = slices.Clone(s.Clauses)
				n.Clauses[i].At = slices.Delete(slices.Clone(c.At), k, k+1)
				keep(&n)
			}
			continue
		}
		if c.Forever {
			continue
		}
		untils := []time.Duration{c.Until}
		if i < last {
			untils = around(bs, c.Until)
		}
		for _, e := range around(ds, c.Every) {
			if e < time.Duration(p.minGap*1e9) || (p.maxGap > 0 && e > time.Duration(p.maxGap*1e9)) {
				continue
			}
			for _, u := range untils {
				if e == c.Every && u == c.Until {
					continue
				}
				n := *s
				n.Clauses = slices.Clone(s.Clauses)
				n.Clauses[i].Every, n.Clauses[i].Until = e, u
				keep(&n)
			}
		}
	}
	return out
}

// sortedSet is vs sorted, each value once.
func sortedSet(vs []time.Duration) []time.Duration {
	vs = slices.Clone(vs)
	slices.Sort(vs)
	return slices.Compact(vs)
}

// around is x with its neighbours in sorted, the nice values sorted
// (sortedSet).
func around(sorted []time.Duration, x time.Duration) []time.Duration {
	k, found := slices.BinarySearch(sorted, x)
	out := []time.Duration{x}
	if k > 0 {
		out = append(out, sorted[k-1])
	}
	if found {
		k++
	}
	if k < len(sorted) {
		out = append(out, sorted[k])
	}
	return out
}

// asksAtHorizon reports whether s's last ask is at the horizon.
func (p *problem) asksAtHorizon(s *schedule.Schedule) bool {
	asks, err := s.Timeline().Asks(p.horizon)
	return err == nil && len(asks) > 0 && asks[len(asks)-1] == p.horizon
}
