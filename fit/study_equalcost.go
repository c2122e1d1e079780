package fit

import (
	"fmt"
	"math"

	"github.com/pollfit/pollfit/fit/schedule"
)

// sameCostShare is how close two held-out costs must be, relative to
// the baseline's, to be called the same cost: 0.5%.
const sameCostShare = 5e-3

// equalCostFits bounds the further fits the search for a bracket of a
// baseline's held-out cost makes.
const equalCostFits = 4

// sameCost reports whether x spends what want does, to 0.5%.
func sameCost(x, want float64) bool { return math.Abs(x-want) <= sameCostShare*want }

// relChange is lag relative to base, minus one: NaN when base is not
// positive, at least −1 (a lag is never negative).
func relChange(lag, base float64) float64 {
	if !(base > 0) {
		return math.NaN()
	}
	return math.Max(lag, 0)/base - 1
}

// costPoint is one fit on the way to a baseline's held-out cost: the
// requests budget it was fitted at, its held-out row and its schedule.
type costPoint struct {
	budget float64
	row    Row
	s      *schedule.Schedule
	// capped: the stuck cap bound the fit (Result.capped).
	capped bool
}

func (p costPoint) cost() float64 { return p.row.RequestsPerItem }

// bracketCost searches budgets, from p0, for two fits whose held-out
// costs lie either side of want (lo ≤ want ≤ hi), calling fitAt at most
// equalCostFits times: each budget is the nearest fit's scaled by the
// ratio of the costs, raised to a higher power each time the search
// lands on the same side again. A fit within 0.5% of want is both ends.
// ok is false when no bracket was found; fitAt reports false for a
// budget it cannot fit.
func bracketCost(want float64, p0 costPoint, fitAt func(b float64) (costPoint, bool, error)) (lo, hi costPoint, ok bool, err error) {
	pts := []costPoint{p0}
	push := map[bool]int{}
	for k := 0; ; k++ {
		var haveLo, haveHi bool
		for _, p := range pts {
			if sameCost(p.cost(), want) {
				return p, p, true, nil
			}
			if x := p.cost(); x < want && (!haveLo || x > lo.cost()) {
				lo, haveLo = p, true
			} else if x > want && (!haveHi || x < hi.cost()) {
				hi, haveHi = p, true
			}
		}
		if haveLo && haveHi {
			return lo, hi, true, nil
		}
		if k == equalCostFits {
			return lo, hi, false, nil
		}
		up := !haveHi // every fit spent less than want: more budget
		from := hi
		if up {
			from = lo
		}
		b := from.budget * math.Pow(want/from.cost(), math.Exp2(float64(push[up])))
		push[up]++
		if b = math.Max(b, 1); b == from.budget {
			return lo, hi, false, nil // at the least budget already
		}
		p, fitted, err := fitAt(b)
		if err != nil {
			return lo, hi, false, err
		}
		if !fitted {
			return lo, hi, false, nil // too little to fit
		}
		if up && capBinds(from, p) {
			return lo, hi, false, nil // more budget buys nothing
		}
		pts = append(pts, p)
	}
}

// capBinds reports that the fit at a bigger budget, more, is the fit at
// from's again, under a stuck cap that bound it, and leaves more than
// capSlack of from's budget unspent on the held-out items: the cap, not
// the budget, decides those fits, and a bigger budget still is not
// fitted. A fit the budget holds spends it to within the clauses' steps;
// a plateau of the budget alone, or one that spends what it is given,
// is searched on.
func capBinds(from, more costPoint) bool {
	return more.capped && more.budget > from.budget && more.cost() < (1-capSlack)*from.budget &&
		from.s != nil && more.s != nil && more.s.String() == from.s.String()
}

// capSlack is the share of its budget a fit must leave unspent for
// capBinds to say the stuck cap holds it: 5%.
const capSlack = 0.05

// equalCost sets the fitted lag at the baseline's held-out requests per
// item: Fitted's own when the held-out costs agree to 0.5% or the budget
// counts asks, else read between the fits that bracket the baseline's
// cost, or, with no bracket, Fitted's own pair, with a note.
func (st *study) equalCost(c *Comparison, cv *curve) error {
	want := c.Baseline.RequestsPerItem
	c.EqualCostLag, c.reads, c.mix = c.Fitted.Lag.Mean, []*schedule.Schedule{c.Schedule}, 0
	c.RequestsChange = relChange(c.Fitted.RequestsPerItem, want)
	if c.SameCost = sameCost(c.Fitted.RequestsPerItem, want); c.SameCost || c.Budget.Kind() != BudgetRequests {
		return nil
	}
	tried := []costPoint{{budget: c.Budget.RequestsPerItem, row: c.Fitted, s: c.Schedule}}
	fitAt := func(b float64) (costPoint, bool, error) {
		p, ok, err := cv.fitAt(b)
		if ok {
			tried = append(tried, p)
		}
		return p, ok, err
	}
	lo, hi, ok, err := bracketCost(want, tried[0], fitAt)
	if err != nil {
		return err
	}
	if !ok {
		c.NoBracket = true
		st.note("baseline %s: no fit spent its held-out %.2f requests per item (%s), so the lag at that cost is not read: the comparison is fitted@%s's own pair, at %.2f requests per item",
			c.Name, want, triedText(tried, want, c.StuckCap), c.Name, c.Fitted.RequestsPerItem)
		return nil
	}
	if hi.cost() > lo.cost() {
		c.mix = (want - lo.cost()) / (hi.cost() - lo.cost())
	}
	c.EqualCostLag = lo.row.Lag.Mean + (hi.row.Lag.Mean-lo.row.Lag.Mean)*c.mix
	c.reads = []*schedule.Schedule{lo.s, hi.s}
	lo.row.Name, hi.row.Name = "fitted below "+c.Name+"'s cost", "fitted above "+c.Name+"'s cost"
	c.Bracket, c.Interpolated = []Row{lo.row, hi.row}, true
	return nil
}

// equalCostLag is EqualCostLag from the lags of c.reads.
func (c *Comparison) equalCostLag(lags []float64) float64 {
	if len(lags) == 1 {
		return lags[0]
	}
	return lags[0] + (lags[1]-lags[0])*c.mix
}

// triedText says what the fits of a failed bracket search (the first
// the fit at the baseline's cost) spent: "the fit at its cost and 4 more fits, at budgets from
// 42.8 to 67.3 requests per item, each under the stuck cap of 85 asks,
// spent 40.16 each held-out requests per item: at the bigger budgets the
// stuck cap binds, not the budget".
func triedText(tried []costPoint, want float64, stuck int) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	blo, bhi := math.Inf(1), math.Inf(-1)
	for _, p := range tried {
		lo, hi = math.Min(lo, p.cost()), math.Max(hi, p.cost())
		blo, bhi = math.Min(blo, p.budget), math.Max(bhi, p.budget)
	}
	more := len(tried) - 1
	fits := "fits"
	if more == 1 {
		fits = "fit"
	}
	spent := fmt.Sprintf("%.2f to %.2f", lo, hi)
	if fmt.Sprintf("%.2f", lo) == fmt.Sprintf("%.2f", hi) {
		spent = fmt.Sprintf("%.2f each", hi)
	}
	s := fmt.Sprintf("the fit at its cost and %d more %s, at budgets from %.3g to %.3g requests per item, each under the stuck cap of %d asks, spent %s held-out requests per item",
		more, fits, blo, bhi, stuck, spent)
	if hi < want && bhi > want {
		s += ": at the bigger budgets the stuck cap binds, not the budget"
	}
	return s
}
