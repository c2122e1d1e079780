package fit

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// bruteForce enumerates every schedule of at most k clauses over the
// intervals ds and boundaries bs (each clause ending on a boundary it
// divides evenly, the last on the horizon, where it must ask) and
// returns the least objective among those spending at most limit, with
// each schedule costed independently: expanded by schedule.Timeline and
// summed by evaluate.
//
// With prefix ages, a schedule may also start with one "at" clause: the
// first ask, at most two of the ages, and one of them that is a boundary,
// where the other clauses start.
func bruteForce(t *testing.T, l law, ds, bs, prefix []time.Duration, horizon time.Duration, k int, limit float64, asks bool) (best float64, arg string) {
	best = math.Inf(1)
	var rec func(cl []schedule.Clause, prev time.Duration)
	try := func(cl []schedule.Clause) {
		s := &schedule.Schedule{Clauses: cl}
		if s.Validate() != nil {
			return
		}
		list, err := s.Timeline().Asks(horizon)
		if err != nil {
			t.Fatal(err)
		}
		sec := seconds(list)
		sm := evaluate(l, sec)
		spent := sm.requests
		if asks {
			spent = float64(len(sec))
		}
		if spent <= limit && sm.lag < best {
			best, arg = sm.lag, schedule.Format(s)
		}
	}
	rec = func(cl []schedule.Clause, prev time.Duration) {
		for _, d := range ds {
			if prev+d > horizon {
				continue
			}
			if (horizon-prev)%d == 0 {
				try(append(append([]schedule.Clause(nil), cl...), schedule.Clause{Every: d, Until: horizon}))
			}
			if len(cl)+1 >= k {
				continue
			}
			for _, b := range bs {
				if b > prev && b < horizon && (b-prev)%d == 0 {
					rec(append(append([]schedule.Clause(nil), cl...), schedule.Clause{Every: d, Until: b}), b)
				}
			}
		}
	}
	rec(nil, 0)
	for _, b := range prefix {
		if !slices.Contains(bs, b) {
			continue
		}
		for _, x := range prefix {
			for _, y := range prefix {
				for _, at := range [][]time.Duration{{0, b}, {0, x, b}, {0, x, y, b}} {
					if !slices.IsSorted(at) || len(slices.Compact(slices.Clone(at))) != len(at) {
						continue
					}
					rec([]schedule.Clause{{At: at}}, b)
				}
			}
		}
	}
	return best, arg
}

func TestQuantiserAgainstBruteForce(t *testing.T) {
	m := mustModel(t, "0.5*lognormal(median=3s, sigma=0.6) + 0.45*lognormal(median=25s, sigma=0.5) + 0.05*never")
	s := time.Second
	ds := []time.Duration{s, 2 * s, 3 * s, 5 * s, 10 * s, 15 * s}
	bs := []time.Duration{5 * s, 10 * s, 15 * s, 20 * s, 30 * s, 40 * s, 45 * s}
	horizon := time.Minute
	l := newDistLaw(m, horizon.Seconds())
	for _, c := range []struct {
		k     int
		limit float64
		asks  bool
	}{{2, 6, false}, {3, 8, false}, {3, 12, false}, {2, 10, true}, {3, 15, true}} {
		sg := newClauseSetFrom(l, 0, horizon, false, ds, bs, 0, 0, horizon.Seconds(), 0)
		sg.tieBreak = 0
		path := sg.solveWithin(Mean, c.k, c.limit, c.asks, 1000)
		if path == nil {
			t.Fatalf("%+v: no schedule", c)
		}
		got := sg.schedule(path)
		list, _ := got.Timeline().Asks(horizon)
		sm := evaluate(l, seconds(list))
		spent := sm.requests
		if c.asks {
			spent = float64(len(list))
		}
		want, arg := bruteForce(t, l, ds, bs, nil, horizon, c.k, c.limit, c.asks)
		if spent > c.limit || sm.lag > want*1.01 {
			t.Errorf("%+v: %s lag %.6g spends %.4g; brute force %s lag %.6g", c, got, sm.lag, spent, arg, want)
		}
		t.Logf("%+v: %s lag %.6g; brute force %s lag %.6g", c, got, sm.lag, arg, want)
	}
}

func TestQuantiserWithPrefixAgainstBruteForce(t *testing.T) {
	m := mustModel(t, "0.4*lognormal(median=1s, sigma=0.5) + 0.55*lognormal(median=20s, sigma=0.5) + 0.05*never")
	s := time.Second
	ds := []time.Duration{s, 2 * s, 5 * s, 10 * s, 15 * s}
	bs := []time.Duration{2 * s, 5 * s, 10 * s, 20 * s, 30 * s, 40 * s}
	horizon := time.Minute
	l := newDistLaw(m, horizon.Seconds())
	for _, c := range []struct {
		k     int
		limit float64
	}{{2, 5}, {3, 7}, {3, 10}} {
		sg := newClauseSetFrom(l, 0, horizon, false, ds, bs, 0, 0, -1, 0)
		sg.tieBreak = 0
		ages := sg.prefixAges(sg.w, append(ds, bs...))
		sg.addPrefixes(sg.w, append(ds, bs...))
		path := sg.solveWithin(Mean, c.k, c.limit, false, 1000)
		got := sg.schedule(path)
		list, _ := got.Timeline().Asks(horizon)
		sm := evaluate(l, seconds(list))
		want, arg := bruteForce(t, l, ds, bs, ages, horizon, c.k, c.limit, false)
		if sm.requests > c.limit || sm.lag > want*1.01 {
			t.Errorf("%+v: %s lag %.6g spends %.4g; brute force %s lag %.6g", c, got, sm.lag, sm.requests, arg, want)
		}
		t.Logf("%+v: %s lag %.6g; brute force %s lag %.6g (prefix ages %v)", c, got, sm.lag, arg, want, ages)
	}
}
