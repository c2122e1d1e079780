package fit

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// allocate sets each group's budget: a fallback's is what the shared
// schedule costs on its fitting items; the others share what is left
// (Allocate), or get the budget each with PerGroup.
func (s *GroupStudy) allocate(ctx context.Context, trains, tests []Sample, opt GroupOptions, prog *groupProgress) error {
	var total, fixed, big float64
	var idx []int
	for i := range s.Groups {
		f := &s.Groups[i]
		total += f.Items
		if !f.Fallback {
			big += f.Items
			idx = append(idx, i)
			f.Budget = s.Budget
			continue
		}
		m, err := ReplaySample(s.Shared.Schedule, trains[i], ReplayOptions{Horizon: sharedHorizon(s.Shared)})
		if err != nil {
			return fmt.Errorf("group %q: %w", f.Value, err)
		}
		f.Budget = m.RequestsPerItem
		fixed += f.Items * m.RequestsPerItem
	}
	if opt.PerGroup || len(idx) == 0 {
		return nil
	}
	left := (s.Budget*total - fixed) / big
	if left <= 0 {
		return infeasible(fmt.Sprintf("the groups under %d final answers spend the whole budget on the shared schedule", s.MinFinal), "raise Budget.RequestsPerItem or lower the minimum (MinFinal)", "Budget.RequestsPerItem", "MinFinal")
	}
	w := make([]float64, len(idx))
	segTrains, segTests, names := make([]Sample, len(idx)), make([]Sample, len(idx)), make([]string, len(idx))
	for k, i := range idx {
		segTrains[k], segTests[k], names[k] = trains[i], tests[i], s.Groups[i].Value
		w[k] = s.Groups[i].Items
	}
	done := prog.start("the values' cost curves", len(idx))
	curves, sts, err := groupCurves(ctx, segTrains, segTests, names, opt.StudyOptions, budgetGrid(left), done)
	if err != nil {
		return err
	}
	s.bases = make([]*study, len(s.Groups))
	for k, i := range idx {
		s.bases[i] = sts[k]
	}
	a, err := Allocate(curves, w, left)
	if err != nil {
		return err
	}
	s.Allocation = a
	for k, i := range idx {
		s.Groups[i].Budget = a.Costs[k]
	}
	return nil
}

// sharedHorizon is the replay horizon of a study's rows.
func sharedHorizon(r *StudyResult) time.Duration {
	if r.Never {
		return 0
	}
	return r.GiveUp.Age
}

// lagSum is the lag summed over a replay's items, per item: its mean
// lag × the share of items whose answer is seen (0 when none is).
func lagSum(m Metrics) float64 {
	if m.Detected == 0 {
		return 0
	}
	return m.Lag.Mean * m.Detected / m.Items
}

// gridStep is the ratio of one budget of a group's curve to the next.
var gridStep = math.Pow(2, 2.0/3)

// budgetGrid are the budgets a group's curve is fitted at: b itself,
// and steps of gridStep down to 1.5 requests per item and up to 4 × b.
func budgetGrid(b float64) []float64 {
	grid := []float64{b}
	for x := b / gridStep; x >= 1.5; x /= gridStep {
		grid = append(grid, x)
	}
	for x := b * gridStep; x <= 4*b*(1+1e-9); x *= gridStep {
		grid = append(grid, x)
	}
	return grid
}

// curveGroups is how many groups' curves groupCurves fits at once:
// their studies (a group's law, Kaplan–Meier estimate, densities and
// asks: about 160 bytes a row, 10 MB for 65,000) are in memory
// together. Groups of up to keptCurveRows rows in all are fitted at
// once, and their studies kept; more, curveGroups at a time, and let
// go.
func curveGroups(trains, tests []Sample) (chunk int, keep bool) {
	rows := 0
	for k := range trains {
		rows += trains[k].Len() + tests[k].Len()
	}
	if rows <= keptCurveRows {
		return len(trains), true
	}
	return max(4, 2*runtime.GOMAXPROCS(0)), false
}

var keptCurveRows = 400_000 // a var for the tests

// groupCurves fits each group (named by names) at each budget as
// Study would (its give-up age, the stuck cap of each budget, the shapes
// that pay) and returns what each fit spends and waits on the fitting
// items. A group's first fit, which chooses its smoothing, comes
// first; then every other fit of every group runs at once, each on a
// copy of its group's study (beside), so that the cores stay busy
// however few groups there are.
// done is called as each group's curve is whole. The groups'
// studies come back too, for their own studies to start from (again),
// unless curveGroups says the groups hold too many rows to keep every
// study: then the curves are fitted a few groups at a time and each
// chunk's studies let go once its curves are done (nil), so that memory
// holds a few groups' studies, not every group's (a group's own study
// that starts afresh finds the same figures, at more work).
func groupCurves(ctx context.Context, trains, tests []Sample, names []string, opt StudyOptions, budgets []float64, done func()) ([][]CostLag, []*study, error) {
	opt.Baselines, opt.Bootstrap, opt.Family = nil, 0, ""
	opt.Budget = Budget{RequestsPerItem: budgets[0]}
	n := len(budgets)
	sts := make([]*study, len(trains))
	pts := make([]*CostLag, len(trains)*n)
	left := make([]atomic.Int32, len(trains)) // points of each group still to fit
	point := func(k int) {
		if left[k].Add(-1) == 0 {
			done() // the group's curve is whole
		}
	}
	for k := range left {
		left[k].Store(int32(n))
	}
	chunk, keep := curveGroups(trains, tests)
	for c0 := 0; c0 < len(trains); c0 += chunk {
		c1 := min(c0+chunk, len(trains))
		err := parallel(c1-c0, func(i int) error {
			k := c0 + i
			st, err := newStudy(ctx, trains[k], &HeldOut{Sample: tests[k], Holdout: opt.Holdout, Seed: opt.Seed}, nil, opt)
			if err == nil {
				err = st.giveUp()
			}
			if err == nil {
				st.findShapes()
				sts[k] = st
				pts[k*n], err = st.curvePoint(budgets[0])
				point(k)
			}
			if err != nil {
				return fmt.Errorf("group %q: %w", names[k], err)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		err = parallel((c1-c0)*(n-1), func(i int) (err error) {
			k, j := c0+i/(n-1), 1+i%(n-1)
			if pts[k*n+j], err = sts[k].beside().curvePoint(budgets[j]); err != nil {
				return fmt.Errorf("group %q: %w", names[k], err)
			}
			point(k)
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		if !keep {
			clear(sts[c0:c1]) // their memory goes: each group's own study starts afresh
		}
	}
	out := make([][]CostLag, len(trains))
	for k := range trains {
		for _, p := range pts[k*n : (k+1)*n] {
			if p != nil {
				out[k] = append(out[k], *p)
			}
		}
		if len(out[k]) == 0 {
			return nil, nil, fmt.Errorf("group %q: %w", names[k], infeasible(fmt.Sprintf("no schedule fits any budget from 1 to %.4g requests per item", budgets[n-1]), ""))
		}
	}
	return out, sts, nil
}

// curvePoint is what the fit at budget b spends and waits on the
// fitting items, with the shapes that paid; nil when no schedule spends
// so little.
func (st *study) curvePoint(b float64) (*CostLag, error) {
	st.res.Budget, st.res.BudgetFrom = Budget{RequestsPerItem: b}, ""
	st.point = true
	if err := st.stuckCap(); err != nil {
		return nil, err
	}
	res, err := st.fit(st.res.Budget, st.res.StuckCap)
	if err != nil {
		return nil, st.stopped("group curve") // nil unless stopped: no schedule spends so little
	}
	m, err := st.measureOn(st.train, "", res.Schedule)
	if err != nil {
		return nil, err
	}
	return &CostLag{Cost: m.RequestsPerItem, Lag: lagSum(m.Metrics)}, nil
}

// fitGroups studies each group with a schedule of its own at its
// budget, beside its own baselines and the options' as Study compares
// them, measures the shared schedule on the fallbacks, and sets what
// each group's decision weighs it against, and the decision.
func (s *GroupStudy) fitGroups(ctx context.Context, segs []Group, trains, tests []Sample, opt GroupOptions, done func()) error {
	return parallel(len(s.Groups), func(i int) error {
		defer done()
		f := &s.Groups[i]
		o := opt
		o.Baselines = append(slices.Clone(segs[i].Baselines), opt.Baselines...)
		if f.Fallback {
			row, err := s.replayShared(s.Shared.Schedule, "shared", tests[i], o)
			if err != nil {
				return fmt.Errorf("group %q: %w", f.Value, err)
			}
			f.Schedule, f.Row = s.Shared.Schedule, row
		} else {
			var base *study
			if s.bases != nil {
				base, s.bases[i] = s.bases[i], nil // its caches go with its study
			}
			res, err := groupStudy(ctx, base, trains[i], tests[i], f.Budget, o)
			if err != nil {
				return fmt.Errorf("group %q: %w", f.Value, err)
			}
			f.Study, f.Schedule, f.Row = res, res.Schedule, res.Fitted
		}
		var err error
		switch {
		case f.Study != nil && len(f.Study.Baselines) > 0 && f.Study.Decision != nil:
			f.Against, f.Decision = f.Study.Baselines[0].Baseline, *f.Study.Decision
		case len(o.Baselines) > 0:
			f.Against, err = s.replayShared(o.Baselines[0].Schedule, o.Baselines[0].Name, tests[i], o)
			f.Decision = decisionOf(f.Row, f.Against)
		default:
			f.Against, err = s.replayShared(s.Shared.Schedule, "one schedule", tests[i], o)
			f.Decision = decisionOf(f.Row, f.Against)
		}
		if err != nil {
			return fmt.Errorf("group %q: %w", f.Value, err)
		}
		if f.Decision.Group = segs[i].Label; f.Decision.Group == "" {
			f.Decision.Group = f.Value
		}
		return nil
	})
}

// groupStudy is Study of one group at its budget beside the
// baselines, again from base, the study of its curve, when it has one;
// when a baseline cannot be compared there (no fit at its cost on the
// group's items, say), the study goes without them and notes why, and
// the decision replays the first baseline instead.
func groupStudy(ctx context.Context, base *study, train, test Sample, budget float64, opt GroupOptions) (*StudyResult, error) {
	o := opt.StudyOptions
	o.Budget, o.Family = Budget{RequestsPerItem: budget}, ""
	if !opt.Full && o.NoLimit == "" {
		o.NoLimit = groupNoLimit
	}
	o.lean = !opt.Full
	study := func(o StudyOptions) (*StudyResult, error) {
		if base == nil {
			return Study(ctx, train, &HeldOut{Sample: test, Holdout: o.Holdout, Seed: o.Seed}, o)
		}
		st, err := base.again(o)
		if err != nil {
			return nil, err
		}
		return st.run()
	}
	res, err := study(o)
	if err == nil || len(o.Baselines) == 0 || ctx.Err() != nil {
		return res, err
	}
	o.Baselines = nil
	res, err2 := study(o)
	if err2 != nil {
		return nil, err2
	}
	res.Notes = append(res.Notes, fmt.Sprintf("the baselines are replayed, not compared at their cost: %v", err))
	return res, nil
}

// replayShared is sched replayed on a group's held-out items to the
// shared study's give-up age, as the row named name.
func (s *GroupStudy) replayShared(sched *schedule.Schedule, name string, test Sample, opt GroupOptions) (Row, error) {
	m, err := ReplaySample(sched, test, ReplayOptions{Horizon: sharedHorizon(s.Shared), AsksBy: opt.AsksBy})
	if err != nil {
		return Row{}, err
	}
	m.Name = name
	return ScheduleRow(sched, m), nil
}
