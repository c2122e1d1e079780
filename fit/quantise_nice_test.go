package fit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
	"github.com/pollfit/pollfit/internal/testenv"
)

// niceBoundaries and niceIntervals are the nice set as pollfit help
// fitting states it, written out here apart from niceSets: boundaries
// 1, 2, 3, 5, 10, 15, 20, 30, 45 × ms, s and min, then 1, 1.5, 2, 3, 4,
// 6, 8, 12, 18, 24, 36, 48, 60, 72 h and whole days up to 60; intervals
// 1, 2, 5, 10, 15, 30 × ms, s and min, 100, 200, 500 ms, 1, 2, 3, 6, 12,
// 24, 48 h, 7 and 30 days.
func niceBoundaries() []time.Duration {
	var out []time.Duration
	for _, u := range []time.Duration{time.Millisecond, time.Second, time.Minute} {
		for _, x := range []time.Duration{1, 2, 3, 5, 10, 15, 20, 30, 45} {
			out = append(out, x*u)
		}
	}
	for _, x := range []float64{1, 1.5, 2, 3, 4, 6, 8, 12, 18, 24, 36, 48, 60, 72} {
		out = append(out, time.Duration(x*float64(time.Hour)))
	}
	for d := time.Duration(1); d <= 60; d++ {
		out = append(out, d*24*time.Hour)
	}
	return out
}

func niceIntervals() []time.Duration {
	var out []time.Duration
	for _, u := range []time.Duration{time.Millisecond, time.Second, time.Minute} {
		for _, x := range []time.Duration{1, 2, 5, 10, 15, 30} {
			out = append(out, x*u)
		}
	}
	out = append(out, 100*time.Millisecond, 200*time.Millisecond, 500*time.Millisecond)
	for _, x := range []time.Duration{1, 2, 3, 6, 12, 24, 48, 7 * 24, 30 * 24} {
		out = append(out, x*time.Hour)
	}
	return out
}

// niceStated reports whether a is in the nice set: a boundary or an
// interval (an explicit ask of the fit's own "at" list is at either).
func niceStated(a time.Duration) bool {
	return slices.Contains(niceBoundaries(), a) || slices.Contains(niceIntervals(), a)
}

// roundSecond reports whether a give-up age reads as a round figure: a
// whole second, or a whole 10 ms below a second.
func roundSecond(a time.Duration) bool {
	if a < time.Second {
		return a%(10*time.Millisecond) == 0
	}
	return a%time.Second == 0
}

// TestNiceBoundaries fits random logs at random budgets and clause caps,
// half of them against a baseline that stops at an age no nice set
// holds (so that the give-up age is capped there), with the deadline
// and batch shapes off, and checks the schedule reads as the help says:
// the give-up age is a round second; every other "until" age and every
// explicit ask is in the nice set, or, where a clause runs short of the
// give-up age, a round second; and at most --clauses clauses, an "at" list counting as
// one for its first four asks and one more for each ask after them,
// besides a last ask at the give-up age.
func TestNiceBoundaries(t *testing.T) {
	t.Parallel()
	n := 6
	if testenv.Long() {
		n = 40
	}
	models := []loggen.Model{loggen.Payments, loggen.Timeout(1500 * time.Millisecond), loggen.Segmented}
	for i := range n {
		r := rand.New(rand.NewPCG(uint64(i), 26))
		seed := uint64(100 + i)
		rows := loggen.Rows(models[i%len(models)], 1500, seed)
		k := 2 + r.IntN(4)
		opt := StudyOptions{Options: Options{Clauses: k}, Holdout: 0.3, Seed: seed, NoDeadlines: true, NoBatches: true}
		desc := fmt.Sprintf("log %d (model %d, seed %d), %d clauses", i, i%len(models), seed, k)
		if i%2 == 0 {
			// An exponential backoff: its end, 1.3^0 + … sums, is no nice age.
			spec := fmt.Sprintf("exponential(initial=%dms, factor=1.%d, max=%ds, attempts=%d)", 300+r.IntN(900), 3+r.IntN(6), 20+r.IntN(40), 10+r.IntN(8))
			st, err := backoff.Parse(spec)
			if err != nil {
				t.Fatal(err)
			}
			b, err := backoff.Schedule(st, 30*24*time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			opt.Baselines = []Baseline{{Name: "base", Schedule: b}}
			desc += ", against " + spec
		} else {
			opt.Budget = Budget{RequestsPerItem: 3 + 15*r.Float64()}
			desc += fmt.Sprintf(", at %.2f requests", opt.Budget.RequestsPerItem)
		}
		res, err := Study(context.Background(), ItemSample(loggen.Items(rows)), nil, opt)
		if err != nil {
			t.Fatalf("%s: %v", desc, err)
		}
		h := res.GiveUp.Age
		if !roundSecond(h) {
			t.Errorf("%s: give-up age %s (%s) is not a round second", desc, schedule.FormatDuration(h), res.GiveUp.Reason)
		}
		checkNice(t, desc, res.Schedule, h, k)
		for _, c := range res.Baselines {
			checkNice(t, desc+", fitted@"+c.Name, c.Schedule, h, k)
		}
	}
}

// checkNice checks one fitted schedule against the stated rules.
func checkNice(t *testing.T, desc string, s *schedule.Schedule, h time.Duration, k int) {
	t.Helper()
	clauses := 0
	for _, c := range s.Clauses {
		if !c.IsAt() {
			clauses++
			if !c.Forever && c.Until != h && !onNiceGrid(c.Until) {
				t.Errorf("%s: %q: until %s is not a nice boundary", desc, schedule.Format(s), schedule.FormatDuration(c.Until))
			}
			continue
		}
		asks := slices.DeleteFunc(slices.Clone(c.At), func(a time.Duration) bool { return a == h })
		if len(asks) == 0 {
			continue // the lone last ask at the give-up age
		}
		clauses += 1 + max(0, len(asks)-4)
		if i := slices.IndexFunc(asks, func(a time.Duration) bool { return a != 0 && !onNiceGrid(a) }); i >= 0 {
			t.Errorf("%s: %q asks at %s, not a nice age", desc, schedule.Format(s), schedule.FormatDuration(asks[i]))
		}
	}
	if clauses > k {
		t.Errorf("%s: %q counts %d clauses, more than %d", desc, schedule.Format(s), clauses, k)
	}
}

// onNiceGrid reports whether a is a nice age or, where a clause that
// runs short of the give-up age asks last (its start plus a whole
// number of its interval, which a rendered "at" list no longer shows),
// a round second.
func onNiceGrid(a time.Duration) bool {
	return niceStated(a) || roundSecond(a)
}

// TestClauseCapWithDeadlines fits logs with one deadline (a 60 s
// timeout, exact or spread) at budgets 3–20 and clause caps 2–5 with
// the shapes on, and counts each shipped schedule as pollfit help
// fitting states the cap, written out here apart from ClauseCount: an
// ask from three spreads before a deadline's age to five after (the
// spread at least a sixth of the spike's window; the ends rounded
// outwards to the coarsest of 10 ms, 100 ms, 1 s, 10 s and 1 min no
// wider than two spreads) is the deadline's burst, one clause whatever
// its length (at most 32 asks), with the ask right after it in its list
// where the split clause after it takes up again on its grid; every interval clause is one; an "at"
// list's other asks are one clause for the first four and one more per
// ask after; a lone last ask at the give-up age is none; the total is
// at most --clauses + 2 per burst.
func TestClauseCapWithDeadlines(t *testing.T) {
	t.Parallel()
	// Logs 15 and 18 shipped an optimum prefix from age 0 of 25 asks
	// and more (issue 24) before the cap was checked on bursts.
	logs := []int{0, 1, 2, 15, 18}
	if testenv.Long() {
		logs = nil
		for i := range 24 {
			logs = append(logs, i)
		}
	}
	models := []loggen.Model{loggen.Deadline, loggen.DeadlineSpread(1500 * time.Millisecond), loggen.DeadlineSpread(3 * time.Second)}
	for _, i := range logs {
		r := rand.New(rand.NewPCG(uint64(i), 27))
		seed := uint64(200 + i)
		k := 2 + r.IntN(4)
		b := 3 + 17*r.Float64()
		desc := fmt.Sprintf("log %d (model %d, seed %d), %d clauses, %.2f requests", i, i%len(models), seed, k, b)
		opt := StudyOptions{Options: Options{Clauses: k, Budget: Budget{RequestsPerItem: b}}, Holdout: 0.3, Seed: seed}
		res, err := Study(context.Background(), ItemSample(loggen.Items(loggen.Rows(models[i%len(models)], 1500, seed))), nil, opt)
		if err != nil {
			t.Fatalf("%s: %v", desc, err)
		}
		var ds []estimate.Deadline
		if res.Shapes != nil {
			ds = res.Shapes.Deadlines
		}
		s, h := res.Schedule, res.GiveUp.Age
		count, bursts := statedClauses(s, ds, h)
		if count > k+2*bursts {
			t.Errorf("%s: %q counts %d clauses with %d bursts, more than %d + 2×%d", desc, schedule.Format(s), count, bursts, k, bursts)
		}
		for _, c := range s.Clauses {
			if len(c.At) > 32 {
				t.Errorf("%s: %q: an \"at\" list of %d asks, more than 32", desc, schedule.Format(s), len(c.At))
			}
		}
	}
}

// statedClauses counts s by the rule TestClauseCapWithDeadlines states.
func statedClauses(s *schedule.Schedule, ds []estimate.Deadline, h time.Duration) (count, bursts int) {
	type window struct{ lo, hi float64 }
	var ws []window
	for _, d := range ds {
		sd := max(d.Spread, d.Width/6)
		u := 0.01
		for _, c := range []float64{0.1, 1, 10, 60} {
			if c <= 2*sd {
				u = c
			}
		}
		ws = append(ws, window{math.Floor((d.Age-3*sd)/u+1e-9) * u, math.Ceil((d.Age+5*sd)/u-1e-9) * u})
	}
	inBurst := make([]bool, len(ws))
	for i, c := range s.Clauses {
		if !c.IsAt() {
			count++
			continue
		}
		if i == len(s.Clauses)-1 && len(c.At) == 1 && c.At[0] == h {
			continue
		}
		other, afterBurst := 0, false
	asks:
		for _, a := range c.At {
			for j, w := range ws {
				if x := a.Seconds(); x >= w.lo-1e-9 && x <= w.hi+1e-9 {
					inBurst[j], afterBurst = true, true
					continue asks
				}
			}
			// The split clause's first ask on its own grid, after a burst.
			if afterBurst && i+1 < len(s.Clauses) {
				if nx := s.Clauses[i+1]; !nx.IsAt() && !nx.Forever && a < nx.Until && (nx.Until-a)%nx.Every == 0 {
					afterBurst = false
					continue
				}
			}
			afterBurst = false
			other++
		}
		if other > 0 {
			count += 1 + max(0, other-4)
		}
	}
	for _, b := range inBurst {
		if b {
			count++
			bursts++
		}
	}
	return count, bursts
}
