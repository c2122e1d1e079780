package main

import (
	"slices"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
	"github.com/spf13/pflag"
)

// byFlags are the segment flags of the commands that fit or describe one
// distribution per value of a column.
type byFlags struct {
	by         string
	perSegment bool
	minFinal   int
}

// addByFlag registers --by on fs; withBudget adds the budget-sharing
// flags of fit.
func addByFlag(fs *pflag.FlagSet, withBudget bool) *byFlags {
	b := &byFlags{}
	fs.StringVar(&b.by, "by", "", "one distribution and one schedule per value of this categorical column (e.g. method), at most 1000 values")
	if withBudget {
		fs.BoolVar(&b.perSegment, "budget-per-segment", false, "with --by, give every segment the budget itself instead of sharing it where the next request buys the most lag")
		fs.IntVar(&b.minFinal, "min-segment", fit.DefaultMinSegmentFinal, "with --by, the fewest final answers a segment needs among its fitting items for a schedule of its own (smaller ones follow the shared schedule)")
	}
	return b
}

// segRead says how readSegments reads: the column, the command (for
// errors), and for a command that may work from a sketch what it needs
// of the items (nil: the items always) with the sketch's split.
type segRead struct {
	by, cmd string
	needs   *itemNeeds
	holdout float64
	seed    uint64
	// notes, when set, gets what the input could not serve of needs.
	notes *[]string
}

// readSegments reads the logs at args split by the values of column by,
// one sample per value in the order the values first came: a segmented
// sketch's segments, each its bins of both parts together, weighted; or
// a raw log's items, unless sr.needs says the command needs none, when
// the log is read in one pass into a segmented sketch, taken as a
// sketch file's. Either way a segment's sample is its items for
// fit.StudySegments to split, so a log and its sketch --by fit alike.
func (r *readFlags) readSegments(e *env, args []string, sr segRead) ([]fit.Segment, logs.Stats, error) {
	if n := sr.needs; n != nil && !r.histogram && n.always == "" && rereadable(args) && len(args) > 0 && !isSketchFile(args[0]) {
		p, ok, err := r.segmentPass(e, args, sr, n.batches)
		if err != nil {
			return nil, p.stats, err
		}
		if ok && n.needsItems(p) == "" {
			return sketchSegments(p.sk), p.stats, nil
		}
	}
	if sr.needs != nil && sr.notes != nil && len(args) > 0 && isSketchFile(args[0]) {
		if note, err := segmentedSketchNote(args, sr); err == nil && note != "" {
			*sr.notes = append(*sr.notes, note)
		}
	}
	var segs []fit.Segment
	st, err := r.eachBy(e, args, sr.by, sr.cmd, func(it estimate.Item, w float64, seg int, v string) {
		if seg == len(segs) {
			segs = append(segs, fit.Segment{Value: v})
		}
		smp := &segs[seg].Sample
		smp.Items = append(smp.Items, it)
		if w != 1 || smp.Weights != nil {
			if smp.Weights == nil {
				smp.Weights = slices.Repeat([]float64{1}, len(smp.Items)-1)
			}
			smp.Weights = append(smp.Weights, w)
		}
	})
	return segs, st, err
}

// segmentedSketchNote says which shapes sr.needs looks for that a
// segmented sketch cannot serve: its values keep no item sample, so no
// signals or creation times. Those its item sample of all values shows
// absent are absent in every value; "" when that covers all.
func segmentedSketchNote(args []string, sr segRead) (string, error) {
	sk, err := readSketchesBy(args, sr.by, sr.cmd)
	if err != nil {
		return "", err
	}
	n := *sr.needs
	if sk.HasSample() {
		n.signals = n.signals && (partSample(sk, &sk.Fit, true).HasSignals() || partSample(sk, &sk.HeldOut, true).HasSignals())
		n.batches = n.batches && sk.SamplePeriodicity(estimate.PeriodOptions{}) != nil
	}
	why := strings.Join(args, ", ") + " is a segmented sketch, whose values keep no item sample"
	return unsought(why, n, "fit the log itself to look for them in each value"), nil
}

// segmentPass reads raw logs into a segmented sketch of sr's split in
// one pass, probing the whole log for a batch period when probe; ok is
// false when the column has more values than a segmented sketch keeps
// (the caller then reads the items).
func (r *readFlags) segmentPass(e *env, args []string, sr segRead, probe bool) (*logPass, bool, error) {
	sk, err := estimate.NewSegmentedSketch(sr.by, sr.holdout, sr.seed)
	if err != nil {
		return &logPass{}, false, usagef("%s: %v", sr.cmd, err)
	}
	p := &logPass{sk: sk}
	var acc *estimate.Accumulator
	if probe {
		acc = &estimate.Accumulator{}
	}
	var full error
	p.stats, err = r.eachBy(e, args, sr.by, sr.cmd, func(it estimate.Item, w float64, _ int, v string) {
		if full == nil {
			full = sk.AddBy(v, it, w)
		}
		if acc != nil {
			acc.AddPhase(it, w) // all Periodicity reads
		}
		p.signals = p.signals || it.HasSignal()
	})
	if err != nil || full != nil {
		return p, false, err
	}
	if probe {
		p.period = estimate.Periodicity(acc, estimate.PeriodOptions{})
	}
	return p, true, nil
}

// sketchSegments are a segmented sketch's segments as samples: each
// value's bins, both parts together.
func sketchSegments(s *estimate.Sketch) []fit.Segment {
	var segs []fit.Segment
	for _, g := range s.Segments {
		whole := g.Fit
		whole.Merge(&g.HeldOut)
		var smp fit.Sample
		smp.Items, smp.Weights = whole.Bins()
		segs = append(segs, fit.Segment{Value: g.Value, Sample: smp})
	}
	return segs
}

// eachBy streams the logs at args to fn with each item's weight, its
// value of column by and the value's index (logs.EachBy), with progress
// and warnings as each shows them. Sketches made with --by the same
// column give each segment's bins, both parts together.
func (r *readFlags) eachBy(e *env, args []string, by, cmd string, fn func(it estimate.Item, w float64, seg int, v string)) (logs.Stats, error) {
	if r.histogram {
		return logs.Stats{}, usagef("%s: --by %s: a histogram has no segment column: give the raw log, or a sketch made with pollfit sketch --by %s", cmd, by, by)
	}
	if len(args) > 0 && isSketchFile(args[0]) {
		sk, err := readSketchesBy(args, by, cmd)
		if err == nil {
			err = r.dropped(e, sk, strings.Join(args, ", "))
		}
		if err != nil {
			return logs.Stats{}, err
		}
		for i, s := range sketchSegments(sk) {
			for j, it := range s.Sample.Items {
				fn(it, s.Sample.Weights[j], i, s.Value)
			}
		}
		return sketchStats(sk, args), nil
	}
	return r.readLogs(e, args, func(opt logs.Options) (logs.Stats, error) {
		opt.By = by
		return logs.EachByContext(e.context(), args, opt, func(it estimate.Item, w float64, seg int, v string) { fn(it, w, seg, v) })
	})
}

// readSketchesBy reads and merges sketch files made with --by column by,
// naming the first file that is not one.
func readSketchesBy(args []string, by, cmd string) (*estimate.Sketch, error) {
	return mergeSketches(args, func(name string, s *estimate.Sketch) error {
		switch {
		case s.By == "" && s.Empty():
			s.By = by // an engine's export of an empty table says no column
		case s.By == "":
			return usagef("%s: --by %s: %s is a sketch without segments: make it with pollfit sketch --by %s (or pollfit sql --by %s), or give the log itself", cmd, by, name, by, by)
		case s.By != by:
			return usagef("%s: --by %s: %s is a sketch by %s: give --by %s, or a sketch made with --by %s", cmd, by, name, s.By, s.By, by)
		}
		return nil
	})
}

// segmentName is a segment's value for people, as -f dsl writes it:
// quoted when it is empty or holds spaces, quotes, colons or control
// characters.
func segmentName(v string) string { return export.DSLValue(v) }

// rereadable reports whether the logs at paths can be read twice (not
// stdin), as a segmented pass that finds it needs the items must.
func rereadable(paths []string) bool { return !slices.Contains(paths, "-") }
