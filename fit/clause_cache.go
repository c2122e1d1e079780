package fit

import (
	"fmt"
	"slices"
	"sync"
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
// set of the same law and settings walked at least as far, else from
// the study's walked sets (clauseSets).
func (p *problem) newClauses(first, minGap, maxGap time.Duration) *clauseSet {
	spend := p.spendLimit()
	k := clauseKey{p.l, p.kind, first, p.horizon, p.forever, p.opt.AnyValues, minGap, maxGap, p.countTo}
	c := p.opt.clauses
	if c == nil {
		sg, _ := p.opt.laws.clauseSet(k, p.opt.Landmarks, spend)
		return sg
	}
	if c.sg != nil && c.key == k && slices.Equal(c.marks, p.opt.Landmarks) && walkedFor(c.spend, spend) {
		c.sg.askPrice = 0
		return c.sg
	}
	walk := spend
	if spend > 0 {
		walk = max(spend, c.bound)
	}
	sg, walked := p.opt.laws.clauseSet(k, p.opt.Landmarks, walk)
	if c.sg != nil {
		sg.stuckK = c.sg.stuckK // the stuck cap's search may start anywhere (stuckBracket)
	}
	c.sg, c.key, c.marks, c.spend = sg, k, slices.Clone(p.opt.Landmarks), walked
	return c.sg
}

// clauseSets are a study's clause sets, walked once for every fit of
// the same law and settings (a frontier's points, a group's curve, a
// comparison's fits and their grafts' cut laws), each kept as walked
// to the largest spend asked of it so far: a fit within that spend
// reads a view of it (see clauseCache for why its schedules are the
// same as a set walked to its own spend gives). It is safe for
// concurrent use; a set is only read once walked.
type clauseSets struct {
	mu   sync.Mutex
	sets map[clauseSetKey]walkedSet
}

// clauseSetKey is a set's key: its clauseKey and its landmarks.
type clauseSetKey struct {
	clauseKey
	marks string
}

// walkedSet is a set and the spend it was walked to (0: no limit).
type walkedSet struct {
	sg    *clauseSet
	spend float64
}

// clauseSet is a view of the set of key k and landmarks walked to at
// least spend, walked now when none is, and how far that set was
// walked; with a nil cache, a set walked to spend.
func (c *lawCache) clauseSet(k clauseKey, marks []time.Duration, spend float64) (*clauseSet, float64) {
	walk := func() *clauseSet {
		return newClauseSet(k.l, k.first, k.horizon, k.forever, k.any, marks, k.minGap, k.maxGap, k.countTo, spend)
	}
	if c == nil {
		return walk(), spend
	}
	key := clauseSetKey{k, fmt.Sprint(marks)}
	cs := &c.clauses
	cs.mu.Lock()
	w, ok := cs.sets[key]
	cs.mu.Unlock()
	if ok && walkedFor(w.spend, spend) {
		return w.sg.view(), w.spend
	}
	sg := walk()
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if w, ok := cs.sets[key]; !ok || !walkedFor(w.spend, spend) { // walked no further by another fit meanwhile
		if cs.sets == nil {
			cs.sets = map[clauseSetKey]walkedSet{}
		}
		cs.sets[key] = walkedSet{sg, spend}
	}
	return sg.view(), spend
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
