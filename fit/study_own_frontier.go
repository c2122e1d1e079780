package fit

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// The report's frontier. pollfit report draws the frontier of the fit
// it reports, not a second study: with StudyOptions.Frontier, Study fits
// the budgets of ReportBudgets beside its own fit (the same split,
// give-up age, shapes found; the stuck cap and smoothing as Study
// chooses them at each budget) while it fits, measures and compares, so
// that the report costs the fit plus a few fits, on the cores the fit
// leaves idle, and the drawing.
//
// The rule: ReportFrontierSteps budgets spaced geometrically from
// ReportFrontierFrom to ReportFrontierTo requests per item (1.5, 2.59,
// 4.48, 7.75, 13.4, 23.1, 40: a factor of 1.73 a step, so that the knee's
// finite differences span a step of the curve, not its noise), and the
// fit's own requests budget, in place of the grid budget within a
// quarter of a step of it (a point that close to another would make the
// gain between them the held-out noise). The fit's own point is its own
// fit, measured as Fitted, under its own stuck cap; every other point is
// what pollfit fit ships with the same flags at that budget
// (--requests-per-item B).
const (
	ReportFrontierFrom  = 1.5
	ReportFrontierTo    = 40
	ReportFrontierSteps = 7
)

// ReportBudgets are the budgets of the report's frontier for a study of
// budget own (see ReportFrontierSteps), sorted: the grid and, for a
// requests budget, own's.
func ReportBudgets(own Budget) []float64 {
	grid := FrontierBudgets(ReportFrontierFrom, ReportFrontierTo, ReportFrontierSteps)
	b, ok := ownBudget(own)
	if !ok {
		return grid
	}
	near := math.Log(ReportFrontierTo/ReportFrontierFrom) / float64(ReportFrontierSteps-1) / 4
	out := []float64{b}
	for _, g := range grid {
		if math.Abs(math.Log(g/b)) >= near {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return out
}

// ownBudget is a requests budget's requests per item; ok is false for
// another kind.
func ownBudget(b Budget) (float64, bool) {
	r := b.RequestsPerItem
	return r, b.Kind() == BudgetRequests && r > 0 && !math.IsInf(r, 0)
}

// frontierRun is the report's frontier running beside the study; the
// zero value runs none.
type frontierRun struct {
	st      *study
	cancel  context.CancelFunc
	done    chan struct{}
	budgets []float64 // sorted, the study's own left out
	fam     *frontierFamilies
	pts     []FrontierPoint // at budgets
	err     error
}

// startFrontier starts the report's frontier (StudyOptions.Frontier) on
// its own goroutine once the budget and stuck cap are fixed, before the
// main fit, which its points do not need: it works on a copy of the
// study as it is then and of the shapes as the estimators found them,
// which the rest of the study does not change, and tells Progress
// nothing (it is not the calling goroutine). The study's own point waits
// for the main fit (wait). An asks-by study's points are fitted to its
// give-up age.
func (st *study) startFrontier() *frontierRun {
	if !st.opt.Frontier {
		return &frontierRun{}
	}
	ctx, cancel := context.WithCancel(st.ctx)
	c := *st
	res := *st.res
	c.ctx, c.res, c.opt.Progress = ctx, &res, nil
	if res.Budget.Kind() == BudgetAsksBy && !res.Never {
		c.horizon = res.GiveUp.Age // a requests fit gives up where the study does
	}
	f := &frontierRun{st: st, cancel: cancel, done: make(chan struct{})}
	own, hasOwn := ownBudget(res.Budget)
	for _, b := range ReportBudgets(res.Budget) {
		if !hasOwn || b != own {
			f.budgets = append(f.budgets, b)
		}
	}
	go func() {
		defer close(f.done)
		if st.shapes != nil {
			<-st.shapes
			found := *st.found // never written once found
			c.res.Shapes = &found
		}
		f.fam, f.pts, f.err = c.frontierAt(f.budgets)
	}()
	return f
}

// wait is the frontier's points once done, with the study's own, after
// its main fit; from the study's goroutine.
func (f *frontierRun) wait() ([]FrontierPoint, error) {
	if f.done == nil {
		return nil, nil
	}
	select {
	case <-f.done:
	default:
		f.st.stage("the frontier")
		<-f.done
	}
	if f.err != nil {
		return nil, fmt.Errorf("frontier: %w", f.err)
	}
	out := f.pts
	if _, ok := ownBudget(f.st.res.Budget); ok {
		p, err := f.st.ownPoint(f.fam)
		if err != nil {
			return nil, fmt.Errorf("frontier: %w", err)
		}
		out = append(out, p)
		slices.SortStableFunc(out, func(a, b FrontierPoint) int { return cmpFloat(a.RequestsPerItem, b.RequestsPerItem) })
	}
	bestFamilies(out)
	markKnee(out)
	return out, nil
}

// stop stops the frontier, if still running, and waits for it.
func (f *frontierRun) stop() {
	if f.done != nil {
		f.cancel()
		<-f.done
	}
}

// frontierAt is the families and the points at budgets (sorted, once
// each) of the fits st makes: each budget fitted on a copy of st
// (beside).
func (st *study) frontierAt(budgets []float64) (*frontierFamilies, []FrontierPoint, error) {
	fam, err := st.families()
	if err == nil {
		err = st.stopped("families")
	}
	if err != nil {
		return nil, nil, err
	}
	out := make([]FrontierPoint, len(budgets))
	sts := make([]*study, len(budgets))
	err = parallelFrom(len(budgets), func(i int) {
		sts[i] = st.beside()
	}, func(i int) (err error) {
		out[i], err = sts[i].frontierPoint(budgets[i], fam)
		return err
	})
	return fam, out, err
}

// ownPoint is the frontier point of the study's own fit at its own
// requests budget and stuck cap, measured as Fitted.
func (st *study) ownPoint(fam *frontierFamilies) (FrontierPoint, error) {
	r := st.res
	fp := FrontierPoint{RequestsPerItem: r.Budget.RequestsPerItem, Fitted: r.Fitted.prediction(), Schedule: r.Schedule.String(), Clauses: st.clauses(r.Fit)}
	st.limitAndFamilies(&fp, r.Schedule, r.StuckCap, fam)
	return fp, st.stopped(fmt.Sprintf("frontier at %g requests per item", fp.RequestsPerItem))
}
