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
	// agree to 0.5%, else interpolated between fits at two budgets either
	// side (or extrapolated from the nearest two), unless that reads a
	// longer wait for more requests than Fitted's (or a shorter for
	// fewer): then Fitted's own, a bound at the baseline's cost. Change is
	// EqualCostLag relative to the baseline's mean lag, minus one.
	EqualCostLag, Change float64
	// Interpolated reports whether EqualCostLag was interpolated.
	Interpolated bool
	// SameLag is the cheapest fitted schedule whose held-out mean lag is
	// no more than the baseline's (a requests budget only; nil when no
	// fit up to the baseline's cost matches it), measured; Saving is the
	// share of the baseline's held-out requests it saves.
	SameLag         *Row
	SameLagSchedule *schedule.Schedule
	Saving          float64
	// ChangeCI is Change's 95% bootstrap interval.
	ChangeCI Interval

	second *schedule.Schedule // the second fit EqualCostLag is read off
	mix    float64            // its weight: EqualCostLag = (1−mix)·Fitted + mix·second
}

// compare measures each baseline and fits at its cost.
func (st *study) compare() error {
	r := st.res
	for _, b := range st.opt.Baselines {
		c, err := st.compareOne(b)
		if err != nil {
			return fmt.Errorf("baseline %s: %w", b.Name, err)
		}
		r.Baselines = append(r.Baselines, c)
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
	res := r.Fit
	if b.Name != r.BudgetFrom {
		if res, err = st.fit(c.Budget, c.StuckCap); err != nil {
			return Comparison{}, fmt.Errorf("at its cost: %w", err)
		}
	}
	c.Schedule = res.Schedule
	if c.Fitted, err = st.measure("fitted@"+b.Name, res.Schedule); err != nil {
		return Comparison{}, err
	}
	c.EqualCostLag = c.Fitted.Lag.Mean
	if err := st.equalCost(&c); err != nil {
		return Comparison{}, err
	}
	c.Change = c.EqualCostLag/base.Lag.Mean - 1
	if err := st.sameLag(&c); err != nil {
		return Comparison{}, err
	}
	return c, nil
}

// sameLagSteps is how many fits the search for the same lag makes.
const sameLagSteps = 8

// sameLag finds the cheapest budget whose fit waits no longer than the
// baseline on the held-out items, by bisection on the budget between 1
// request per item and the baseline's cost (the lag falls as the budget
// rises, to held-out noise: every fit tried is kept if it qualifies).
func (st *study) sameLag(c *Comparison) error {
	c.Saving = math.NaN()
	if c.Budget.Kind() != BudgetRequests {
		return nil
	}
	want := c.Baseline.Lag.Mean
	keep := func(r Row, s *schedule.Schedule) bool {
		ok := r.Lag.Mean <= want
		if ok && (c.SameLag == nil || r.RequestsPerItem < c.SameLag.RequestsPerItem) {
			r.Name = "fitted, same lag as " + c.Name
			c.SameLag, c.SameLagSchedule = &r, s
		}
		return ok
	}
	keep(c.Fitted, c.Schedule)
	lo, hi := 1.0, c.Budget.RequestsPerItem
	for range sameLagSteps {
		mid := math.Sqrt(lo * hi)
		res, err := st.fit(Budget{RequestsPerItem: mid}, c.StuckCap)
		if err := st.stopped("same lag"); err != nil {
			return err
		}
		if err != nil {
			lo = mid // too little to fit: more
			continue
		}
		r, err := st.measure("", res.Schedule)
		if err != nil {
			return err
		}
		if keep(r, res.Schedule) {
			hi = mid
		} else {
			lo = mid
		}
	}
	if c.SameLag != nil {
		c.Saving = 1 - c.SameLag.RequestsPerItem/c.Baseline.RequestsPerItem
	}
	return nil
}

// equalCost sets the fitted lag at the baseline's held-out requests per
// item when the held-out costs differ: the fit again at the budget scaled
// by the ratio of the costs, and the line through the two fits.
func (st *study) equalCost(c *Comparison) error {
	want, got := c.Baseline.RequestsPerItem, c.Fitted.RequestsPerItem
	if c.Budget.Kind() != BudgetRequests || math.Abs(got-want) <= 5e-3*want {
		return nil
	}
	b := Budget{RequestsPerItem: math.Max(1, c.Budget.RequestsPerItem*want/got)}
	res, err := st.fit(b, c.StuckCap)
	if err := st.stopped("equal cost"); err != nil {
		return err
	}
	if err != nil {
		return nil // no second fit: keep the pair as measured
	}
	m, err := st.measure("", res.Schedule)
	if err != nil {
		return err
	}
	x0, y0, x1, y1 := got, c.Fitted.Lag.Mean, m.RequestsPerItem, m.Lag.Mean
	c.second = res.Schedule
	switch {
	case math.Abs(x1-want) <= 5e-3*want:
		c.EqualCostLag, c.mix = y1, 1
	case x1 != x0:
		c.mix = (want - x0) / (x1 - x0)
		c.EqualCostLag = y0 + (y1-y0)*c.mix
	default:
		c.second = nil
		return nil
	}
	// More budget never has to wait longer: the fitted schedule's own lag
	// bounds the lag at the baseline's cost from above when it spent less
	// than the baseline, from below when it spent more. A reading that
	// crosses that bound is held-out noise: keep the pair as measured.
	if (got <= want && c.EqualCostLag > y0) || (got > want && c.EqualCostLag < y0) {
		c.EqualCostLag, c.second, c.mix = y0, nil, 0
		return nil
	}
	c.Interpolated = true
	return nil
}
