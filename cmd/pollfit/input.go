package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit"
)

// sampleRows is the most rows a sketch made in a command's pass keeps in
// each part's item sample (a variable for the tests).
var sampleRows = estimate.DefaultSample

// read reads the logs at args for command cmd through source.Read, with
// the read flags' options, showing progress on a terminal and printing
// the read's warnings to stderr unless --quiet; source's errors become
// the command's, worded in flags (readError).
func (r *readFlags) read(e *env, args []string, cmd string, so source.Options) (*source.Input, error) {
	if r.histogram && so.Log.By != "" {
		return nil, usagef("%s: --by %s: a histogram has no group column: give the raw log, or a sketch made with pollfit sketch --by %s", cmd, so.Log.By, so.Log.By)
	}
	opt, err := r.options()
	if err != nil {
		return nil, err
	}
	opt.By = so.Log.By
	so.Log = opt
	var p *progress
	if !r.quiet && isTerminal(e.stderr) {
		p = &progress{w: e.stderr, start: time.Now()}
		so.Log.Progress = p.update
	}
	in, err := source.Read(e.context(), args, so)
	p.clear()
	if err != nil {
		return in, readError(cmd, so, err)
	}
	if !r.quiet {
		for _, w := range in.Warnings {
			fmt.Fprintf(e.stderr, "pollfit: warning: %s\n", w)
		}
	}
	return in, nil
}

// readError words source's typed errors in the command's flags: the one
// table from source's fields to pollfit's flags.
func readError(cmd string, so source.Options, err error) error {
	var (
		split   *source.SplitError
		noSmp   *source.NoSampleError
		column  *source.GroupColumnError
		groups  *source.GroupsError
		dropped *source.DroppedError
		opt     *source.OptionError
	)
	by := so.Log.By
	switch {
	case errors.As(err, &split):
		return usagef("the sketches split %g (seed %d), not --holdout %g --seed %d: a sketch keeps the split it was written with; leave out --holdout and --seed, or sketch the log again with them", split.Holdout, split.Seed, split.WantHoldout, split.WantSeed)
	case errors.As(err, &noSmp):
		return fmt.Errorf("%v: sketch the log with pollfit sketch (not --sample 0), which keeps an item sample (a SQL engine's sketch keeps none)", noSmp)
	case errors.As(err, &column) && column.Got == "":
		return usagef("%s: --by %s: %s is a sketch without groups: make it with pollfit sketch --by %s (or pollfit sql --by %s), or give the log itself", cmd, by, column.File, by, by)
	case errors.As(err, &column):
		return usagef("%s: --by %s: %s is a sketch by %s: give --by %s, or a sketch made with --by %s", cmd, by, column.File, column.Got, column.Got, by)
	case errors.As(err, &groups):
		return fmt.Errorf("sketch: --by %s: %v", by, strings.TrimPrefix(groups.Err.Error(), "sketch: "))
	case errors.As(err, &dropped):
		return droppedError(dropped)
	case errors.As(err, &opt) && opt.Field == "Holdout":
		return usagef("--holdout %g: want a share in [0, 1)", so.Holdout)
	case errors.As(err, &opt) && opt.Field == "Pending" && opt.Value == "": // source.IntervalOptions': given with Never
		return usagef("--pending and --never both say how many never answered: give one")
	case errors.As(err, &opt) && (opt.Field == "Pending" || opt.Field == "Never"):
		return usagef("--%s %s: want %s", strings.ToLower(opt.Field), opt.Value, opt.Want)
	case errors.As(err, &opt):
		return usagef("%s: %v", cmd, err)
	}
	return err
}

// droppedError is the rule for rows a SQL engine's query left out,
// worded in flags.
func droppedError(d *source.DroppedError) error {
	return fmt.Errorf("%v: fix them in the table, or give --skip-bad to skip them", d)
}

// studyNeeds is what a study with the fit flags v and the baselines bs
// may need of the items.
func studyNeeds(v *fitFlagValues, bs []fit.Baseline) source.Needs {
	return source.Needs{Signals: v.signals, Batches: v.batches}.WithBaselines(bs)
}

// studied is a study's input, with intervals describing
// interval-censored input (a poller log, a metric, a sketch with an
// interval part) for the report's header ("" for any other).
type studied struct {
	*source.Input
	intervals string
}

// studyInput reads the inputs of a study: a sketch's fitting and
// held-out parts, or a log read in one pass into a sketch of the
// study's split, unless the study may need its items; then the study
// splits the items itself. A sketch's split was made when it was
// written: with --holdout or --seed given it must be the one asked for.
// Interval-censored input is split by the study's split and spread.
func (r *readFlags) studyInput(e *env, args []string, cmd string, v *fitFlagValues, bs []fit.Baseline) (*studied, error) {
	if in, ok, err := r.intervalStudyInput(e.context(), args, v.holdout, v.seed); ok {
		return in, err
	}
	in, err := r.read(e, args, cmd, source.Options{Holdout: v.holdout, Seed: v.seed, KeepSplit: v.splitGiven(),
		Needs: studyNeeds(v, bs), SampleRows: sampleRows})
	st := &studied{Input: in}
	if err == nil && in.Sketch != nil && in.Sketch.HasIntervals() {
		st.intervals = sketchIntervalsText(in.Sketch, args)
	}
	return st, err
}

// studyOptions are opt for a study of in: on interval-censored input
// the limit is left out, as hindsight on spread ages would be hindsight
// on the assumed density.
func (in *studied) studyOptions(opt fit.StudyOptions) fit.StudyOptions {
	if in.intervals != "" {
		opt.NoLimit = intervalLimitNote
	}
	return opt
}

// inputSource describes the input of a study for the report's header.
func inputSource(args []string, in *studied) string {
	names := strings.Join(args, ", ")
	switch {
	case in.intervals != "":
		return in.intervals
	case in.Sampled != "":
		return fmt.Sprintf("%s (%d items, %s)", names, in.Stats.Items, sampleSource(in.Input))
	case in.Sketch != nil && in.FromLog:
		return fmt.Sprintf("%s (%d items, read into a sketch of %d bins)", names, in.Stats.Items, in.Bins())
	case in.FitOn.Weighted():
		return fmt.Sprintf("%s (%d items in %d bins)", names, in.Stats.Items, in.Stats.Rows)
	}
	return fmt.Sprintf("%s (%d items)", names, in.Stats.Items)
}

// sampleSource says which item sample a study used, for its header.
func sampleSource(in *source.Input) string {
	if !in.FitOn.Weighted() {
		return "all kept in the sketch's item sample, as " + in.Sampled
	}
	return fmt.Sprintf("fitted and measured on the sketch's item sample by hash of %d rows, as %s", in.SampledRows(), in.Sampled)
}
