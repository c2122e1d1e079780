package fit

import (
	"math"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// ClauseCount is what s counts against the clause cap (Clauses, --clauses), as
// pollfit help fitting states it, with bursts the number of deadlines
// whose window holds a burst: each interval clause counts one; an ask
// in a deadline's window (see BurstWindow) belongs to that deadline's
// burst, which counts one clause whatever its length, and so does the
// ask right after a burst's in its list where the clause the burst split
// takes up again on its own grid (see onGridAfter); an "at" list's
// other asks count one clause for the first four and one more for each
// after them; a lone last ask at the give-up age h counts nothing. A
// schedule keeps the cap k when ClauseCount ≤ k + 2 × bursts (each burst
// one clause, and one more for the clause it may split).
func ClauseCount(s *schedule.Schedule, ds []estimate.Deadline, h time.Duration) (count, bursts int) {
	if s == nil {
		return 0, 0
	}
	hit := make([]bool, len(ds))
	for i, c := range s.Clauses {
		if !c.IsAt() {
			count++
			continue
		}
		if i == len(s.Clauses)-1 && len(c.At) == 1 && c.At[0] == h {
			continue // the lone last ask at the give-up age
		}
		n, prev := 0, -1
		for _, a := range c.At {
			j := burstOf(a, ds)
			if j >= 0 {
				hit[j] = true
			} else if prev < 0 || !onGridAfter(a, s.Clauses, i) {
				n++
			}
			prev = j
		}
		if n > 0 {
			count += 1 + max(0, n-4)
		}
	}
	for _, b := range hit {
		if b {
			count++
			bursts++
		}
	}
	return count, bursts
}

// onGridAfter reports whether age a, in the "at" list at i, is on the
// grid of the interval clause right after that list (a whole number of
// its intervals before its end): where the clause a burst split takes
// up again on its own grid.
func onGridAfter(a time.Duration, cs []schedule.Clause, i int) bool {
	if i+1 >= len(cs) || cs[i+1].IsAt() || cs[i+1].Forever || a >= cs[i+1].Until {
		return false
	}
	return (cs[i+1].Until-a)%cs[i+1].Every == 0
}

// WithinClauseCap reports whether s keeps the cap of k clauses by
// ClauseCount's rule (always for k ≤ 0, the exact optimum).
func WithinClauseCap(s *schedule.Schedule, ds []estimate.Deadline, h time.Duration, k int) bool {
	if k <= 0 {
		return true
	}
	n, b := ClauseCount(s, ds, h)
	return n <= k+2*b
}

// BurstWindow is the ages of deadline d that a burst's asks may take:
// from three spreads before its age to five after (a spread of at least
// a sixth of the spike's window), rounded outwards to the landmark unit
// (see landmarkUnit).
func BurstWindow(d estimate.Deadline) (lo, hi time.Duration) {
	sd := max(d.Spread, d.Width/6)
	if !(sd > 0) {
		return 0, -1
	}
	u := landmarkUnit(sd).Seconds()
	l := math.Floor((d.Age-3*sd)/u+1e-9) * u
	r := math.Ceil((d.Age+5*sd)/u-1e-9) * u
	return nanos(max(l, 0)), nanos(r)
}

// burstOf is the index of the first deadline whose window holds age a,
// or -1.
func burstOf(a time.Duration, ds []estimate.Deadline) int {
	for j, d := range ds {
		if lo, hi := BurstWindow(d); a >= lo && a <= hi {
			return j
		}
	}
	return -1
}

// withinClauses reports whether the shaped s keeps the fit's clause cap
// with the deadlines ds.
func (sh *shaper) withinClauses(s *schedule.Schedule, ds []estimate.Deadline) bool {
	return WithinClauseCap(s, ds, sh.horizon, sh.opt.Clauses)
}
