package fit

import (
	"math"
	"testing"
	"time"
)

// A fit reads the study's clause set walked for the largest budget any
// fit asked of it (clauseSets): its clauses within a smaller budget are
// those a walk to that budget makes, so the quantised schedule is the
// one a set walked to its own budget gives, with the stuck cap binding
// or not, at a price and within requests or asks. A set walked for less
// than the fit's budget is walked again, further.
func TestClauseSetWalkedFurther(t *testing.T) {
	m := mustModel(t, "0.5*lognormal(median=3s, sigma=0.6) + 0.45*lognormal(median=25s, sigma=0.5) + 0.05*never")
	served := 0
	for _, b := range []Budget{{RequestsPerItem: 4}, {RequestsPerItem: 9}, {RequestsPerItem: 20}, {Price: 0.05}, {AsksBy: 8, AsksByAge: 2 * time.Minute}} {
		for _, stuck := range []int{0, 12, 30} {
			opt := Options{Budget: b, Horizon: 5 * time.Minute, StuckAsks: stuck}
			if b.Kind() == BudgetAsksBy {
				opt.Horizon = 0 // the budget's age is the horizon
			}
			p, err := distProblem(m, opt)
			if err != nil {
				t.Fatal(err)
			}
			want, _, werr := p.quantised()
			for _, prior := range []float64{50, 2} { // a set walked for a bigger budget, and for a smaller
				q, err := distProblem(m, opt)
				if err != nil {
					t.Fatal(err)
				}
				q.opt.laws = &lawCache{}
				first := time.Duration(math.Round(q.first*1e3)) * time.Millisecond
				k := clauseKey{q.l, q.kind, first, q.horizon, q.forever, q.opt.AnyValues, time.Duration(q.minGap * 1e9), time.Duration(q.maxGap * 1e9), q.countTo}
				spend := q.spendLimit()
				if spend == 0 {
					prior = 0 // a price's set is walked without a limit
				}
				q.opt.laws.clauseSet(k, nil, prior)
				got, _, gerr := q.quantised()
				if (werr == nil) != (gerr == nil) || (werr == nil && got.String() != want.String()) {
					t.Errorf("%+v, stuck cap %d, a set walked for %g first: %v (%v), walked to its own budget %v (%v)", b, stuck, prior, got, gerr, want, werr)
				}
				w := q.opt.laws.clauses.sets[clauseSetKey{k, "[]"}]
				reads := walkedFor(prior, spend)
				if sg := q.newClauses(first, k.minGap, k.maxGap); reads && (w.spend != prior || &sg.edges[0] != &w.sg.edges[0]) {
					t.Errorf("%+v, stuck cap %d: the fit did not read the set walked for %g", b, stuck, prior)
				} else if !reads && w.spend != spend {
					t.Errorf("%+v, stuck cap %d: the cache holds a set walked for %g, want the fit's own %g", b, stuck, w.spend, spend)
				} else if reads {
					served++
				}
			}
		}
	}
	if served == 0 {
		t.Fatal("no fit read a set walked further")
	}
}
