package fit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// StudyFrontier sweeps requests-per-item budgets through Study's
// pipeline: at each budget B the schedule is the one Study ships at B
// (same hold-out split, give-up age, stuck cap, smoothing and shapes),
// measured on the held-out items; Optimum is the limit there at B; and
// the families (fixed interval, exponential backoff ×2 with and without
// full jitter) take their best parameter within B and the stuck cap,
// measured on the same items to the same give-up age. The baselines
// (opt.Baselines) are returned measured as Study measures them. Give a
// sample (with its held-out part when split already, as Study takes
// them), or a model (smp empty, heldOut nil). It stops soon after ctx is
// done, with ctx's error wrapped.
func StudyFrontier(ctx context.Context, smp Sample, heldOut *HeldOut, model Distribution, opt StudyOptions, budgets []float64) ([]FrontierPoint, []Row, error) {
	if len(budgets) == 0 {
		return nil, nil, errors.New("no budgets")
	}
	opt.Budget = Budget{RequestsPerItem: slices.Max(budgets)}
	st, err := newStudy(ctx, smp, heldOut, model, opt)
	if err != nil {
		return nil, nil, err
	}
	if err := st.giveUp(); err != nil {
		return nil, nil, err
	}
	st.res.Budget = opt.Budget
	fam, err := st.families()
	if err == nil {
		err = st.stopped("frontier: families")
	}
	if err != nil {
		return nil, nil, err
	}
	sorted := slices.Clone(budgets)
	slices.Sort(sorted)
	// The budgets are independent fits: each on a copy of the study
	// (beside), at once.
	out := make([]FrontierPoint, len(sorted))
	sts := make([]*study, len(sorted))
	err = parallelFrom(len(sorted), func(i int) {
		st.stage(fmt.Sprintf("budget %d of %d", i+1, len(sorted)))
		sts[i] = st.beside()
	}, func(i int) (err error) {
		out[i], err = sts[i].frontierPoint(sorted[i], fam)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	bestFamilies(out)
	markKnee(out)
	var rows []Row
	for _, bl := range opt.Baselines {
		r, err := st.measure(bl.Name, bl.Schedule)
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, r)
	}
	return out, rows, nil
}

// The default budgets of a frontier: DefaultFrontierSteps budgets from
// DefaultFrontierFrom to DefaultFrontierTo requests per item (see
// FrontierBudgets), pollfit frontier's table and the report's picture
// alike, so that both find the same knee.
const (
	DefaultFrontierFrom  = 2
	DefaultFrontierTo    = 40
	DefaultFrontierSteps = 20
)

// FrontierBudgets are steps budgets from from to to requests per item,
// spaced geometrically (from alone when steps is 1).
func FrontierBudgets(from, to float64, steps int) []float64 {
	out := make([]float64, steps)
	for i := range out {
		out[i] = from
		if steps > 1 {
			out[i] = from * math.Pow(to/from, float64(i)/float64(steps-1))
		}
	}
	return out
}

// bestFamilies makes each family's point at a budget its best within
// that budget or less, out sorted by budget: a family's best within b is
// at least as good as within less.
func bestFamilies(out []FrontierPoint) {
	var best [3]Prediction
	for k := range best {
		best[k] = nanPrediction()
	}
	for i := range out {
		for k, pr := range []*Prediction{&out[i].Fixed, &out[i].Backoff, &out[i].Jitter} {
			if math.IsNaN(pr.Lag.Mean) || (!math.IsNaN(best[k].Lag.Mean) && best[k].Lag.Mean < pr.Lag.Mean) {
				*pr = best[k]
			}
			best[k] = *pr
		}
	}
}

// frontierPoint is one budget of a frontier, fitted on st (a copy made
// by beside) as Study fits at that budget alone.
func (st *study) frontierPoint(b float64, fam *frontierFamilies) (FrontierPoint, error) {
	fp := FrontierPoint{RequestsPerItem: b}
	budget := Budget{RequestsPerItem: b}
	st.res.Budget, st.res.BudgetFrom, st.res.Fit = budget, "", nil
	st.point = true
	if err := st.stuckCap(); err != nil {
		return fp, err
	}
	cap := st.res.StuckCap
	ships := st.smoothingShips()
	st.smoothed = !ships // else chosen again at b
	if !ships {
		st.res.Density = nil // the smoothed optimum shapes nothing shipped: not fitted
	}
	res, err := st.fit(budget, cap)
	if err := st.stopped(fmt.Sprintf("frontier at %g requests per item", b)); err != nil {
		return fp, err
	}
	var fitted *schedule.Schedule
	if err != nil {
		fp.Fitted, fp.Limit = nanPrediction(), nanPrediction()
	} else {
		row, err := st.measure("fitted", res.Schedule)
		if err != nil {
			return fp, err
		}
		fp.Fitted, fp.Schedule, fitted = row.prediction(), res.Schedule.String(), res.Schedule
		fp.Clauses = st.clauses(res)
	}
	st.limitAndFamilies(&fp, fitted, cap, fam)
	return fp, nil
}

// limitAndFamilies sets a frontier point's limit, its label and the
// families' best, at its budget within the stuck cap; fitted is the
// schedule fitted there (nil when none fits).
func (st *study) limitAndFamilies(fp *FrontierPoint, fitted *schedule.Schedule, cap int, fam *frontierFamilies) {
	b := fp.RequestsPerItem
	scheds := []*schedule.Schedule{}
	if fitted != nil {
		scheds = append(scheds, fitted)
	}
	for _, bl := range st.opt.Baselines {
		scheds = append(scheds, bl.Schedule)
	}
	first, free := fam.p.first, false
	for _, bl := range st.opt.Baselines {
		if a, ok := bl.Schedule.Timeline().Next(0); !ok || a != st.opt.FirstAsk {
			first, free = 0, true
		}
	}
	fp.Limit = nanPrediction()
	bound := false
	if st.opt.NoLimit == "" {
		var lim mixed
		var err error
		if lim, bound, err = hindsightWithin(fam.hull(first, free, st.opt.Objective), b, cap); err == nil {
			fp.Limit = lim.prediction()
			fp.Limit.RequestsPerItem = b
		}
	}
	fp.LimitName = LimitLabel(BudgetRequests, bound, scheds...)
	fp.Fixed, fp.FixedInterval = fam.fixed.within(b, cap, st.opt.Seed, true)
	fp.Backoff, fp.BackoffBase = fam.backoff.within(b, cap, st.opt.Seed, true)
	fp.Jitter, fp.JitterBase = fam.jitter.within(b, cap, st.opt.Seed, false)
}

// prediction is a row as a Prediction.
func (r Row) prediction() Prediction {
	return Prediction{Lag: r.Lag, RMSLag: math.NaN(), RequestsPerItem: r.RequestsPerItem, Detected: float64(r.Detected) / math.Max(float64(r.Items), 1), Asks: int(math.Round(r.Stuck))}
}

// frontierFamilies are the one-parameter families on the held-out items.
type frontierFamilies struct {
	p                      *problem
	cands                  []float64
	fixed, backoff, jitter *family
	// hulls are the limit's programmes on the held-out items, which
	// every budget's limit shares (see limitHull).
	hulls onceMap[hullKey, *limitHull]
}

// hullKey is a limit's programme: where its schedules ask first (free:
// anywhere from first) and what they minimise.
type hullKey struct {
	first float64
	free  bool
	obj   Objective
}

// hull is the limit's programme on the held-out items, made once.
func (f *frontierFamilies) hull(first float64, free bool, obj Objective) *limitHull {
	return f.hulls.get(hullKey{first, free, obj}, func() *limitHull { return newLimitHull(f.p.l, f.cands, first, free, obj) })
}

func (st *study) families() (*frontierFamilies, error) {
	o := st.opt.Options
	o.Horizon = st.res.GiveUp.Age
	if st.res.Never {
		o.Horizon = 0
	}
	p, err := newProblem(Options{Budget: Budget{RequestsPerItem: 1}, Objective: o.Objective, Horizon: o.Horizon,
		FirstAsk: o.FirstAsk, MinInterval: o.MinInterval, MaxInterval: o.MaxInterval, ctx: st.ctx})
	if err != nil {
		return nil, err
	}
	f := &frontierFamilies{p: p}
	if st.model != nil {
		end := o.Horizon.Seconds()
		if end <= 0 {
			p.forever, end = true, tailAge(st.model, 1e-9)
		}
		p.setEnd(end)
		p.l = newDistLaw(st.model, p.end)
		f.cands = candidates(p.l, 0, p.end, 2000)
	} else {
		end := o.Horizon
		if end <= 0 {
			p.forever, end = true, LargestFinalAge(st.test.Items)
		}
		p.setEnd(end.Seconds())
		il := newSampleLaw(st.test)
		p.l = il
		f.cands, _ = itemCandidates(il, p.end)
	}
	seed := st.opt.Seed
	f.fixed = p.family(func(x float64, _ *rand.Rand) []float64 { return p.fixedAsks(x) }, 1, seed)
	f.backoff = p.family(func(x float64, _ *rand.Rand) []float64 { return p.backoffAsks(x, nil) }, 1, seed)
	f.jitter = p.family(func(x float64, r *rand.Rand) []float64 { return p.backoffAsks(x, r) }, jitterDraws, seed)
	return f, nil
}

// clauses is what res's schedule counts against the clause cap, by
// ClauseCount with the deadlines the study found and res's give-up age.
func (st *study) clauses(res *Result) int {
	if res == nil {
		return 0
	}
	var ds []estimate.Deadline
	if st.res.Shapes != nil {
		ds = st.res.Shapes.Deadlines
	}
	n, _ := ClauseCount(res.Schedule, ds, res.Horizon)
	return n
}
