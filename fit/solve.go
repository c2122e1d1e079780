package fit

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// run fits the exact optimum, the quantised schedule and the continuous
// rate.
func (p *problem) run() (*Result, error) {
	if err := stopped(p.opt.ctx, "fit"); err != nil {
		return nil, err
	}
	if p.first >= p.end {
		return nil, fmt.Errorf("the horizon (%gs) is not after the first ask (%gs): nothing to fit", p.end, p.first)
	}
	var opt Solution
	if p.solvesOptimum() {
		var err error
		if opt, _, err = p.exact(); err != nil {
			return nil, err
		}
	}
	res := &Result{Optimum: opt, Horizon: p.horizon}
	if p.opt.Exact {
		if !p.withinStuck(len(opt.Asks)) {
			return nil, infeasible(fmt.Sprintf("the exact optimum asks an item that never answers %d times by %s, over the stuck cap of %d", len(opt.Asks), schedule.FormatDuration(p.horizon), p.opt.StuckAsks),
				"raise StuckAsks, or fit Clauses rather than the exact ask ages", "StuckAsks", "Clauses")
		}
		res.Schedule = atSchedule(opt.Asks)
	} else {
		s, m, err := p.quantised()
		if err != nil {
			return nil, err
		}
		res.Schedule, res.Multiplier, res.capped = p.polish(s), m, p.capped
		if err := stopped(p.opt.ctx, "fit: polish"); err != nil {
			return nil, err
		}
		if p.fewAsks(opt, res.Schedule) {
			res.Schedule = p.better(res.Schedule, p.niceAt())
		}
		for _, c := range p.opt.Consider {
			if c.Validate() == nil && len(c.Aligned) == 0 && !c.ResetOnSignal && p.seesAll(c) {
				res.Schedule = p.better(res.Schedule, c)
			}
		}
	}
	asks, err := res.Schedule.Timeline().Asks(p.horizon)
	if err != nil {
		return nil, err
	}
	res.Fitted = predict(p.l, seconds(asks))
	if p.dens != nil && !p.opt.noRate {
		c, err := p.continuous()
		if err == nil {
			res.Continuous = &c
		}
	}
	return res, nil
}

func seconds(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = d.Seconds()
	}
	return out
}

// atSchedule writes ask ages as one "at" clause in whole milliseconds.
func atSchedule(asks []float64) *schedule.Schedule {
	var at []time.Duration
	for _, a := range asks {
		d := time.Duration(math.Round(a*1e3)) * time.Millisecond
		if len(at) == 0 || d > at[len(at)-1] {
			at = append(at, d)
		}
	}
	return &schedule.Schedule{Clauses: []schedule.Clause{{At: at}}}
}

// exact is the exact discrete optimum: the dynamic programme over the
// candidate ages at the budget, then again over candidates zoomed in
// around the asks found (the neighbouring gaps cut in 8, 16, 32, 64 parts,
// plus a thinned copy of the first candidates so the number of asks may
// still change), and for a smooth density at a price or a count of asks a
// final polish off the grid. It also returns the multiplier the last
// programme was solved at.
func (p *problem) exact() (Solution, float64, error) {
	cands := candidates(p.l, p.first, p.end, p.opt.Candidates)
	if p.maxGap > 0 && (p.end-p.first)/p.maxGap < 100_000 {
		// Candidates closer than the longest gap, so a schedule exists.
		for x := p.first; x < p.end; x += p.maxGap / 2 {
			cands = append(cands, x)
		}
		slices.Sort(cands)
		cands = slices.Compact(cands)
	}
	var t trial
	for round := 0; round < 4; round++ {
		run := p.gridTrials(newGrid(p.l, p.opt.Objective, cands, p.minGap, p.maxGap, p.countTo))
		var err error
		if t, err = p.optimise(run); err != nil {
			return Solution{}, 0, err
		}
		cands = zoom(t.sol.([]float64), cands, 0.5/math.Exp2(float64(round)))
	}
	asks := t.sol.([]float64)
	if p.dens != nil && p.kind != BudgetRequests {
		lambda, _ := p.mults(t.mult)
		asks = refine(p.l, p.opt.Objective, asks, lambda, p.minGap, p.maxGap)
	}
	return Solution{Asks: asks, Prediction: predict(p.l, asks)}, t.mult, nil
}

// zoom returns candidates around asks: 9 points across ±width of the
// gap on each side of every ask, and every 4th of the old candidates.
func zoom(asks, old []float64, width float64) []float64 {
	var out []float64
	for k := 0; k < len(old); k += 4 {
		out = append(out, old[k])
	}
	out = append(out, old[len(old)-1])
	n := len(asks)
	for j, a := range asks {
		out = append(out, a)
		if j > 0 {
			gap := a - asks[j-1]
			for k := 1; k <= 4; k++ {
				out = append(out, a-gap*width*float64(k)/4)
			}
		}
		if j+1 < n {
			gap := asks[j+1] - a
			for k := 1; k <= 4; k++ {
				out = append(out, a+gap*width*float64(k)/4)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// maxNiceAt is the most asks for which a list of nice ask ages ("at 10s
// 30m 3h ...") is tried besides the clauses of constant interval: retry
// schedules with a handful of attempts read better that way.
const maxNiceAt = 12

// niceAt is the best "at" schedule whose ages are nice values, or nil.
func (p *problem) niceAt() *schedule.Schedule {
	ds, bs := niceSets(p.opt.AnyValues)
	bs = append(bs, p.opt.Landmarks...)
	cands := []float64{p.first, p.end}
	for _, d := range append(ds, bs...) {
		if x := d.Seconds(); x > p.first && x < p.end {
			cands = append(cands, x)
		}
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	run := p.gridTrials(newGrid(p.l, p.opt.Objective, cands, p.minGap, p.maxGap, p.countTo))
	t, err := p.optimise(run)
	if err != nil {
		return nil
	}
	return atSchedule(t.sol.([]float64))
}

// better returns whichever of a and b has the lower objective within the
// budget (a when b is nil or over it); at a price, the lower priced cost.
func (p *problem) better(a, b *schedule.Schedule) *schedule.Schedule {
	if b == nil {
		return a
	}
	sa, oka := p.score(a)
	sb, okb := p.score(b)
	if okb && (!oka || sb < sa) {
		return b
	}
	return a
}

// score is s's objective on the law up to the horizon (plus the price
// times the requests at a price), and whether s keeps within the budget
// and the stuck cap.
func (p *problem) score(s *schedule.Schedule) (float64, bool) {
	asks, err := s.Timeline().Asks(p.horizon)
	if err != nil || len(asks) == 0 {
		return 0, false
	}
	sec := seconds(asks)
	sm := evaluate(p.l, sec)
	if p.kind == BudgetPrice {
		return sm.objective(p.opt.Objective) + p.opt.Budget.Price*sm.requests, p.withinStuck(len(sec))
	}
	return sm.objective(p.opt.Objective), p.spent(sm, countTo(sec, p.countTo)) <= p.opt.Budget.limit()*(1+1e-12) && p.withinStuck(len(sec))
}

// seesAll reports whether s asks at the horizon (or, never stopping,
// after it), so that it sees every answer the fit counts.
func (p *problem) seesAll(s *schedule.Schedule) bool {
	if end, ok := s.End(); ok {
		return end == p.horizon
	}
	return p.forever
}

// spendLimit is the most a schedule may spend (0 at a price).
func (p *problem) spendLimit() float64 {
	if p.kind == BudgetPrice {
		return 0
	}
	return p.opt.Budget.limit()
}

// countTo counts the asks at ages ≤ to.
func countTo(asks []float64, to float64) float64 {
	n := 0
	for _, a := range asks {
		if a <= to {
			n++
		}
	}
	return float64(n)
}

// continuous is the continuous-rate schedule at the budget.
func (p *problem) continuous() (Solution, error) {
	perItem := !p.kind.CountsAsks()
	power := 0.5
	if p.opt.Objective == RMS {
		power = 1.0 / 3
	}
	run := func(m float64) trial {
		asks := rateAsks(p.dens, p.l, p.opt.Objective, perItem, math.Pow(m, -power), p.first, p.end, p.minGap, p.maxGap)
		s := evaluate(p.l, asks)
		return trial{mult: m, ok: true, spent: p.spent(s, countTo(asks, p.countTo)), objective: s.objective(p.opt.Objective), sol: asks}
	}
	t, err := p.optimise(run)
	if err != nil {
		return Solution{}, err
	}
	asks := t.sol.([]float64)
	return Solution{Asks: asks, Prediction: predict(p.l, asks)}, nil
}

// gridTrials solves the shortest-path programme on g at a search
// multiplier and costs the asks it finds.
func (p *problem) gridTrials(g *grid) func(m float64) trial {
	return func(m float64) trial {
		lambda, mu := p.mults(m)
		path := g.solve(lambda, mu)
		if path == nil {
			return trial{mult: m}
		}
		asks := g.ages(path)
		s := evaluate(p.l, asks)
		return trial{mult: m, ok: true, spent: p.spent(s, countTo(asks, p.countTo)), objective: s.objective(p.opt.Objective), sol: asks}
	}
}

// solvesOptimum reports whether run solves the exact optimum: always
// but for a shape's part (Options.partOnly), which ships a schedule of
// clauses and has no use for it.
func (p *problem) solvesOptimum() bool { return !p.opt.partOnly || p.opt.Exact }

// fewAsks reports whether a list of nice ask ages is worth trying: the
// exact optimum asks at most maxNiceAt times or, fitting only a shape's
// part (no optimum), the quantised schedule s does by the horizon.
func (p *problem) fewAsks(opt Solution, s *schedule.Schedule) bool {
	if p.solvesOptimum() {
		return len(opt.Asks) <= maxNiceAt
	}
	asks, err := s.Timeline().Asks(p.horizon)
	return err == nil && len(asks) <= maxNiceAt
}
