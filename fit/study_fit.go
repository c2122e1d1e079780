package fit

import (
	"fmt"
	"math"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// sampleKM is the Kaplan–Meier estimate of a sample.
func sampleKM(smp Sample) *estimate.Survival {
	ts := make([]float64, smp.Len())
	final := make([]bool, smp.Len())
	for i, it := range smp.Items {
		ts[i], final[i] = it.Age, it.Status.Final()
	}
	return estimate.KaplanMeier(ts, final, smp.Weights)
}

// budget fills an empty budget from the first baseline's cost on the
// fitting data.
func (st *study) budget() error {
	o, r := st.opt, st.res
	if o.Budget != (Budget{}) {
		r.Budget = o.Budget
		return nil
	}
	b := o.Baselines[0] // Validate refuses an empty budget without a baseline
	cost, err := st.cost(b.Schedule, Budget{RequestsPerItem: 1})
	if err != nil {
		return fmt.Errorf("baseline %s: %w", b.Name, err)
	}
	r.Budget, r.BudgetFrom = cost, b.Name
	return nil
}

// cost is what s spends on the fitting data to the give-up age, as a
// budget of the same kind as like.
func (st *study) cost(s *schedule.Schedule, like Budget) (Budget, error) {
	h := st.res.GiveUp.Age
	switch like.Kind() {
	case BudgetAsksBy:
		return Budget{AsksBy: int(math.Floor(AsksBy(s, like.AsksByAge) + 1e-9)), AsksByAge: like.AsksByAge}, nil
	case BudgetMaxAttempts:
		return Budget{MaxAttempts: int(math.Floor(AsksBy(s, h) + 1e-9))}, nil
	}
	m, err := st.measureOn(st.train, "", s)
	if err != nil {
		return Budget{}, err
	}
	return Budget{RequestsPerItem: m.RequestsPerItem}, nil
}

// stuckCap fixes the cap on the asks to an item that never answers.
func (st *study) stuckCap() error {
	o, r := st.opt, st.res
	b := r.Budget
	switch {
	case b.Kind().CountsAsks():
		r.StuckCapReason = "the budget counts the asks to an item that never answers"
		r.StuckCap = int(b.limit())
		if o.StuckAsks > 0 {
			st.note("the stuck cap given is ignored: the %s budget caps those asks already", b.Kind())
		}
	case o.StuckAsks > 0:
		r.StuckCap, r.StuckCapReason = o.StuckAsks, "StuckAsks"
	case r.BudgetFrom != "":
		r.StuckCap = st.baselineStuck(o.Baselines[0].Schedule)
		r.StuckCapReason = r.BudgetFrom + "'s own"
	case b.Kind() == BudgetRequests:
		r.StuckCap = int(math.Ceil(DefaultStuckFactor*b.RequestsPerItem - 1e-9))
		r.StuckCapReason = fmt.Sprintf("%d × the requests budget; StuckAsks to change", DefaultStuckFactor)
	default:
		// A price: the cap follows the requests the price buys.
		res, err := st.fit(b, 0)
		if err != nil {
			return err
		}
		req := res.Fitted.RequestsPerItem
		r.StuckCap = int(math.Ceil(DefaultStuckFactor * math.Max(req, 1)))
		r.StuckCapReason = fmt.Sprintf("%d × the %.3g requests per item the price buys; StuckAsks to change", DefaultStuckFactor, req)
	}
	return nil
}

// baselineStuck is a baseline's stuck cost at the give-up age, whole.
func (st *study) baselineStuck(s *schedule.Schedule) int {
	h := st.res.GiveUp.Age
	if st.res.Never {
		h = st.neverAge(s)
	}
	return int(math.Ceil(AsksBy(s, h) - 1e-9))
}

// options are the fit's options at budget b and stuck cap.
func (st *study) options(b Budget, stuck int) Options {
	o := st.opt.Options
	o.Budget, o.StuckAsks, o.Horizon, o.ctx, o.laws = b, stuck, st.horizon, st.ctx, st.laws
	if b.Kind() == BudgetAsksBy {
		o.Horizon = 0
	}
	o.Consider = nil
	for _, bl := range st.opt.Baselines {
		o.Consider = append(o.Consider, bl.Schedule)
	}
	return o
}

// fit fits at budget b within the stuck cap: to the model, or to the
// fitting items with the exact optimum on their smoothed density and the
// shapes that pay.
func (st *study) fit(b Budget, stuck int) (*Result, error) {
	o := st.options(b, stuck)
	if st.model != nil {
		return Optimal(st.model, o)
	}
	res, err := FitSample(st.train, o)
	if err != nil {
		return nil, err
	}
	// Beside the main fit of a study that is not lean the smoothed
	// optimum only places deadline bursts (or is the schedule, with
	// Exact): without either it is not made.
	if st.res.Density != nil && (st.isMain() && !st.opt.lean || st.smoothingShips()) {
		st.smoothOptimum(res, o)
		if err := st.stopped("fit: exact optimum"); err != nil {
			return nil, err
		}
	}
	if err := st.shape(res, o); err != nil {
		return nil, err
	}
	return res, nil
}

// smoothOptimum fits the exact optimum (and the schedule, with Exact) to
// the smoothed density of the fitting items at the fit's horizon, its
// bandwidth chosen at the first fit's budget (see Smoothing); on failure
// it keeps the fit to the items.
func (st *study) smoothOptimum(res *Result, opt Options) {
	st.chooseSmoothing(opt, res.Horizon)
	o := opt
	o.Horizon, o.Exact, o.Consider = res.Horizon, true, nil
	o.noRate = !st.isMain() // only a study's main fit's rate is read
	if o.Budget.Kind() == BudgetAsksBy {
		o.Horizon = 0
	}
	sm, err := Optimal(st.res.Density, o)
	if err != nil {
		return
	}
	res.Optimum, res.Continuous = sm.Optimum, sm.Continuous
	if opt.Exact {
		res.Schedule = sm.Schedule
	}
}

// isMain reports whether the next fit is the study's main one, whose
// smoothed optimum and continuous rate the result shows: the first, in a
// study that is not a point of a frontier or of a group's curve.
func (st *study) isMain() bool { return st.res.Fit == nil && !st.point }
