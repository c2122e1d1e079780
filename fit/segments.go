package fit

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/opterr"
)

// DefaultMinSegmentFinal is the fewest final answers a segment's fitting
// items must hold for it to get a schedule of its own: a smaller segment
// follows the shared schedule, the one fitted to all items.
const DefaultMinSegmentFinal = 200

// Segment is the items of one value of a categorical column (a payment
// method, a region).
type Segment struct {
	Value  string
	Sample Sample
	// HeldOut is the segment's held-out part when its input was split
	// already (a sketch's hash split, as source.Read gives each group):
	// Sample is then its fitting part. Nil: StudySegments splits Sample.
	HeldOut *HeldOut
	// Label names the segment in its decision ("method card"); Value
	// when empty.
	Label string
	// Baselines are the segment's own schedules of today, compared on
	// its items before those of the options (which are every segment's):
	// its decision weighs its schedule against the first of them.
	Baselines []Baseline
}

// Total is the weight of the segment's items, both parts.
func (s Segment) Total() float64 {
	t := s.Sample.Total()
	if s.HeldOut != nil {
		t += s.HeldOut.Sample.Total()
	}
	return t
}

// whole is the segment's items, both parts when it comes split.
func (s Segment) whole() Sample {
	if s.HeldOut == nil {
		return s.Sample
	}
	return JoinSamples(s.Sample, s.HeldOut.Sample)
}

// SegmentOptions are the settings of StudySegments: those of Study,
// whose Budget.RequestsPerItem is the mean over all items, and how the
// budget is shared.
type SegmentOptions struct {
	StudyOptions
	// PerSegment gives every segment the budget itself, rather than
	// sharing it where it buys the most lag.
	PerSegment bool
	// MinFinal is the fewest final answers a segment's fitting items
	// need for a schedule of its own (default DefaultMinSegmentFinal).
	MinFinal int
}

// SegmentStudy is a fit per segment at a shared budget, and the one
// schedule for all beside it at the same budget.
type SegmentStudy struct {
	// Segments are the segments in the order given.
	Segments []SegmentFit
	// Shared is the one-schedule Study of all items, on the same
	// fitting and held-out items as the segments together.
	Shared *StudyResult
	// Total is the segments' schedules together and SharedTotal the
	// shared schedule, on the held-out items of all segments.
	Total, SharedTotal Total
	// Budget is the requests per item on average over all items, and
	// PerSegment reports that each segment got it rather than a share.
	Budget     float64
	PerSegment bool
	// Allocation is how the budget was shared between the segments with
	// a schedule of their own (zero with PerSegment).
	Allocation Allocation
	MinFinal   int
	// bases are the studies of the segments' curves, by segment (nil for
	// a fallback, or without curves), which their own studies start
	// from.
	bases []*study
}

// Change is the segmenting figure: the change in mean lag from the one
// schedule to the segments' schedules together, on the same held-out
// items (−0.65 for 65% less).
func (s *SegmentStudy) Change() float64 {
	return s.Total.LagMean/s.Shared.Fitted.Lag.Mean - 1
}

// RequestsChange is the change in held-out requests per item from the
// one schedule to the segments' schedules together (both fitted at the
// same budget, they need not spend the same on the held-out items).
func (s *SegmentStudy) RequestsChange() float64 {
	return s.Total.RequestsPerItem/s.Shared.Fitted.RequestsPerItem - 1
}

// Changes is the segmenting figure in words, as Comparison.Changes
// words a baseline's: "23.3% less mean lag" where the two spend the same
// on the held-out items to 0.5%, else both changes, the requests first
// ("2.7% more requests and 23.3% less mean lag").
func (s *SegmentStudy) Changes() string {
	lag := FormatChange(s.Change()) + " mean lag"
	if s.SameCost() {
		return lag
	}
	return FormatRequestsChange(s.RequestsChange(), noInterval) + " and " + lag
}

// SameCost reports whether the segments' schedules together and the one
// schedule spend the same on the held-out items, to 0.5%.
func (s *SegmentStudy) SameCost() bool {
	return sameCost(s.Total.RequestsPerItem, s.Shared.Fitted.RequestsPerItem)
}

// SegmentFit is one segment's schedule and its figures.
type SegmentFit struct {
	Value string
	// Items and Final are the segment's weighted items and final answers
	// among its fitting items; Share is its share of all items.
	Items, Final, Share float64
	// Budget is the requests per item the segment was given.
	Budget float64
	// Fallback reports a segment under MinFinal, which follows the
	// shared schedule.
	Fallback bool
	// Schedule is the segment's schedule, Row it measured on the
	// segment's held-out items.
	Schedule *schedule.Schedule
	Row      Row
	// Study is the segment's own study (nil for a fallback).
	Study *StudyResult
	// Against is what the segment's decision weighs its schedule
	// against, on the segment's held-out items to its give-up age: its
	// own first baseline, else the options' first (named so, with its
	// intervals when the study bootstraps), or without one the one
	// schedule for all (named "one schedule").
	Against Row
	// Decision is what shipping Schedule changes against Against, with
	// the intervals of the segment's study when it bootstrapped them
	// (its Group the segment's Label).
	Decision Decision
}

// Total is schedules measured together on several segments' items: the
// mean lag over all the answers seen, the requests per item and the
// stuck cost averaged over all items, the share of answers missed.
type Total struct {
	Items, Detected, Missed  float64
	LagMean, RequestsPerItem float64
	Stuck, MissedShare       float64
}

// StudySegments fits one schedule per segment at a shared requests
// budget: opt.Budget.RequestsPerItem is the mean over all items, and it
// goes where the next request buys the most lag (Allocate, on each
// segment's lag-versus-cost curve over its fitting items), unless
// PerSegment gives every segment the budget itself. Each segment is
// split into fitting and held-out items with opt's Holdout and Seed
// (unless it comes split: Segment.HeldOut), and
// studied as Study does with its own give-up age and stuck cap; the
// shared schedule is Study at the budget of all, the items of every
// segment as one input (a sketch's own sample of the whole log, which
// Study without the column fits; nil: all segments' fitting items,
// measured on all their held-out ones), and is compared with the
// segments' schedules on the segments' held-out items. A segment with
// fewer than MinFinal final answers to fit on follows the shared
// schedule, its cost coming out of the budget first.
func StudySegments(ctx context.Context, all *Segment, segs []Segment, opt SegmentOptions) (*SegmentStudy, error) {
	if err := opt.StudyOptions.Validate(); err != nil {
		return nil, err
	}
	b := opt.Budget
	fromBaseline := b.IsZero() && len(opt.Baselines) > 0
	if !fromBaseline && (b.RequestsPerItem <= 0 || b.AsksBy != 0 || b.MaxAttempts != 0 || b.Price != 0) {
		return nil, opterr.Optionf("Budget", nil, "segments share a requests-per-item budget: give one (Budget.RequestsPerItem, or a baseline whose cost it is), and no Budget.AsksBy, Budget.MaxAttempts or Budget.Price")
	}
	if len(segs) == 0 {
		return nil, errors.New("no segments")
	}
	if opt.MinFinal <= 0 {
		opt.MinFinal = DefaultMinSegmentFinal
	}
	out := &SegmentStudy{Budget: b.RequestsPerItem, PerSegment: opt.PerSegment, MinFinal: opt.MinFinal}
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
	allTest := JoinSamples(tests...)
	fitOn, heldOut := JoinSamples(trains...), &HeldOut{Sample: allTest, Holdout: opt.Holdout, Seed: opt.Seed}
	if all != nil {
		fitOn, heldOut = all.Sample, all.HeldOut
	}
	prog := newSegmentProgress(opt.Progress)
	shared := opt.StudyOptions
	shared.Progress = prog.shared()
	opt.Progress = nil   // the segments' own studies run in parallel: prog counts them
	opt.Frontier = false // the shared schedule's frontier only
	res, err := Study(ctx, fitOn, heldOut, shared)
	if err != nil {
		return nil, fmt.Errorf("the shared schedule: %w", err)
	}
	out.Shared = res
	if fromBaseline {
		// The first baseline's cost on all fitting items is the budget.
		out.Budget, opt.Budget = res.Budget.RequestsPerItem, res.Budget
	}
	for i, s := range segs {
		f := SegmentFit{Value: s.Value, Items: trains[i].Total(), Final: finalWeight(trains[i])}
		f.Fallback = f.Final < float64(opt.MinFinal)
		out.Segments = append(out.Segments, f)
	}
	if err := out.allocate(ctx, trains, tests, opt, prog); err != nil {
		return nil, err
	}
	if err := out.fitSegments(ctx, segs, trains, tests, opt, prog.start("values fitted", len(segs))); err != nil {
		return nil, err
	}
	if err := out.total(allTest, opt); err != nil {
		return nil, err
	}
	return out, nil
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

// total sums the segments' rows, and the shared schedule's on the same
// held-out items, test.
func (s *SegmentStudy) total(test Sample, opt SegmentOptions) error {
	var items float64
	for i := range s.Segments {
		items += s.Segments[i].Row.Items
	}
	for i := range s.Segments {
		s.Segments[i].Share = s.Segments[i].Row.Items / math.Max(items, 1e-300)
	}
	rows := make([]Row, len(s.Segments))
	for i, f := range s.Segments {
		rows[i] = f.Row
	}
	s.Total = sumRows(rows)
	shared, err := s.replayShared(s.Shared.Schedule, "one schedule", test, opt)
	if err != nil {
		return err
	}
	s.SharedTotal = sumRows([]Row{shared})
	return nil
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
