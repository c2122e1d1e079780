package main

import (
	"fmt"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
)

// The sketch of interval-censored input, and fitting from it: a
// poller's log goes item by item into the sketch's interval part, split
// by each item's hash as a log's rows are; a metric's buckets are
// thinned into the parts binomially, as a histogram's bins are.

// intervalSketchOf sketches args when they are interval-censored (ok).
func (r *readFlags) intervalSketchOf(e *env, args []string, by string, holdout float64, seed uint64) (*estimate.Sketch, bool, error) {
	if r.iv == nil || len(args) == 0 || isSketchFile(args[0]) { // sketches merge as they are
		return nil, false, nil
	}
	opt, err := r.options()
	if err != nil {
		return nil, true, err
	}
	kind := r.iv.intervalInput(args, opt)
	if kind == "" {
		return nil, false, nil
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

// intervalPartSample is part p of a sketch with intervals as a sample:
// every item of the part, its intervals spread by the fitting part's
// SpreadDensity (the whole sketch's when the fitting part has no
// answer).
func intervalPartSample(s *estimate.Sketch, p *estimate.SketchPart) (fit.Sample, error) {
	set, err := p.IntervalSet()
	if err != nil {
		return fit.Sample{}, err
	}
	basis, err := s.Fit.IntervalSet()
	if err != nil {
		return fit.Sample{}, err
	}
	if f, _ := basis.Weights(); f == 0 {
		var all estimate.SketchPart
		all.Merge(&s.Fit)
		all.Merge(&s.HeldOut)
		if basis, err = all.IntervalSet(); err != nil {
			return fit.Sample{}, err
		}
	}
	return spread(set, basis)
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
	var all estimate.SketchPart
	all.Merge(&s.Fit)
	all.Merge(&s.HeldOut)
	set, err := all.IntervalSet()
	if err != nil {
		return ""
	}
	return expectedText(set)
}

// readIntervalSketch reads sketches with intervals into set, both
// parts.
func readIntervalSketch(args []string, set *estimate.IntervalSet, sum *intervalSummary) error {
	s, _, err := readSketches(args)
	if err != nil {
		return err
	}
	var all estimate.SketchPart
	all.Merge(&s.Fit)
	all.Merge(&s.HeldOut)
	whole, err := all.IntervalSet()
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
