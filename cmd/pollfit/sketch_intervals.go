package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
)

// The sketch of interval-censored input, and fitting from it: a
// poller's log goes item by item into the sketch's interval part, split
// by each item's hash as a log's rows are; a metric's buckets are
// thinned into the parts binomially, as a histogram's bins are.

// intervalSketchOf sketches args when they are interval-censored (ok).
func (r *readFlags) intervalSketchOf(e *env, args []string, by string, holdout float64, seed uint64) (*estimate.Sketch, bool, error) {
	kind, opt, err := r.intervalKind(args)
	if kind == "" || err != nil {
		return nil, err != nil, err
	}
	if by != "" {
		return nil, true, usagef("sketch: --by does not take a poller log or a metric yet: sketch it without --by")
	}
	s, err := estimate.NewSketch(holdout, seed)
	if err != nil {
		return nil, true, usagef("sketch: --holdout %g: want a share in [0, 1)", holdout)
	}
	if kind == "metric" {
		rd, _, err := r.readIntervals(args)
		if err != nil {
			return nil, true, err
		}
		for _, iv := range rd.set.Intervals() {
			if err := s.AddInterval(iv); err != nil {
				return nil, true, err
			}
		}
		r.warnIntervals(e, rd.notes())
		return s, true, nil
	}
	var addErr error
	st, err := logs.EachPoller(args, r.iv.pollerOptions(opt), func(iv estimate.Interval) {
		if err := s.AddInterval(iv); err != nil && addErr == nil {
			addErr = err
		}
	})
	if err == nil {
		err = addErr
	}
	if w := skippedWarning(st); w != "" && err == nil {
		r.warnIntervals(e, []string{w})
	}
	if err == nil && st.Final == 0 {
		err = fmt.Errorf("nothing to sketch: all %d items of %s are pending", st.Pending, strings.Join(st.Files, ", "))
	}
	return s, true, err
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

// sketchExpected is expectedText of a sketch's items.
func sketchExpected(s *estimate.Sketch) string {
	set, err := source.SketchIntervals(s)
	if err != nil {
		return ""
	}
	return expectedText(set)
}

// readIntervalSketch reads sketches with intervals into set, both
// parts.
func readIntervalSketch(args []string, set *estimate.IntervalSet, sum *intervalSummary) error {
	s, err := readSketchArgs(args)
	if err != nil {
		return err
	}
	whole, err := source.SketchIntervals(s)
	if err != nil {
		return err
	}
	for _, iv := range whole.Intervals() {
		if err := set.Add(iv); err != nil {
			return err
		}
	}
	sum.Input = "sketch " + strings.Join(args, ", ") + " (with an interval part)"
	return nil
}

// readSketchArgs reads and merges the sketch files at args as they are,
// groups kept (source.Read with Options.Sketch).
func readSketchArgs(args []string) (*estimate.Sketch, error) {
	in, err := source.Read(context.Background(), args, source.Options{Sketch: true})
	if err != nil {
		return nil, err
	}
	return in.Sketch, nil
}
