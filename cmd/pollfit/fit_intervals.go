package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
)

// Interval-censored input (a poller's own log, a latency metric) for
// fit, eval, frontier, report and sketch. Each item whose answer is known only
// to lie in (L, R] enters the sample as estimate.IntervalSet.Spread
// makes it: DefaultSpreadNodes items at the quantiles of the smoothed
// Turnbull density within (L, R], sharing its weight, so every figure
// measured on it is its expected value under that density, and the
// poller's own schedule, which asked at L and R, is replayed with the
// very asks it logged.

// intervalLimitNote is the limit row's note on interval-censored input.
const intervalLimitNote = "limit: not shown: the answers' ages are known only to lie in intervals, and hindsight on ages spread over them would be hindsight on the assumed density, not on the log"

// intervalRead is interval-censored input read, with its description
// for the report's header.
type intervalRead struct {
	*source.Intervals
	source string
}

// readIntervals reads args when they are interval-censored (ok), into
// a set, or with sketch into a sketch of the split holdout and seed.
func (r *readFlags) readIntervals(ctx context.Context, args []string, sketch bool, holdout float64, seed uint64) (rd *intervalRead, ok bool, err error) {
	kind, opt, err := r.intervalKind(args)
	if kind == "" || err != nil {
		return nil, err != nil, err
	}
	so := r.iv.options(opt)
	so.Sketch, so.Holdout, so.Seed = sketch, holdout, seed
	in, err := source.ReadIntervals(ctx, args, so)
	if in != nil {
		rd = &intervalRead{Intervals: in}
	}
	if err != nil {
		return rd, true, readError("", source.Options{Holdout: holdout}, err)
	}
	if in.Set != nil {
		rd.source = fmt.Sprintf("%s (%s)", in.Input, source.ExpectedNote(in.Set))
	}
	return rd, true, nil
}

// intervalKind is the kind of interval-censored input args are (see
// intervalInput) with the read options, or "" for any other input;
// sketches are never read as intervals (they merge as they are).
func (r *readFlags) intervalKind(args []string) (kind source.IntervalKind, opt logs.Options, err error) {
	if r.iv == nil || len(args) == 0 || source.IsSketch(args[0]) {
		return "", opt, nil
	}
	if opt, err = r.options(); err != nil {
		return "", opt, err
	}
	return r.iv.intervalInput(args, opt), opt, nil
}

// assumedText is source.Intervals.Assumed in pollfit's flags.
func assumedText(s string) string {
	return strings.NewReplacer("Pending N", "--pending N", "Never SHARE", "--never SHARE").Replace(s)
}

// notes are the notes every command prints on interval-censored input:
// what it assumed and the reading's warnings.
func (rd *intervalRead) notes() []string {
	var n []string
	if rd.Assumed != "" {
		n = append(n, "assumed: "+assumedText(rd.Assumed))
	}
	return append(n, rd.Warnings...)
}

// intervalStudyInput is studyInput on interval-censored input: the
// items split by the study's holdout and seed, both parts spread by the
// fitting part's Turnbull density (source.SplitIntervals), and the
// input described for the report's header (ok false: not such input).
func (r *readFlags) intervalStudyInput(ctx context.Context, args []string, holdout float64, seed uint64) (*studied, bool, error) {
	rd, ok, err := r.readIntervals(ctx, args, false, 0, 0)
	if !ok || err != nil {
		return nil, ok, err
	}
	in, err := source.SplitIntervals(rd.Set, holdout, seed)
	if errors.Is(err, source.ErrNoAnswerToFit) {
		return nil, true, fmt.Errorf("%s: %v: hold out less (--holdout)", rd.Input, err)
	}
	if err != nil {
		return nil, true, err
	}
	in.Stats, in.Notes = rd.Stats, rd.notes()
	return &studied{Input: in, intervals: rd.source}, true, nil
}

// intervalEvalInput is evalInput on interval-censored input: every
// item, spread by the Turnbull density of them all, with the notes to
// print.
func (r *readFlags) intervalEvalInput(ctx context.Context, args []string) (*source.Input, []string, bool, error) {
	rd, ok, err := r.readIntervals(ctx, args, false, 0, 0)
	if !ok || err != nil {
		return nil, nil, ok, err
	}
	smp, err := source.Spread(rd.Set, rd.Set)
	if err != nil {
		return nil, nil, true, err
	}
	return &source.Input{All: smp, Stats: rd.Stats}, append([]string{source.ExpectedNote(rd.Set)}, rd.notes()...), true, nil
}

// The sketch of interval-censored input, and fitting from it: a
// poller's log goes item by item into the sketch's interval part, split
// by each item's hash as a log's rows are; a metric's buckets are
// thinned into the parts binomially, as a histogram's bins are.

// intervalSketchOf sketches args when they are interval-censored (ok).
func (r *readFlags) intervalSketchOf(e *env, args []string, by string, holdout float64, seed uint64) (*estimate.Sketch, bool, error) {
	if kind, _, err := r.intervalKind(args); kind == "" || err != nil {
		return nil, err != nil, err
	}
	if by != "" {
		return nil, true, usagef("sketch: --by does not take a poller log or a metric yet: sketch it without --by")
	}
	if _, err := estimate.NewSketch(holdout, seed); err != nil {
		return nil, true, usagef("sketch: --holdout %g: want a share in [0, 1)", holdout)
	}
	rd, _, err := r.readIntervals(e.context(), args, true, holdout, seed)
	switch {
	case err == nil:
		r.warnIntervals(e, rd.notes())
		return rd.Sketch, true, nil
	case rd != nil: // nothing answered: the bad rows skipped are still told
		r.warnIntervals(e, rd.Warnings)
	}
	return nil, true, err
}

func (r *readFlags) warnIntervals(e *env, notes []string) {
	if r.quiet {
		return
	}
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "pollfit: warning: %s\n", n)
	}
}

// sketchIntervalsText describes a sketch with intervals for the
// report's header ("" for any other sketch).
func sketchIntervalsText(s *estimate.Sketch, args []string) string {
	if !s.HasIntervals() {
		return ""
	}
	return fmt.Sprintf("sketch %s (%s)", strings.Join(args, ", "), sketchExpected(s))
}

// sketchExpected is source.ExpectedNote of a sketch's items.
func sketchExpected(s *estimate.Sketch) string {
	set, err := source.SketchIntervals(s)
	if err != nil {
		return ""
	}
	return source.ExpectedNote(set)
}
