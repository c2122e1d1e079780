package fit

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// A stuck item never answers: a schedule asks it every time up to the
// horizon. That count, the stuck cost, is the second budget of a fit
// (Options.StuckAsks): a schedule that spends few requests per item on
// average can still hammer the items that never settle.

// withinStuck reports whether a schedule of n asks up to the horizon
// keeps within the stuck cap.
func (p *problem) withinStuck(n int) bool {
	return p.opt.StuckAsks <= 0 || p.kind.CountsAsks() || n <= p.opt.StuckAsks
}

// quantised is the best schedule of at most Clauses nice clauses within
// the budget and the stuck cap.
func (p *problem) quantised() (*schedule.Schedule, float64, error) {
	first := time.Duration(math.Round(p.first*1e3)) * time.Millisecond
	minGap := time.Duration(p.minGap * 1e9)
	maxGap := time.Duration(p.maxGap * 1e9)
	sg := p.newClauses(first, minGap, maxGap)
	path, mult, err := p.capStuck(sg)
	if err != nil {
		return nil, 0, err
	}
	s := sg.schedule(path)
	if err := s.Validate(); err != nil {
		return nil, 0, errors.New("quantised schedule: internal error: " + err.Error())
	}
	return s, mult, nil
}

// capStuck solves the clause programme within the budget and, when the
// cheapest schedule asks a stuck item more than the cap allows, searches
// the least price per ask (sg.askPrice) at which it no longer does,
// keeping the best schedule within both budgets found on the way: the
// first of the prices hi₀·4ᵏ that keeps the cap (stuckBracket), then a
// bisection of the last factor of 4 to 1%.
func (p *problem) capStuck(sg *clauseSet) ([]segEdge, float64, error) {
	sg.askPrice = 0
	path, mult, err := p.quantisedAt(sg)
	if err != nil || p.withinStuck(int(stuckAsks(path))) {
		return path, mult, err
	}
	p.capped = true
	var best []segEdge
	bestMult, bestObj := 0.0, math.Inf(1)
	keep := func(path []segEdge, mult float64) {
		s, _ := sg.total(path)
		obj := s.objective(p.opt.Objective)
		if p.kind == BudgetPrice {
			obj += p.opt.Budget.Price * s.requests
		}
		if obj < bestObj {
			best, bestMult, bestObj = path, mult, obj
		}
	}
	k, path, mult, ok := p.stuckBracket(sg)
	if !ok {
		return nil, 0, infeasible(fmt.Sprintf("no schedule of %d clauses asks an item that never answers at most %d times by %s within the budget", p.opt.Clauses, p.opt.StuckAsks, schedule.FormatDuration(p.horizon)),
			"raise the stuck cap (StuckAsks) or the budget, or give a shorter Horizon", "StuckAsks", "Budget", "Horizon")
	}
	keep(path, mult)
	hi := p.stuckPrice(k)
	lo := hi / 4
	for range 30 {
		mid := math.Sqrt(lo * hi)
		if path, mult, ok := p.keepsCap(sg, mid); ok {
			keep(path, mult)
			hi = mid
		} else {
			lo = mid
		}
		if hi/lo < 1.01 {
			break
		}
	}
	sg.askPrice = 0
	return best, bestMult, nil
}

// stuckPrice is the k-th price of the stuck cap's grid, 10⁻⁹ × the
// horizon (at least 1 s) × 4ᵏ, exactly (a factor of 4 scales a float
// without rounding).
func (p *problem) stuckPrice(k int) float64 {
	return math.Ldexp(1e-9*math.Max(p.end, 1), 2*k)
}

// stuckBracket is the least k whose stuckPrice keeps the cap, and the
// solution there; ok is false when none up to 10⁹ does. It starts from
// the k the last search on sg found (sg.stuckK) rather than from 0, and
// walks down or up the grid from there: a dearer ask never buys more of
// them, so the prices below the least that keeps the cap all break it,
// and the k found is the one the walk from 0 finds. The graft's rounds
// and a comparison's fits reuse a set at budgets a little apart, whose
// bracket is most often the last one's, found in two solves rather than
// the dozen from 0.
func (p *problem) stuckBracket(sg *clauseSet) (int, []segEdge, float64, bool) {
	k := sg.stuckK
	path, mult, ok := p.keepsCap(sg, p.stuckPrice(k))
	for ok && k > 0 {
		below, m, keeps := p.keepsCap(sg, p.stuckPrice(k-1))
		if !keeps {
			break
		}
		k, path, mult = k-1, below, m
	}
	for !ok {
		if k++; p.stuckPrice(k) > 1e9 {
			return 0, nil, 0, false
		}
		path, mult, ok = p.keepsCap(sg, p.stuckPrice(k))
	}
	sg.stuckK = k
	return k, path, mult, true
}

// keepsCap solves the clause programme at a price per ask and reports
// whether its schedule keeps the stuck cap.
func (p *problem) keepsCap(sg *clauseSet, price float64) ([]segEdge, float64, bool) {
	sg.askPrice = price
	path, mult, err := p.quantisedAt(sg)
	return path, mult, err == nil && stuckAsks(path) <= float64(p.opt.StuckAsks)
}

// quantisedAt solves the clause programme at sg's price per ask: at
// the budget's price, or within its requests or asks.
func (p *problem) quantisedAt(sg *clauseSet) ([]segEdge, float64, error) {
	if p.kind == BudgetPrice {
		run := func(m float64) trial {
			lambda, mu := p.mults(m)
			path := sg.solve(p.opt.Objective, p.opt.Clauses, lambda, mu)
			if path == nil {
				return trial{mult: m}
			}
			s, n := sg.total(path)
			return trial{mult: m, ok: true, spent: p.spent(s, n), objective: s.objective(p.opt.Objective), sol: path}
		}
		t, err := p.optimise(run)
		if err != nil {
			return nil, 0, fmt.Errorf("quantised schedule: %w", err)
		}
		return t.sol.([]segEdge), t.mult, nil
	}
	path := sg.solveWithin(p.opt.Objective, p.opt.Clauses, p.opt.Budget.limit(), p.kind.CountsAsks(), 1000)
	if path == nil {
		return nil, 0, infeasible(fmt.Sprintf("quantised schedule: no schedule of %d clauses of nice intervals reaches the horizon %s within the budget (a clause asks at most %d times)", p.opt.Clauses, schedule.FormatDuration(p.horizon), maxClauseAsks),
			"raise the budget or Clauses, set a shorter Horizon, or try AnyValues", "Budget", "Clauses", "Horizon", "AnyValues")
	}
	return path, 0, nil
}
