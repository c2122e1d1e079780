package fit

import (
	"math"
	"slices"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Shapes. WithDeadlines and WithBatches add asks that the clauses of
// constant interval cannot place well (a burst just after a timeout,
// asks just after each wall-clock batch run) and make them pay for
// themselves: the age-based part is fitted again, at what the budget
// leaves once the shape has spent its share, to the items with every
// answer the shape will see cut short at its age (those items still cost
// the asks before their answer, but the age-based part need not chase
// them). The shape is kept only when, replayed on the items at the
// budget, it sees at least as many answers at a lower mean lag.

// Shape is the outcome of trying a shape on a fitted schedule.
type Shape struct {
	// Schedule is the shaped schedule when it paid, else the plain one.
	Schedule *schedule.Schedule
	// Paid reports whether the shape was kept.
	Paid bool
	// Plain and Shaped are the plain schedule and the best shaped one
	// tried, replayed on the items given, at the fit's horizon. Shaped is
	// the zero Metrics when no shape could be tried.
	Plain, Shaped Metrics
	// tried is the schedule Shaped measures when the shape did not pay
	// (when it paid, Shaped measures Schedule).
	tried *schedule.Schedule
}

// graftRounds is how many times graft fits the age-based part again,
// moving its budget by what the last graft over- or under-spent.
const graftRounds = 4

// shaper tries shapes on one fit.
type shaper struct {
	smp     Sample
	res     *Result
	opt     Options
	horizon time.Duration
	plain   Metrics
}

func newShaper(smp Sample, res *Result, opt Options) (*shaper, error) {
	if err := smp.check(); err != nil {
		return nil, err
	}
	sh := &shaper{smp: smp, res: res, opt: opt, horizon: res.Horizon}
	var err error
	sh.plain, err = sh.replay(res.Schedule)
	return sh, err
}

// replay measures s on the items. A schedule that never stops is
// measured as it runs, to its first ask at or after the last answer
// (Replay's default), as the quantiser costs it.
//
// The search compares the schedules it tries by their requests, answers
// seen and mean lag alone, so these replays keep no lags to sort (their
// percentiles are NaN: ReplayOptions.meanOnly); complete measures the
// plain and the shaped schedule in full.
func (sh *shaper) replay(s *schedule.Schedule) (Metrics, error) {
	return sh.measure(s, true)
}

// measure is s replayed on the items as replay says, in full unless
// meanOnly is set.
func (sh *shaper) measure(s *schedule.Schedule, meanOnly bool) (Metrics, error) {
	h := sh.horizon
	if !s.Stops() && sh.opt.Horizon == 0 {
		h = 0
	}
	return sh.opt.laws.replay(s, sh.smp, h, meanOnly)
}

// complete replaces the mean-only replays of out (see replay) with full
// ones: the plain schedule plain, and the shaped one it kept or tried.
func (sh *shaper) complete(out Shape, plain *schedule.Schedule) (Shape, error) {
	var err error
	if out.Plain, err = sh.measure(plain, false); err != nil {
		return out, err
	}
	shaped := out.tried
	if out.Paid {
		shaped = out.Schedule
	}
	if shaped != nil {
		out.Shaped, err = sh.measure(shaped, false)
	}
	return out, err
}

// spent is what s spends of the budget on the items, and the cap (0 at
// a price).
func (sh *shaper) spent(s *schedule.Schedule, m Metrics) (spent, limit float64) {
	b := sh.opt.Budget
	switch b.Kind() {
	case BudgetAsksBy:
		return AsksBy(s, b.AsksByAge), b.limit()
	case BudgetMaxAttempts:
		return AsksBy(s, sh.horizon), b.limit()
	}
	return m.RequestsPerItem, b.limit()
}

// score is the figure a shape must lower: the mean lag, plus the price
// times the requests at a price.
func (sh *shaper) score(m Metrics) float64 {
	x := m.Lag.Mean
	if p := sh.opt.Budget.Price; p > 0 {
		x += p * m.RequestsPerItem
	}
	if math.IsNaN(x) {
		return math.Inf(1)
	}
	return x
}

// better reports whether shaped beats the plain schedule: as many answers
// seen, within the budget (or no more than the plain schedule spends),
// at a lower score.
func (sh *shaper) better(s *schedule.Schedule, m Metrics) bool {
	spent, limit := sh.spent(s, m)
	ps, _ := sh.spent(sh.res.Schedule, sh.plain)
	within := limit == 0 || spent <= max(limit, ps)*(1+1e-9)
	return within && m.Detected >= sh.plain.Detected && sh.score(m) < sh.score(sh.plain)
}

// graft fits the age-based part to the items with the answers the shape
// sees cut short (pending at their age), at the budget less the shape's
// share, joins the shape on and returns the best joined schedule within
// the budget on the items, or nil. The cut's law is made once for all
// the rounds, and taken from the study's cache under key when key is
// not nil (seen must then be what key says).
func (sh *shaper) graft(key *lawKey, seen func(estimate.Item) bool, join func(*schedule.Schedule) (*schedule.Schedule, error)) (*schedule.Schedule, Metrics, error) {
	var cut *itemLaw
	cutLaw := func() *itemLaw {
		if cut == nil {
			mk := func() Sample { return cutSample(sh.smp, seen) }
			if key != nil {
				cut = sh.opt.laws.law(sh.smp, *key, mk)
			} else {
				cut = newSampleLaw(mk())
			}
		}
		return cut
	}
	// The best within the stuck cap, else the best over it (which Study
	// then leaves out, saying so).
	var best, over *schedule.Schedule
	var bestM, overM Metrics
	keep := func(s *schedule.Schedule) (float64, error) {
		m, err := sh.replay(s)
		if err != nil {
			return 0, err
		}
		spent, limit := sh.spent(s, m)
		switch {
		case limit != 0 && spent > limit*(1+1e-9):
		case !sh.withinCap(s):
			if over == nil || sh.score(m) < sh.score(overM) {
				over, overM = s, m
			}
		case best == nil || sh.score(m) < sh.score(bestM):
			best, bestM = s, m
		}
		return spent - limit, nil
	}
	// The shape on the plain schedule says what it costs.
	first, err := join(sh.res.Schedule)
	if err != nil {
		return nil, Metrics{}, err
	}
	spill, err := keep(first)
	if err != nil {
		return nil, Metrics{}, err
	}
	_, limit := sh.spent(first, Metrics{})
	if limit == 0 {
		spill = 0 // a price needs no share
	}
	share := max(spill, 0)
	asks := sh.shapeAsks(first) // the age-based part leaves them room under the stuck cap
	clauses := &clauseCache{bound: limit}
	for range graftRounds {
		o, ok := sh.budgetLess(share, asks)
		if !ok {
			break
		}
		o.partOnly, o.clauses = true, clauses
		rest, err := fitLaw(cutLaw(), o)
		if err != nil {
			break // nothing fits what is left
		}
		s, err := join(rest.Schedule)
		if err != nil {
			return nil, Metrics{}, err
		}
		if spill, err = keep(s); err != nil {
			return nil, Metrics{}, err
		}
		if limit == 0 || math.Abs(spill) < 1e-3*limit {
			break
		}
		share = max(share+spill, 0)
	}
	if best == nil {
		return over, overM, nil
	}
	return best, bestM, nil
}

// budgetLess is the fit's options with share taken off the budget and
// the shape's asks to a stuck item off the stuck cap (so that the
// age-based part and the shape together keep it), at the plain fit's
// horizon; ok is false when nothing is left.
func (sh *shaper) budgetLess(share, asks float64) (Options, bool) {
	o := sh.opt
	if o.Horizon == 0 && o.Budget.Kind() != BudgetAsksBy && !sh.forever() {
		o.Horizon = sh.horizon
	}
	if o.StuckAsks > 0 && asks > 0 {
		if o.StuckAsks -= int(math.Ceil(asks - 1e-9)); o.StuckAsks < 1 {
			return o, false
		}
	}
	b := &o.Budget
	switch b.Kind() {
	case BudgetAsksBy:
		b.AsksBy -= int(math.Ceil(share - 1e-9))
		return o, b.AsksBy >= 1
	case BudgetMaxAttempts:
		b.MaxAttempts -= int(math.Ceil(share - 1e-9))
		return o, b.MaxAttempts >= 2
	case BudgetRequests:
		b.RequestsPerItem -= share
		return o, b.RequestsPerItem >= 1
	}
	return o, true
}

// shapeAsks is what the shape adds to the asks a stuck item gets by the
// horizon, joined on the plain schedule as joined (0 without a cap or a
// horizon).
func (sh *shaper) shapeAsks(joined *schedule.Schedule) float64 {
	if sh.opt.StuckAsks <= 0 || sh.horizon <= 0 {
		return 0
	}
	return max(AsksBy(joined, sh.horizon)-AsksBy(sh.res.Schedule, sh.horizon), 0)
}

// withinCap reports whether s asks a stuck item no more often by the
// horizon than the stuck cap allows (always, without a cap or a
// horizon), as Study keeps a shape only then.
func (sh *shaper) withinCap(s *schedule.Schedule) bool {
	return sh.opt.StuckAsks <= 0 || sh.horizon <= 0 || AsksBy(s, sh.horizon) <= float64(sh.opt.StuckAsks)+1e-9
}

// forever reports whether the plain schedule never stops.
func (sh *shaper) forever() bool { return !sh.res.Schedule.Stops() }

// addCandidate appends the asks c (duplicates removed) to the candidate
// bursts or offsets in out, unless out has them already.
func addCandidate(out [][]time.Duration, c []time.Duration) [][]time.Duration {
	c = slices.Compact(c)
	for _, o := range out {
		if slices.Equal(o, c) {
			return out
		}
	}
	return append(out, c)
}

// grafted is one candidate shape's graft: the joined schedule (nil when
// none fitted) and it replayed.
type grafted struct {
	s *schedule.Schedule
	m Metrics
}

// graftAll runs the grafts of n candidate shapes at once, as leaves
// (each reads the shaper and fits a copy of the items of its own), and
// returns them in order, or the first candidate's error by order: what
// a loop over them in order would find.
func (sh *shaper) graftAll(n int, graft func(i int) (*schedule.Schedule, Metrics, error)) ([]grafted, error) {
	out := make([]grafted, n)
	err := parallel(n, func(i int) error {
		var err error
		leaf(func() {
			var s *schedule.Schedule
			var m Metrics
			s, m, err = graft(i)
			out[i] = grafted{s, m}
		})
		return err
	})
	return out, err
}
