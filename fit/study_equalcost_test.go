package fit

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/testenv"
)

// fakeFrontier is a frontier worked by hand: a fit at budget b spends
// cost(b) on the held-out items and waits lag(b); calls counts the fits.
// With sched, the fit's schedule is sched(b) and capped(b) says whether
// the stuck cap bound it.
type fakeFrontier struct {
	cost, lag func(b float64) float64
	sched     func(b float64) string
	capped    func(b float64) bool
	calls     int
}

func (f *fakeFrontier) at(b float64) costPoint {
	p := costPoint{budget: b, row: Row{Metrics: Metrics{RequestsPerItem: f.cost(b), Lag: LagStats{Mean: f.lag(b)}}}}
	if f.sched != nil {
		s, err := schedule.Parse(f.sched(b))
		if err != nil {
			panic(err) // the tests' own schedules
		}
		p.s, p.capped = s, f.capped(b)
	}
	return p
}

func (f *fakeFrontier) fitAt(b float64) (costPoint, bool, error) {
	f.calls++
	return f.at(b), true, nil
}

// The analyst's log: the fit at prod's budget spent 13.19 of prod's
// 13.53 held-out requests, and more budget buys hardly any more held-out
// requests but less lag. A line through two such fits reaches a negative
// lag at 13.53 (the old reading, −6.74 s); the search must stop without
// a bracket and never extrapolate.
func TestBracketCostNeverExtrapolates(t *testing.T) {
	f := &fakeFrontier{cost: func(b float64) float64 { return math.Min(13.19+0.05*(b-13.53), 13.3) }, lag: func(b float64) float64 { return 1.68 - 2*(b-13.53) }}
	_, _, ok, err := bracketCost(13.53, f.at(13.53), f.fitAt)
	if err != nil || ok {
		t.Errorf("a cost that never reaches 13.53: bracket found (ok %v, err %v)", ok, err)
	}
	if f.calls > equalCostFits {
		t.Errorf("%d fits, want at most %d", f.calls, equalCostFits)
	}

	// A cost 3% under the budget: the fit at 13.53/0.97·… brackets it
	// after one fit or two, and the reading is the line between them.
	g := &fakeFrontier{cost: func(b float64) float64 { return 0.97 * b }, lag: func(b float64) float64 { return 20 / b }}
	lo, hi, ok, err := bracketCost(10, g.at(10), g.fitAt)
	if err != nil || !ok {
		t.Fatalf("no bracket of 10 on cost 0.97·b (ok %v, err %v)", ok, err)
	}
	if x0, x1 := lo.cost(), hi.cost(); !(x0 <= 10 && 10 <= x1) {
		t.Errorf("bracket [%g, %g] does not hold 10", x0, x1)
	}
	// Scaled by 10/9.7 once, the budget 10.309 spends exactly 10: within
	// 0.5%, so it is both ends.
	if want := 10 * 10 / 9.7; math.Abs(lo.budget-want) > 1e-9 || lo.budget != hi.budget {
		t.Errorf("read at budgets %g and %g, want %g alone", lo.budget, hi.budget, want)
	}

	// A fit at the least budget already spends more: no lower budget.
	h := &fakeFrontier{cost: func(b float64) float64 { return b + 1 }, lag: func(b float64) float64 { return 1 / b }}
	if _, _, ok, _ := bracketCost(1.5, h.at(1), h.fitAt); ok || h.calls != 0 {
		t.Errorf("at the least budget: ok %v after %d fits, want no bracket and no fit", ok, h.calls)
	}
}

// A team's export log: fits just above the baseline's cost spend what
// the fit at its cost does (a plateau of the quantiser's), and one a
// little further up spends more. The search must go on past the plateau
// to the bracket: one that stopped at the first fit that bought nothing
// more gave no equal-cost reading where there was one (19.2% less mean
// lag, read between fits that spent 19.98 and 20.86).
func TestBracketCostCrossesAPlateau(t *testing.T) {
	f := &fakeFrontier{cost: func(b float64) float64 {
		if b < 21 {
			return 19.98
		}
		return 20.86
	}, lag: func(b float64) float64 { return 40 / b }}
	lo, hi, ok, err := bracketCost(20.28, f.at(20.54), f.fitAt)
	if err != nil || !ok {
		t.Fatalf("no bracket of 20.28 past the plateau (ok %v, err %v, %d fits)", ok, err, f.calls)
	}
	if lo.cost() != 19.98 || hi.cost() != 20.86 {
		t.Errorf("bracket [%g, %g], want [19.98, 20.86]", lo.cost(), hi.cost())
	}
}

// The realistic log's prod (2s until 1m, 10s until 10m): its stuck cap of
// 85 asks holds the fit at its cost to 40.16 held-out requests of prod's
// 42.56, and every bigger budget gives that fit again (the old search
// fitted four more, to 68 requests per item, all the same). Once a
// bigger budget gives the same fit under the cap with a twentieth of
// the budget unspent, the search stops, in one fit. Without the cap, or
// with a fit that spends its budget (a plateau of the clauses' steps,
// as on the payments log), it searches on.
func TestBracketCostStopsWhereTheCapHolds(t *testing.T) {
	held := func(capped bool) *fakeFrontier {
		return &fakeFrontier{cost: func(b float64) float64 { return math.Min(0.97*b, 40.16) }, lag: func(b float64) float64 { return 90 / math.Min(b, 41.4) },
			sched: func(b float64) string {
				if b >= 41.4 {
					return "2s until 30s, 5s until 3m, 10s until 5m, 15s until 10m"
				}
				return "2s until 30s, 5s until 3m, 10s until 5m, 20s until 10m"
			}, capped: func(b float64) bool { return capped && b >= 41.4 }}
	}
	f := held(true)
	if _, _, ok, err := bracketCost(42.56, f.at(42.8), f.fitAt); ok || err != nil || f.calls != 1 {
		t.Errorf("held by the cap: ok %v, err %v after %d fits, want no bracket after 1", ok, err, f.calls)
	}
	g := held(false)
	if _, _, ok, _ := bracketCost(42.56, g.at(42.8), g.fitAt); ok || g.calls != equalCostFits {
		t.Errorf("held by the budget alone: ok %v after %d fits, want no bracket after %d", ok, g.calls, equalCostFits)
	}
	// Capped, the same fit at a bigger budget, but 2.7% of the budget
	// unspent: the plateau of TestBracketCostCrossesAPlateau, searched on.
	h := &fakeFrontier{cost: func(b float64) float64 {
		if b < 21 {
			return 19.98
		}
		return 20.86
	}, lag: func(b float64) float64 { return 40 / b },
		sched: func(b float64) string {
			if b < 21 {
				return "1s until 2s, 2s until 30s, 5s until 2m, 15s until 5m"
			}
			return "1s until 2s, 2s until 30s, 5s until 2m, 10s until 5m"
		}, capped: func(float64) bool { return true }}
	if lo, hi, ok, err := bracketCost(20.28, h.at(20.54), h.fitAt); !ok || err != nil || lo.cost() != 19.98 || hi.cost() != 20.86 {
		t.Errorf("a plateau that spends its budget, capped: ok %v, err %v, bracket [%g, %g], want [19.98, 20.86]", ok, err, lo.cost(), hi.cost())
	}
}

// analystItems is a log like the analyst's: three channels settling at
// different speeds, declines at a 30 s PSP timeout, a tail in minutes and
// some stuck, created over a day.
func analystItems(n int, seed uint64) []estimate.Item {
	r := rand.New(rand.NewPCG(seed, 24))
	stuck := 0.01 + 0.04*r.Float64()
	out := make([]estimate.Item, n)
	start := time.Date(2026, 10, 24, 0, 0, 0, 0, time.UTC).UnixNano()
	for i := range out {
		it := estimate.Item{Created: start + r.Int64N(int64(48*time.Hour)), Dated: true, Status: estimate.Settled}
		switch u := r.Float64(); {
		case u < stuck:
			it.Age, it.Status = 3600+r.Float64()*3600, estimate.Pending
		case u < stuck+0.3:
			it.Age = 0.9 * math.Exp(0.5*r.NormFloat64())
		case u < stuck+0.65:
			it.Age = 4 * math.Exp(0.7*r.NormFloat64())
		case u < stuck+0.75:
			it.Age, it.Status = 30+0.2*r.NormFloat64(), estimate.Failed
		default:
			it.Age = 150 * math.Exp(r.NormFloat64())
		}
		out[i] = it
	}
	return out
}

// On analyst-like logs the comparison with prod reads only inside what
// was measured: the equal-cost lag is the fit's own at the same cost,
// or lies between the lags of two fits whose held-out costs bracket
// prod's, or is the fit's own pair, said so; a lag is never negative, a
// change never below −100%, and the interval holds the change.
func TestEqualCostInsideWhatWasMeasured(t *testing.T) {
	prod, err := schedule.Parse("2s until 1m, 10s until 10m")
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		t.Skip("two studies")
	}
	seeds, n := uint64(2), 2500
	if !testenv.Long() {
		// Two smaller logs by default, without the deadline burst: the
		// first's comparison is read between two fits that bracket prod's
		// held-out cost (Interpolated), the second's has no bracket; both
		// full logs with every shape in the long run, the first of which
		// has no bracket.
		n = 800
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		res, err := Study(context.Background(), ItemSample(analystItems(n, seed)), nil, StudyOptions{Holdout: 0.3, Seed: seed, Bootstrap: 20,
			NoBatches: true, NoDeadlines: !testenv.Long(), Baselines: []Baseline{{Name: "prod", Schedule: prod}}})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Baselines[0]
		want := c.Baseline.RequestsPerItem
		t.Logf("seed %d: prod %.4g at %.4g, fitted@prod %.4g at %.4g, equal-cost %.4g (same %v, interpolated %v, no bracket %v), change %.4g %v",
			seed, c.Baseline.Lag.Mean, want, c.Fitted.Lag.Mean, c.Fitted.RequestsPerItem, c.EqualCostLag, c.SameCost, c.Interpolated, c.NoBracket, c.Change, c.ChangeCI)
		if !(c.EqualCostLag >= 0) || !(c.Change > -1) {
			t.Errorf("seed %d: equal-cost lag %g, change %g: outside the physical range", seed, c.EqualCostLag, c.Change)
		}
		if !(c.ChangeCI[0] <= c.Change && c.Change <= c.ChangeCI[1]) || !(c.ChangeCI[0] >= -1) {
			t.Errorf("seed %d: interval %v does not hold the change %g within (−1, ∞)", seed, c.ChangeCI, c.Change)
		}
		switch {
		case c.SameCost:
			if !sameCost(c.Fitted.RequestsPerItem, want) || c.EqualCostLag != c.Fitted.Lag.Mean {
				t.Errorf("seed %d: same cost at %g vs %g", seed, c.Fitted.RequestsPerItem, want)
			}
		case c.Interpolated:
			lo, hi := c.Bracket[0], c.Bracket[1]
			if !(lo.RequestsPerItem <= want*(1+sameCostShare) && want*(1-sameCostShare) <= hi.RequestsPerItem) {
				t.Errorf("seed %d: fits at %g and %g do not bracket %g", seed, lo.RequestsPerItem, hi.RequestsPerItem, want)
			}
			if l, h := math.Min(lo.Lag.Mean, hi.Lag.Mean), math.Max(lo.Lag.Mean, hi.Lag.Mean); !(l <= c.EqualCostLag && c.EqualCostLag <= h) {
				t.Errorf("seed %d: equal-cost lag %g outside the bracket's lags [%g, %g]", seed, c.EqualCostLag, l, h)
			}
		default:
			if !c.NoBracket || c.EqualCostLag != c.Fitted.Lag.Mean || c.AtSameCost() {
				t.Errorf("seed %d: neither same cost nor bracketed, yet %+v", seed, c)
			}
		}
	}
}

// nextSameLag on frontiers worked by hand: between the dearest fit that
// waits longer than want and the cheapest that does not, on a log scale
// of the budget.
func TestNextSameLag(t *testing.T) {
	pt := func(b, lag float64) curvePoint {
		return curvePoint{costPoint: costPoint{budget: b, row: Row{Metrics: Metrics{Lag: LagStats{Mean: lag}}}}, ok: true}
	}
	failed := curvePoint{costPoint: costPoint{budget: 1.5}}
	cases := []struct {
		name   string
		pts    []curvePoint
		want   float64
		secant bool
		b      float64
		ok     bool
	}{
		// 4 s at 10, 2 s at 20: 3.5 s is a quarter of the way, 10·2^¼.
		{"secant", []curvePoint{pt(20, 2), pt(10, 4), pt(5, 9)}, 3.5, true, 10 * math.Pow(2, 0.25), true},
		{"halfway", []curvePoint{pt(20, 2), pt(10, 4), pt(5, 9)}, 3.5, false, 10 * math.Sqrt2, true},
		// 3.9 s is 5% of the way: kept a tenth from the end, 10·2^0.1.
		{"kept from the end", []curvePoint{pt(10, 4), pt(20, 2)}, 3.9, true, 10 * math.Pow(2, 0.1), true},
		// The cheapest fit qualifies: halfway from 1 request, √4.
		{"from one request", []curvePoint{pt(4, 1), pt(8, 0.5)}, 2, true, 2, true},
		// A budget too little to fit waits longer: halfway from it, √(1.5·4).
		{"from a failed fit", []curvePoint{failed, pt(4, 1)}, 2, true, math.Sqrt(6), true},
		{"none qualifies", []curvePoint{pt(4, 3), pt(8, 2.5)}, 2, true, 0, false},
		{"gap under 1%", []curvePoint{pt(10, 4), pt(10.05, 2)}, 3, true, 0, false},
	}
	for _, c := range cases {
		b, ok := nextSameLag(c.pts, c.want, c.secant)
		if ok != c.ok || math.Abs(b-c.b) > 1e-9*c.b {
			t.Errorf("%s: %g (ok %v), want %g (ok %v)", c.name, b, ok, c.b, c.ok)
		}
	}
}

// sameLagBudgets halve from the cost down to 1 request per item.
func TestSameLagBudgets(t *testing.T) {
	if got, want := sameLagBudgets(40), []float64{20, 10, 5}; !slices.Equal(got, want) {
		t.Errorf("under 40: %v, want %v", got, want)
	}
	if got, want := sameLagBudgets(3), []float64{1.5}; !slices.Equal(got, want) {
		t.Errorf("under 3: %v, want %v", got, want)
	}
}
