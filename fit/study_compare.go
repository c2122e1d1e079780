package fit

import (
	"fmt"
	"math"

	"github.com/pollfit/pollfit/fit/schedule"
)

// Comparison is a baseline against the schedule fitted at its cost, both
// measured on the held-out items to the give-up age.
type Comparison struct {
	Name     string
	Baseline Row
	// Budget is the baseline's cost on the fitting items, and StuckCap
	// its stuck cost: the fit at its cost honours both.
	Budget   Budget
	StuckCap int
	// Schedule is the schedule fitted at the baseline's cost, and Fitted
	// it measured.
	Schedule *schedule.Schedule
	Fitted   Row
	// EqualCostLag is the fitted schedules' mean lag at the baseline's
	// held-out requests per item: Fitted's own when the held-out costs
	// agree to 0.5% (SameCost), else interpolated between the two fits
	// whose held-out costs bracket the baseline's (Interpolated; Bracket
	// holds them), searched for within equalCostFits more fits and never
	// extrapolated. With no bracket (NoBracket) it is Fitted's own lag,
	// at Fitted's own cost, and RequestsChange says how far that is from
	// the baseline's. Change is EqualCostLag relative to the baseline's
	// mean lag, minus one: at least −1, as a lag is never negative.
	EqualCostLag, Change float64
	// RequestsChange is Fitted's held-out requests per item relative to
	// the baseline's, minus one.
	RequestsChange float64
	// SameCost reports that Fitted and the baseline spend the same to
	// 0.5% on the held-out items; Interpolated that EqualCostLag is read
	// between the fits of Bracket, at the baseline's cost; NoBracket that
	// a requests budget's search found no fits either side of it.
	SameCost, Interpolated, NoBracket bool
	// Bracket are the two fits EqualCostLag is interpolated between,
	// measured (nil unless Interpolated).
	Bracket []Row
	// SameLag is the cheapest fitted schedule whose held-out mean lag is
	// no more than the baseline's among the fits the search for it makes
	// (a requests budget only; nil when no fit up to the baseline's cost
	// matches it), measured; Saving is the share of the baseline's
	// held-out requests it saves.
	SameLag         *Row
	SameLagSchedule *schedule.Schedule
	Saving          float64
	// ChangeCI is Change's 95% bootstrap interval.
	ChangeCI Interval

	// reads are the schedules EqualCostLag is read off (Fitted's alone,
	// or Bracket's), and mix the second's weight: EqualCostLag =
	// (1−mix)·lag(reads[0]) + mix·lag(reads[1]).
	reads []*schedule.Schedule
	mix   float64
}

// compare measures each baseline and fits at its cost.
func (st *study) compare() error {
	r := st.res
	for i, b := range st.opt.Baselines {
		st.stage(fmt.Sprintf("baseline %s (%d of %d)", b.Name, i+1, len(st.opt.Baselines)))
		c, err := st.compareOne(b)
		if err != nil {
			return fmt.Errorf("baseline %s: %w", b.Name, err)
		}
		r.Baselines = append(r.Baselines, c)
	}
	if len(r.Baselines) > 0 {
		d := decisionOf(r.Fitted, r.Baselines[0].Baseline)
		r.Decision = &d
	}
	return nil
}

func (st *study) compareOne(b Baseline) (Comparison, error) {
	r := st.res
	base, err := st.measure(b.Name, b.Schedule)
	if err != nil {
		return Comparison{}, err
	}
	c := Comparison{Name: b.Name, Baseline: base, StuckCap: st.baselineStuck(b.Schedule), ChangeCI: noInterval}
	if c.Budget, err = st.cost(b.Schedule, r.Budget); err != nil {
		return Comparison{}, err
	}
	if r.Budget.Kind().CountsAsks() {
		c.StuckCap = int(c.Budget.limit())
	}
	cv := st.newCurve(c.StuckCap)
	if err := st.atCost(&c, b.Name == r.BudgetFrom, cv); err != nil {
		return Comparison{}, err
	}
	c.EqualCostLag = c.Fitted.Lag.Mean
	// The bracket of the baseline's held-out cost and the search for its
	// lag read the same curve, at once.
	err = parallel(2, func(i int) error {
		if i == 0 {
			return st.equalCost(&c, cv)
		}
		return st.sameLag(&c, cv)
	})
	if err != nil {
		return Comparison{}, err
	}
	c.Change = relChange(c.EqualCostLag, base.Lag.Mean)
	return c, nil
}

// atCost fits at the baseline's cost (the main fit's, when main) and
// measures it; for a requests budget it is a point of cv, fitted beside
// the first budget the search for the baseline's lag needs (half the
// cost).
func (st *study) atCost(c *Comparison, main bool, cv *curve) error {
	var res *Result
	if main {
		res = st.res.Fit
	}
	if c.Budget.Kind() != BudgetRequests {
		var err error
		if res == nil {
			if res, err = st.fit(c.Budget, c.StuckCap); err != nil {
				return fmt.Errorf("at its cost: %w", err)
			}
		}
		c.Schedule = res.Schedule
		c.Fitted, err = st.measure("fitted@"+c.Name, res.Schedule)
		return err
	}
	cost := c.Budget.RequestsPerItem
	if res != nil {
		m, err := st.measure("", res.Schedule)
		if err != nil {
			return err
		}
		cv.put(costPoint{cost, m, res.Schedule, res.capped})
	}
	budgets := []float64{cost}
	if grid := sameLagBudgets(cost); len(grid) > 0 {
		budgets = append(budgets, grid[0])
	}
	pts, err := cv.at(budgets...)
	if err != nil {
		return err
	}
	if !pts[0].ok {
		return fmt.Errorf("at its cost: %w", pts[0].err)
	}
	c.Schedule, c.Fitted = pts[0].s, pts[0].row
	c.Fitted.Name = "fitted@" + c.Name
	return nil
}

// mainOnCurve is the study's own fit as a point of the search for the
// same lag as baseline c, when it keeps the comparison's stuck cap: it
// is a fitted schedule too, and when it waits no longer than the
// baseline for less than the search found, the row says so (the search
// fits under the baseline's cap, and a few budgets only). None when it
// asks a stuck item more, or nothing was fitted.
func (st *study) mainOnCurve(c *Comparison) []curvePoint {
	r := st.res
	if r.Schedule == nil || (c.StuckCap > 0 && r.Fitted.Stuck > float64(c.StuckCap)) {
		return nil
	}
	return []curvePoint{{costPoint: costPoint{row: r.Fitted, s: r.Schedule}, ok: true}}
}

// sameLag finds the cheapest fit, at budgets from 1 request per item to
// the baseline's cost, that waits no longer than the baseline on the
// held-out items: from the fits at its cost and at up to sameLagGrid
// budgets halving from it (sameLagBudgets), each fitted only while the
// last still waits no longer (the first, half the cost, at once with the
// fit at its cost), then sameLagSteps more between the dearest that
// waits longer and the cheapest that does not (nextSameLag: by the line
// through them, then halfway, in turn). Every fit tried is kept if it
// qualifies, the lag falling with the budget only to held-out noise:
// a budget below one that waits longer is not fitted, as on a falling
// curve it would wait longer still. The study's own fit is one more
// candidate, within the baseline's stuck cap (mainOnCurve).
func (st *study) sameLag(c *Comparison, cv *curve) error {
	c.Saving = math.NaN()
	if c.Budget.Kind() != BudgetRequests {
		return nil
	}
	want, cost := c.Baseline.Lag.Mean, c.Budget.RequestsPerItem
	pts, err := cv.at(cost)
	if err != nil {
		return err
	}
	for _, b := range sameLagBudgets(cost) {
		p, err := cv.at(b)
		if err != nil {
			return err
		}
		pts = append(pts, p[0])
		if !p[0].ok || p[0].row.Lag.Mean > want {
			break
		}
	}
	for k := range sameLagSteps {
		b, ok := nextSameLag(pts, want, k%2 == 0)
		if !ok {
			break
		}
		p, err := cv.at(b)
		if err != nil {
			return err
		}
		pts = append(pts, p[0])
	}
	for _, p := range append(pts, st.mainOnCurve(c)...) {
		if p.ok && p.row.Lag.Mean <= want && (c.SameLag == nil || p.row.RequestsPerItem < c.SameLag.RequestsPerItem) {
			r := p.row
			r.Name = "fitted, same lag as " + c.Name
			c.SameLag, c.SameLagSchedule = &r, p.s
		}
	}
	if c.SameLag != nil {
		c.Saving = 1 - c.SameLag.RequestsPerItem/c.Baseline.RequestsPerItem
	}
	return nil
}
