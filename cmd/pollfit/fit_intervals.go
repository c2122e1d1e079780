package main

import (
	"errors"
	"fmt"
	"math"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
)

// Interval-censored input (a poller's own log, a latency metric) for
// fit, eval, frontier and report. Each item whose answer is known only
// to lie in (L, R] enters the sample as estimate.IntervalSet.Spread
// makes it: DefaultSpreadNodes items at the quantiles of the smoothed
// Turnbull density within (L, R], sharing its weight, so every figure
// measured on it is its expected value under that density, and the
// poller's own schedule, which asked at L and R, is replayed with the
// very asks it logged.

// intervalLimitNote is the limit row's note on interval-censored input.
const intervalLimitNote = "limit: not shown: the answers' ages are known only to lie in intervals, and hindsight on ages spread over them would be hindsight on the assumed density, not on the log"

// intervalRead is interval-censored input read and spread.
type intervalRead struct {
	set    estimate.IntervalSet
	sum    intervalSummary
	stats  logs.Stats
	source string // the input, for the report's header
}

// readIntervals reads args when they are interval-censored (ok), into
// a set.
func (r *readFlags) readIntervals(args []string) (rd *intervalRead, ok bool, err error) {
	kind, opt, err := r.intervalKind(args)
	if kind == "" || err != nil {
		return nil, err != nil, err
	}
	rd = &intervalRead{}
	if kind == "metric" {
		err = r.iv.readMetric(args[0], &rd.set, &rd.sum)
	} else {
		err = r.iv.readPoller(args, opt, &rd.set, &rd.sum)
	}
	if err != nil {
		return nil, true, err
	}
	// As the sample has them: a metric's answers beyond its last bound
	// are pending there.
	rd.sum.Final, rd.sum.Pending = rd.set.Weights()
	rd.stats = logs.Stats{Files: args, Rows: int64(rd.set.Len()),
		Final: int64(math.Round(rd.sum.Final)), Pending: int64(math.Round(rd.sum.Pending))}
	rd.stats.Items = rd.stats.Final + rd.stats.Pending
	rd.source = fmt.Sprintf("%s (%s)", rd.sum.Input, expectedText(&rd.set))
	return rd, true, nil
}

// intervalKind is the kind of interval-censored input args are ("metric"
// or "poller", see intervalInput) with the read options, or "" for
// any other input; sketches are never read as intervals (they merge as
// they are).
func (r *readFlags) intervalKind(args []string) (kind string, opt logs.Options, err error) {
	if r.iv == nil || len(args) == 0 || source.IsSketch(args[0]) {
		return "", opt, nil
	}
	if opt, err = r.options(); err != nil {
		return "", opt, err
	}
	return r.iv.intervalInput(args, opt), opt, nil
}

// expectedText says which figures are expected on set: those of the
// items whose answer is known only to lie in an interval.
func expectedText(set *estimate.IntervalSet) string {
	var in float64
	for _, iv := range set.Intervals() {
		if iv.Lo < iv.Hi && !math.IsInf(iv.Hi, 1) {
			in += iv.W
		}
	}
	final, pending := set.Weights()
	return fmt.Sprintf("the answers of %s of the %s items are known only to lie in an interval: their lag and requests are expected figures, "+
		"under the smoothed density within the interval (%d ages each); the other items' are exact", count(in), count(final+pending), estimate.DefaultSpreadNodes)
}

// notes are the notes every command prints on interval-censored input:
// what it assumed and the reading's warnings.
func (rd *intervalRead) notes() []string {
	var n []string
	if rd.sum.Assumed != "" {
		n = append(n, "assumed: "+rd.sum.Assumed)
	}
	return append(n, rd.sum.warnings...)
}

// intervalStudyInput is studyInput on interval-censored input: the
// items split by the study's holdout and seed, both parts spread by the
// fitting part's Turnbull density (source.SplitIntervals), and the
// input described for the report's header (ok false: not such input).
func (r *readFlags) intervalStudyInput(args []string, holdout float64, seed uint64) (*studied, bool, error) {
	rd, ok, err := r.readIntervals(args)
	if !ok || err != nil {
		return nil, ok, err
	}
	in, err := source.SplitIntervals(&rd.set, holdout, seed)
	if errors.Is(err, source.ErrNoAnswerToFit) {
		return nil, true, fmt.Errorf("%s: %v: hold out less (--holdout)", rd.sum.Input, err)
	}
	if err != nil {
		return nil, true, err
	}
	in.Stats, in.Notes = rd.stats, rd.notes()
	return &studied{Input: in, intervals: rd.source}, true, nil
}

// intervalEvalInput is evalInput on interval-censored input: every
// item, spread by the Turnbull density of them all, with the notes to
// print.
func (r *readFlags) intervalEvalInput(args []string) (*source.Input, []string, bool, error) {
	rd, ok, err := r.readIntervals(args)
	if !ok || err != nil {
		return nil, nil, ok, err
	}
	smp, err := source.Spread(&rd.set, &rd.set)
	if err != nil {
		return nil, nil, true, err
	}
	return &source.Input{All: smp, Stats: rd.stats}, append([]string{expectedText(&rd.set)}, rd.notes()...), true, nil
}
