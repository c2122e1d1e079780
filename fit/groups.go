package fit

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/opterr"
)

// DefaultMinGroupFinal is the fewest final answers a group's fitting
// items must hold for it to get a schedule of its own: a smaller group
// follows the shared schedule, the one fitted to all items.
const DefaultMinGroupFinal = 200

// Group is the items of one value of a categorical column (a payment
// method, a region).
type Group struct {
	Value  string
	Sample Sample
	// HeldOut is the group's held-out part when its input was split
	// already (a sketch's hash split, as source.Read gives each group):
	// Sample is then its fitting part. Nil: StudyGroups splits Sample.
	HeldOut *HeldOut
	// Label names the group in its decision ("method card"); Value
	// when empty.
	Label string
	// Baselines are the group's own schedules of today, compared on
	// its items before those of the options (which are every group's):
	// its decision weighs its schedule against the first of them.
	Baselines []Baseline
}

// Total is the weight of the group's items, both parts.
func (s Group) Total() float64 {
	t := s.Sample.Total()
	if s.HeldOut != nil {
		t += s.HeldOut.Sample.Total()
	}
	return t
}

// whole is the group's items, both parts when it comes split.
func (s Group) whole() Sample {
	if s.HeldOut == nil {
		return s.Sample
	}
	return JoinSamples(s.Sample, s.HeldOut.Sample)
}

// GroupOptions are the settings of StudyGroups: those of Study,
// whose Budget.RequestsPerItem is the mean over all items, and how the
// budget is shared.
type GroupOptions struct {
	StudyOptions
	// PerGroup gives every group the budget itself, rather than
	// sharing it where it buys the most lag.
	PerGroup bool
	// MinFinal is the fewest final answers a group's fitting items
	// need for a schedule of its own (default DefaultMinGroupFinal).
	MinFinal int
	// Full makes the groups' studies and the shared one whole, as Study
	// does (pollfit report draws them so). Without it they leave out
	// what only such a report reads, and every schedule and figure
	// else is the same:
	//   - the limit rows, as StudyOptions.NoLimit does (the NaN row,
	//     and groupNoLimit its LimitNote), unless NoLimit says why
	//     already;
	//   - the exact (fit) row (StudyResult.ExactFit nil), and the main
	//     fit's exact optimum on the smoothed density, with the
	//     smoothing's cross-validation, unless deadline bursts are
	//     placed over it or it is the schedule (Exact): Fit.Optimum is
	//     then the one fitted to the raw items, and Smoothing the
	//     density estimate's own.
	Full bool
}

// groupNoLimit is the LimitNote of a study by group without
// GroupOptions.Full.
const groupNoLimit = "the limit of a study by group is computed on request only (GroupOptions.Full)"

// GroupStudy is a fit per group at a shared budget, and the one
// schedule for all beside it at the same budget.
type GroupStudy struct {
	// Groups are the groups in the order given.
	Groups []GroupFit
	// Shared is the one-schedule Study of all items, measured on the
	// groups' held-out items together.
	Shared *StudyResult
	// Total is the groups' schedules together and SharedTotal the
	// shared schedule, on the held-out items of all groups.
	Total, SharedTotal Total
	// Budget is the requests per item on average over all items, and
	// PerGroup reports that each group got it rather than a share.
	Budget   float64
	PerGroup bool
	// Allocation is how the budget was shared between the groups with
	// a schedule of their own (zero with PerGroup).
	Allocation Allocation
	MinFinal   int
	// bases are the studies of the groups' curves, by group (nil for
	// a fallback, or without curves), which their own studies start
	// from.
	bases []*study
}

// BudgetSpent is the requests per item the groups' budgets come to,
// averaged over all their fitting items: the Budget shared, unless every
// group's dearest fit on its curve costs less than its share (the stuck
// cap binds in each), when the budget is not all given out.
func (s *GroupStudy) BudgetSpent() float64 {
	var items, spent float64
	for _, f := range s.Groups {
		items, spent = items+f.Items, spent+f.Items*f.Budget
	}
	if items == 0 {
		return 0
	}
	return spent / items
}

// Unspent reports whether the groups' budgets take less than the budget
// shared (BudgetSpent).
func (s *GroupStudy) Unspent() bool { return s.BudgetSpent() < s.Budget*(1-1e-9) }

// Change is the grouping figure: the change in mean lag from the one
// schedule to the groups' schedules together, on the same held-out
// items (−0.65 for 65% less).
func (s *GroupStudy) Change() float64 {
	return s.Total.LagMean/s.Shared.Fitted.Lag.Mean - 1
}

// RequestsChange is the change in held-out requests per item from the
// one schedule to the groups' schedules together (both fitted at the
// same budget, they need not spend the same on the held-out items).
func (s *GroupStudy) RequestsChange() float64 {
	return s.Total.RequestsPerItem/s.Shared.Fitted.RequestsPerItem - 1
}

// Changes is the grouping figure in words, as Comparison.Changes
// words a baseline's: "23.3% less mean lag" where the two spend the same
// on the held-out items to 0.5%, else both changes, the requests first
// ("2.7% more requests and 23.3% less mean lag").
func (s *GroupStudy) Changes() string {
	lag := FormatChange(s.Change()) + " mean lag"
	if s.SameCost() {
		return lag
	}
	return FormatRequestsChange(s.RequestsChange(), noInterval) + " and " + lag
}

// SameCost reports whether the groups' schedules together and the one
// schedule spend the same on the held-out items, to 0.5%.
func (s *GroupStudy) SameCost() bool {
	return sameCost(s.Total.RequestsPerItem, s.Shared.Fitted.RequestsPerItem)
}

// GroupFit is one group's schedule and its figures.
type GroupFit struct {
	Value string
	// Items and Final are the group's weighted items and final answers
	// among its fitting items; Share is its share of all items.
	Items, Final, Share float64
	// Budget is the requests per item the group was given.
	Budget float64
	// Fallback reports a group under MinFinal, which follows the
	// shared schedule.
	Fallback bool
	// Schedule is the group's schedule, Row it measured on the
	// group's held-out items.
	Schedule *schedule.Schedule
	Row      Row
	// Study is the group's own study (nil for a fallback).
	Study *StudyResult
	// Against is what the group's decision weighs its schedule
	// against, on the group's held-out items to its give-up age: its
	// own first baseline, else the options' first (named so, with its
	// intervals when the study bootstraps), or without one the one
	// schedule for all (named "one schedule").
	Against Row
	// Decision is what shipping Schedule changes against Against, with
	// the intervals of the group's study when it bootstrapped them
	// (its Group the group's Label).
	Decision Decision
}

// Total is schedules measured together on several groups' items: the
// mean lag over all the answers seen, the requests per item and the
// stuck cost averaged over all items, the share of answers missed.
type Total struct {
	Items, Detected, Missed  float64
	LagMean, RequestsPerItem float64
	Stuck, MissedShare       float64
}

// StudyGroups fits one schedule per group at a shared requests
// budget: opt.Budget.RequestsPerItem is the mean over all items, and it
// goes where the next request buys the most lag (Allocate, on each
// group's lag-versus-cost curve over its fitting items), unless
// PerGroup gives every group the budget itself. Each group is
// split into fitting and held-out items with opt's Holdout and Seed
// (unless it comes split: Group.HeldOut), and
// studied as Study does with its own give-up age and stuck cap; the
// shared schedule is Study at the budget fitted on all, the fitting
// items of every group as one sample (a sketch's own fitting part of
// the whole log, which Study without the column fits; nil: all groups'
// fitting items joined), and measured on all the groups' held-out items,
// the items their schedules are measured on. A group with
// fewer than MinFinal final answers to fit on follows the shared
// schedule, its cost coming out of the budget first.
func StudyGroups(ctx context.Context, all *Sample, segs []Group, opt GroupOptions) (*GroupStudy, error) {
	if err := opt.StudyOptions.Validate(); err != nil {
		return nil, err
	}
	b := opt.Budget
	fromBaseline := b.IsZero() && len(opt.Baselines) > 0
	if !fromBaseline && (b.RequestsPerItem <= 0 || b.AsksBy != 0 || b.MaxAttempts != 0 || b.Price != 0) {
		return nil, opterr.Optionf("Budget", nil, "groups share a requests-per-item budget: give one (Budget.RequestsPerItem, or a baseline whose cost it is), and no Budget.AsksBy, Budget.MaxAttempts or Budget.Price")
	}
	if len(segs) == 0 {
		return nil, errors.New("no groups")
	}
	if opt.MinFinal <= 0 {
		opt.MinFinal = DefaultMinGroupFinal
	}
	out := &GroupStudy{Budget: b.RequestsPerItem, PerGroup: opt.PerGroup, MinFinal: opt.MinFinal}
	trains, tests := make([]Sample, len(segs)), make([]Sample, len(segs))
	for i, s := range segs {
		if s.HeldOut != nil {
			trains[i], tests[i] = s.Sample, s.HeldOut.Sample
		} else {
			trains[i], tests[i] = SplitSample(s.Sample, opt.Holdout, opt.Seed)
		}
		if opt.Holdout == 0 || tests[i].Len() == 0 || trains[i].Len() == 0 {
			whole := s.whole() // too few to hold out: measured on the fitting items
			trains[i], tests[i] = whole, whole
		}
	}
	fitOn := JoinSamples(trains...)
	if all != nil {
		fitOn = *all
	}
	heldOut := &HeldOut{Sample: JoinSamples(tests...), Holdout: opt.Holdout, Seed: opt.Seed}
	prog := newGroupProgress(opt.Progress)
	shared := opt.StudyOptions
	shared.Progress = prog.shared()
	if !opt.Full && shared.NoLimit == "" {
		shared.NoLimit = groupNoLimit
	}
	shared.lean = !opt.Full
	opt.Progress = nil   // the groups' own studies run in parallel: prog counts them
	opt.Frontier = false // the shared schedule's frontier only
	for i, s := range segs {
		f := GroupFit{Value: s.Value, Items: trains[i].Total(), Final: finalWeight(trains[i])}
		f.Fallback = f.Final < float64(opt.MinFinal)
		out.Groups = append(out.Groups, f)
	}
	if _, small := curveGroups(trains, tests); fromBaseline || out.anyFallback() || !small {
		res, err := Study(ctx, fitOn, heldOut, shared)
		if err != nil {
			return nil, fmt.Errorf("the shared schedule: %w", err)
		}
		out.Shared = res
		if fromBaseline {
			// The first baseline's cost on all fitting items is the budget.
			out.Budget, opt.Budget = res.Budget.RequestsPerItem, res.Budget
		}
		if err := out.allocate(ctx, trains, tests, opt, prog); err != nil {
			return nil, err
		}
	} else {
		// The curves' studies live on as the groups' own (bases): their
		// context, which a failed shared study cancels, until we return.
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		if err := out.sharedBeside(ctx, cancel, fitOn, heldOut, shared, func() error {
			return out.allocate(cctx, trains, tests, opt, prog)
		}); err != nil {
			return nil, err
		}
	}
	if err := out.fitGroups(ctx, segs, trains, tests, opt, prog.start("values fitted", len(segs))); err != nil {
		return nil, err
	}
	out.total()
	return out, nil
}

// anyFallback reports whether a group follows the shared schedule.
func (s *GroupStudy) anyFallback() bool {
	for _, f := range s.Groups {
		if f.Fallback {
			return true
		}
	}
	return false
}

// sharedBeside runs the shared schedule's Study beside curves (the
// groups' allocation, which needs it only for fallbacks), so that the
// two keep the cores busy where each alone leaves one idle: for groups
// small enough that curveGroups keeps their studies, as the memory of
// both at once is then small too. The shared study's error comes first,
// as when the two run in turn, and stops the curves (stop cancels their
// context); a failing curve waits for the shared study to end.
func (s *GroupStudy) sharedBeside(ctx context.Context, stop context.CancelFunc, fitOn Sample, heldOut *HeldOut, opt StudyOptions, curves func() error) error {
	done := make(chan error, 1)
	go func() {
		res, err := Study(ctx, fitOn, heldOut, opt)
		if err != nil {
			stop()
			done <- fmt.Errorf("the shared schedule: %w", err)
			return
		}
		s.Shared = res
		done <- nil
	}()
	cerr := curves()
	if err := <-done; err != nil {
		return err
	}
	return cerr
}

// finalWeight is the weight of a sample's final answers.
func finalWeight(smp Sample) float64 {
	n := 0.0
	for i, it := range smp.Items {
		if it.Status.Final() {
			n += smp.Weight(i)
		}
	}
	return n
}

// total sums the groups' rows and the shared schedule's.
func (s *GroupStudy) total() {
	var items float64
	for i := range s.Groups {
		items += s.Groups[i].Row.Items
	}
	for i := range s.Groups {
		s.Groups[i].Share = s.Groups[i].Row.Items / math.Max(items, 1e-300)
	}
	rows := make([]Row, len(s.Groups))
	for i, f := range s.Groups {
		rows[i] = f.Row
	}
	s.Total = sumRows(rows)
	s.SharedTotal = sumRows([]Row{s.Shared.Fitted})
}

// sumRows adds rows measured on disjoint items.
func sumRows(rows []Row) Total {
	var t Total
	var lag, req, stuck float64
	for _, r := range rows {
		t.Items += r.Items
		t.Detected += r.Detected
		t.Missed += r.Missed
		lag += r.Lag.Mean * r.Detected
		req += r.RequestsPerItem * r.Items
		stuck += r.Stuck * r.Items
	}
	t.LagMean, t.RequestsPerItem, t.Stuck = lag/t.Detected, req/t.Items, stuck/t.Items
	t.MissedShare = t.Missed / (t.Detected + t.Missed)
	return t
}
