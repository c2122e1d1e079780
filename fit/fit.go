package fit

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/opterr"
)

// Options are the settings of Optimal and Fit. Only Budget must be set;
// the zero value of every other field is the documented default.
type Options struct {
	Budget    Budget
	Objective Objective // Mean (default) or RMS
	// Horizon is the age of the last ask: answers after it are missed and
	// an item that never settles costs the asks up to it. Zero: for a log
	// the schedule never stops and is costed up to the largest age of any
	// item, pending ones included, as if one more item than was seen
	// stayed stuck for an hour past it; for a model the age by which all
	// but 1e-9 of the answers have come (a model with mass that never
	// settles then needs a horizon or AsksBy).
	Horizon time.Duration
	// FirstAsk is the age of the first ask (default 0: ask at once).
	FirstAsk time.Duration
	// MinInterval and MaxInterval limit the gap between asks (0: none).
	MinInterval, MaxInterval time.Duration
	// Clauses is the most clauses of constant interval in the fitted
	// schedule (default 4).
	Clauses int
	// Exact makes the fitted schedule the exact optimum's ask ages, in
	// milliseconds, as one "at" clause.
	Exact bool
	// AnyValues widens the intervals and boundaries the quantiser may
	// use from the nice set (intervals 1, 2, 5, 10, 15, 30 × ms,
	// s, min, and 100, 200, 500 ms and whole hours; boundaries 1, 2,
	// 3, 5, 10, 15, 20, 30, 45 × s, min, then hours and days) to values
	// with about two significant digits.
	AnyValues bool
	// Landmarks are ages the data say matter, such as a deadline's start
	// and end, that join the boundaries the quantiser may end a clause
	// on, beside the nice ones (the horizon, Study's give-up age, is one
	// always). WithDeadlines, and so Study, fits with the landmarks of
	// the deadlines found (DeadlineLandmarks) besides these.
	Landmarks []time.Duration
	// Candidates is the number of candidate ask ages of the exact
	// optimum's dynamic programme (default 1000).
	Candidates int
	// StuckAsks caps the asks by the horizon to an item that never
	// answers (0: no cap; Study derives one). With an asks-by or
	// max-attempts budget the budget is that cap already.
	StuckAsks int
	// Consider are schedules the fit also weighs against the one it
	// finds, shipping one of them when it does better on the fitting
	// data within both budgets: Study passes the baselines, so that a fit
	// never loses in sample to a schedule its search could have found.
	Consider []*schedule.Schedule

	// ctx, set by Study, StudyModel and StudyFrontier, stops the fit's
	// search when it is done; nil never stops.
	ctx context.Context
	// laws, set by Study, holds the laws of its fitting items and of
	// their cuts, made once for all its fits; nil makes each anew.
	laws *lawCache
	// partOnly, set by the shapes' grafts, fits the age-based part a
	// shape is joined to without the exact optimum, which the graft does
	// not use (see problem.run).
	partOnly bool
	// noRate, set by a study for every fit but its main one (see
	// study.isMain), leaves the continuous rate (Result.Continuous) out:
	// only the main fit's is read (its plot draws it).
	noRate bool
	// clauses, set by the shapes' grafts, keeps the clause set of a
	// graft's cut law across its rounds (see clauseCache); nil walks it
	// anew each fit.
	clauses *clauseCache
}

// Solution is a list of ask ages, in seconds, and what they achieve.
type Solution struct {
	Asks []float64
	Prediction
}

// Result is a fitted schedule and the optima it is measured against.
type Result struct {
	// Schedule is the schedule to ship: at most Clauses clauses of nice
	// intervals (or the exact ask ages with Options.Exact).
	Schedule *schedule.Schedule
	// Fitted is what Schedule achieves on the data it was fitted to.
	Fitted Prediction
	// Optimum is the exact discrete optimum at the same budget.
	Optimum Solution
	// Continuous is the continuous-rate (Keller) schedule at the budget,
	// when the input has a smooth density; nil otherwise.
	Continuous *Solution
	// Horizon is the horizon used (see Options.Horizon).
	Horizon time.Duration
	// Multiplier is the price (λ, per request) or per-ask multiplier (μ)
	// at which Schedule is optimal.
	Multiplier float64
	// capped reports that the stuck cap, not the budget alone, bound
	// the clauses: the cheapest within the budget asked a stuck item
	// more often than it allows.
	capped bool
}

// Optimal fits a schedule to a settle-time distribution, such as an
// estimate.Model: the metrics are exact integrals. A Density that reports
// Smooth() true (or has no Smooth method) also gets its exact optimum
// polished off the grid and a continuous-rate schedule.
func Optimal(d Distribution, opt Options) (*Result, error) {
	p, err := distProblem(d, opt)
	if err != nil {
		return nil, err
	}
	return p.run()
}

// distProblem is the problem of fitting to d.
func distProblem(d Distribution, opt Options) (*problem, error) {
	return distProblemAt(d, opt, distQuantiles)
}

// distProblemAt is distProblem with d tabulated at n quantiles (the
// study's cache keeps only the tables at distQuantiles).
func distProblemAt(d Distribution, opt Options, n int) (*problem, error) {
	p, err := newProblem(opt)
	if err != nil {
		return nil, err
	}
	end := p.opt.Horizon.Seconds()
	if end <= 0 {
		if total := d.CDF(math.MaxFloat64); !(total >= 1-1e-9) {
			return nil, fmt.Errorf("%.3g%% of items never settle: give a horizon or an asks-by budget", 100*(1-total))
		}
		end = tailAge(d, 1e-9)
		p.forever = true
	}
	p.setEnd(end)
	if n == distQuantiles {
		p.l = p.opt.laws.distLaw(d, p.end)
	} else {
		p.l = newDistLawN(d, p.end, n)
	}
	if dens, ok := d.(Density); ok {
		if sm, ok := d.(interface{ Smooth() bool }); !ok || sm.Smooth() {
			p.dens = dens
		}
	}
	return p, nil
}

// Fit fits a schedule to a log of items, exactly as Replay will measure
// it: final answers count at their ages, pending items are asked up to
// the age they were last seen.
func Fit(items []estimate.Item, opt Options) (*Result, error) {
	return FitSample(ItemSample(items), opt)
}

// tailAge is the age where the chance of an answer still to come first
// falls below tail.
func tailAge(d Distribution, tail float64) float64 {
	hi := 1.0
	for 1-d.CDF(hi) >= tail && hi < 1e12 {
		hi *= 2
	}
	lo := 0.0
	for range 100 {
		mid := (lo + hi) / 2
		if 1-d.CDF(mid) < tail {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// problem is one fit: the law, the budget and the limits.
type problem struct {
	opt            Options
	kind           BudgetKind
	l              law
	dens           Density // nil unless smooth
	first, end     float64
	horizon        time.Duration // end in whole milliseconds
	forever        bool
	minGap, maxGap float64
	countTo        float64 // asks at ages ≤ countTo count towards AsksBy
	// capped: the cheapest clauses within the budget broke the stuck
	// cap, so capStuck priced the asks (Result.capped).
	capped bool
}

func newProblem(opt Options) (*problem, error) {
	kind, err := opt.Budget.check(opt.Horizon)
	if err != nil {
		return nil, err
	}
	if kind == BudgetAsksBy {
		opt.Horizon = opt.Budget.AsksByAge
	}
	if opt.Clauses == 0 {
		opt.Clauses = 4
	}
	if opt.Candidates == 0 {
		opt.Candidates = 1000
	}
	switch {
	case opt.Clauses < 0:
		return nil, opterr.Optionf("Clauses", opt.Clauses, "want a positive count of clauses")
	case opt.Candidates < 10:
		return nil, opterr.Optionf("Candidates", opt.Candidates, "want at least 10")
	case opt.MinInterval < 0:
		return nil, opterr.Optionf("MinInterval", opt.MinInterval, "want a positive interval")
	case opt.MaxInterval < 0 || (opt.MaxInterval > 0 && opt.MaxInterval < opt.MinInterval):
		return nil, opterr.Optionf("MaxInterval", opt.MaxInterval, "want a positive interval no shorter than MinInterval")
	}
	p := &problem{opt: opt, kind: kind, first: opt.FirstAsk.Seconds(), countTo: -1,
		minGap: opt.MinInterval.Seconds(), maxGap: opt.MaxInterval.Seconds()}
	return p, nil
}

// setEnd fixes the last ask at end seconds.
func (p *problem) setEnd(end float64) {
	p.horizon = time.Duration(math.Ceil(end*1e3)) * time.Millisecond
	if !p.forever {
		p.horizon = nanos(end)
	}
	p.end = p.horizon.Seconds()
	if p.kind.CountsAsks() {
		p.countTo = p.end
	}
}

// spent is what a schedule's sums spend of the budget.
func (p *problem) spent(s sums, asks float64) float64 {
	if p.kind.CountsAsks() {
		return asks
	}
	return s.requests
}

// mults turns a search multiplier into (λ, μ).
func (p *problem) mults(m float64) (lambda, mu float64) {
	if p.kind.CountsAsks() {
		return 0, m
	}
	return m, 0
}

// optimise runs solve at the budget's price, or searches for the
// multiplier that spends the budget.
func (p *problem) optimise(run func(m float64) trial) (trial, error) {
	if p.kind == BudgetPrice {
		t := run(p.opt.Budget.Price)
		if !t.ok {
			return t, infeasible("no schedule meets the interval limits", "widen them", "MinInterval", "MaxInterval")
		}
		return t, nil
	}
	t, err := search(p.opt.ctx, run, p.opt.Budget.limit())
	if err == nil && !t.ok {
		err = infeasible("no schedule fits the budget", "raise it", "Budget")
	}
	return t, err
}
