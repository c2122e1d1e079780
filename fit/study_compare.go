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
	// no more than the baseline's (a requests budget only; nil when no
	// fit up to the baseline's cost matches it), measured; Saving is the
	// share of the baseline's held-out requests it saves.
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
	for _, b := range st.opt.Baselines {
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
	c.Change = relChange(c.EqualCostLag, base.Lag.Mean)
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
