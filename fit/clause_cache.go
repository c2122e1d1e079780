package fit

import (
	"slices"
	"time"
)

// clauseCache keeps one clause set across the fits of a shape's graft.
// Its rounds fit the same cut law at budgets that differ only by the
// shape's share, and a set walked to a larger spend holds every clause
// of one walked to a smaller: the walk of a clause stops only once the
// clause alone spends more than the limit, so the clauses the larger
// walk adds each spend more than the smaller budget alone, and no
// schedule within that budget can use one (solveWithin never extends a
// cell by a clause that passes its budget). The schedules are the same
// as with a set walked anew each round; the walk is made once.
//
// It is not safe for concurrent use: a graft's rounds run in turn.
type clauseCache struct {
	// bound is the least spend the cache walks to: the most a round of
	// the graft is expected to spend (a round that asks for more walks
	// again, to that).
	bound float64
	key   clauseKey
	marks []time.Duration
	spend float64 // what sg was walked to; 0: without a limit
	sg    *clauseSet
}

// clauseKey is what a clause set depends on besides its spend and its
// landmarks.
type clauseKey struct {
	l              law
	kind           BudgetKind
	first, horizon time.Duration
	forever, any   bool
	minGap, maxGap time.Duration
	countTo        float64
}

// newClauses is newClauseSet for p, from p.opt.clauses when it holds a
// set of the same law and settings walked at least as far.
func (p *problem) newClauses(first, minGap, maxGap time.Duration) *clauseSet {
	spend := p.spendLimit()
	c := p.opt.clauses
	if c == nil {
		return newClauseSet(p.l, first, p.horizon, p.forever, p.opt.AnyValues, p.opt.Landmarks, minGap, maxGap, p.countTo, spend)
	}
	k := clauseKey{p.l, p.kind, first, p.horizon, p.forever, p.opt.AnyValues, minGap, maxGap, p.countTo}
	if c.sg != nil && c.key == k && slices.Equal(c.marks, p.opt.Landmarks) && walkedFor(c.spend, spend) {
		c.sg.askPrice = 0
		return c.sg
	}
	walk := spend
	if spend > 0 {
		walk = max(spend, c.bound)
	}
	sg := newClauseSet(p.l, first, p.horizon, p.forever, p.opt.AnyValues, p.opt.Landmarks, minGap, maxGap, p.countTo, walk)
	if c.sg != nil {
		sg.stuckK = c.sg.stuckK // the stuck cap's search may start anywhere (stuckBracket)
	}
	c.sg, c.key, c.marks, c.spend = sg, k, slices.Clone(p.opt.Landmarks), walk
	return c.sg
}

// walkedFor reports whether a set walked to have serves a fit that
// spends at most want: a set walked without a limit (0) serves
// every fit, one walked to a limit a fit within it.
func walkedFor(have, want float64) bool {
	if have == 0 || want == 0 {
		return have == 0
	}
	return want <= have
}
