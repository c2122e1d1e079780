package fit

import (
	"math"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// prefixRounds is how many times graftPrefix fits the clauses after a
// prefix again, moving their budget by what the last fit over- or
// under-spent.
const prefixRounds = 4

// graftBurst grafts burst on a fit of the items it does not see (see
// graft), or, for a burst that starts at the first ask and a budget of
// requests, as a prefix (see graftPrefix).
func (sh *shaper) graftBurst(burst []time.Duration, seen func(estimate.Item) bool) (*schedule.Schedule, Metrics, error) {
	if burst[0] <= sh.opt.FirstAsk && len(burst) > 1 && sh.opt.Budget.Kind() == BudgetRequests {
		return sh.graftPrefix(burst)
	}
	return sh.graft(nil, seen, func(rest *schedule.Schedule) (*schedule.Schedule, error) {
		return spliceAt(rest, burst)
	})
}

// graftPrefix fits the clauses after a prefix of explicit asks: from its
// last ask on, to the items still waiting there, at the requests budget
// less what the prefix's other asks cost, within the stuck cap less
// those asks. It returns the best joined schedule within the budget on
// the items, or nil.
func (sh *shaper) graftPrefix(burst []time.Duration) (*schedule.Schedule, Metrics, error) {
	last := burst[len(burst)-1]
	head := &schedule.Schedule{Clauses: []schedule.Clause{{At: burst[:len(burst)-1]}}}
	hm, err := ReplaySample(head, sh.smp, ReplayOptions{Horizon: last - 1})
	if err != nil {
		return nil, Metrics{}, err
	}
	o, ok := sh.budgetLess(hm.RequestsPerItem, 0)
	if !ok {
		return nil, Metrics{}, nil
	}
	o.FirstAsk = last
	if o.StuckAsks > 0 {
		if o.StuckAsks -= len(burst) - 1; o.StuckAsks < 1 {
			return nil, Metrics{}, nil
		}
	}
	var best *schedule.Schedule
	var bestM Metrics
	cut := newSampleLaw(cutBefore(sh.smp, last.Seconds())) // the same in every round
	o.partOnly, o.clauses = true, &clauseCache{bound: sh.opt.Budget.limit()}
	for range prefixRounds {
		rest, err := fitLaw(cut, o)
		if err != nil {
			break // nothing fits what is left
		}
		s, err := spliceAt(rest.Schedule, burst)
		if err != nil {
			return nil, Metrics{}, err
		}
		m, err := sh.replay(s)
		if err != nil {
			return nil, Metrics{}, err
		}
		spent, limit := sh.spent(s, m)
		if spent <= limit*(1+1e-9) && (best == nil || sh.score(m) < sh.score(bestM)) {
			best, bestM = s, m
		}
		if math.Abs(spent-limit) < 1e-3*limit {
			break
		}
		if o.Budget.RequestsPerItem -= spent - limit; o.Budget.RequestsPerItem < 1 {
			break
		}
	}
	return best, bestM, nil
}

// cutBefore is smp with the answers before age a cut short: pending at
// their age, so that asks from a on cost them nothing.
func cutBefore(smp Sample, a float64) Sample {
	cut := Sample{Items: make([]estimate.Item, len(smp.Items)), Weights: smp.Weights, Scale: smp.Scale}
	for i, it := range smp.Items {
		if it.Status.Final() && it.Age < a {
			it.Status = estimate.Pending
		}
		cut.Items[i] = it
	}
	return cut
}
