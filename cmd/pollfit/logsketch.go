package main

import (
	"runtime"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
)

// itemNeeds says what per-item data a command may want from a raw log,
// which a sketch's bins do not keep. A command works from a sketch of
// the log, read in one streaming pass: from its bins, or from its item
// sample when it needs creation times or signals, unless it needs every
// row one by one.
type itemNeeds struct {
	// always names what needs every row one by one whatever the log
	// holds (--plot's lag curves, a strategy with jitter); "" for
	// nothing. The log is then read into items.
	always string
	// aligned names what asks by the wall clock (a schedule or a
	// baseline), which needs the creation times: the item sample.
	aligned string
	// signals: reset on signal is fitted or replayed, so a log with
	// signals needs the item sample; resets names the schedule or
	// baseline that resets on signal, if any.
	signals bool
	resets  string
	// batches: batch shapes are fitted, so a log whose creation times
	// show a batch period needs the item sample.
	batches bool
}

// sampleRows is the most rows a sketch made in a command's pass keeps in
// each part's item sample (a variable for the tests).
var sampleRows = estimate.DefaultSample

// withBaselines adds what the baselines replayed beside a fit need: a
// wall-clock aligned baseline needs the items' creation times, and one
// that resets on signal needs the signals.
func (n itemNeeds) withBaselines(bs []fit.Baseline) itemNeeds {
	for _, b := range bs {
		switch {
		case b.Schedule == nil:
		case len(b.Schedule.Aligned) > 0:
			n.aligned = "baseline " + b.Name + "'s wall-clock aligned asks"
		case b.Schedule.ResetOnSignal:
			n.signals, n.resets = true, "baseline "+b.Name
		}
	}
	return n
}

// logPass is what one streaming pass over raw logs found: the sketch,
// and whether the log holds what only its items carry.
type logPass struct {
	sk      *estimate.Sketch
	stats   logs.Stats
	signals bool             // some item has a signal
	period  *estimate.Period // the batch period of the whole log, when probed
}

// passSink is one goroutine's part of a logPass.
type passSink struct {
	sk      *estimate.Sketch
	signals bool
}

func (s *passSink) add(items []estimate.Item, ws []float64) {
	s.sk.AddRun(items, ws)
	if !s.signals {
		for i := range items {
			if items[i].HasSignal() {
				s.signals = true
				break
			}
		}
	}
}

// sketchLogs reads the logs at paths into a sketch of the given split,
// with item samples of k rows a part (0: none), in one pass, on
// logs.Sinks goroutines merged at the end; with probe it also folds the
// settle times of day of the item sample for estimate.Periodicity.
func (r *readFlags) sketchLogs(e *env, paths []string, holdout float64, seed uint64, k int, probe bool) (*logPass, error) {
	if _, err := estimate.NewSketch(holdout, seed); err != nil {
		return nil, usagef("--holdout %g: want a share in [0, 1)", holdout)
	}
	var sinks []*passSink
	newSink := func() func([]estimate.Item, []float64) {
		s := &passSink{sk: &estimate.Sketch{Holdout: holdout, Seed: seed, Sample: k}}
		sinks = append(sinks, s)
		return s.add
	}
	st, err := r.eachParallel(e, paths, newSink)
	if err != nil {
		return nil, err
	}
	p := &logPass{sk: sinks[0].sk, stats: st, signals: sinks[0].signals}
	for _, s := range sinks[1:] {
		if err := p.sk.Merge(s.sk); err != nil {
			return nil, err
		}
		p.signals = p.signals || s.signals
	}
	if probe {
		p.period = p.sk.SamplePeriodicity(estimate.PeriodOptions{})
	}
	// The other sinks' sketches, tens of megabytes each, are garbage now:
	// collect them at once rather than let the heap grow to twice the
	// pass's peak before the collector runs.
	sinks = nil
	runtime.GC()
	return p, nil
}

// sketchOf reads raw logs into a sketch of the given split, with item
// samples of k rows a part, in one parallel pass.
func (r *readFlags) sketchOf(e *env, paths []string, holdout float64, seed uint64, k int) (*estimate.Sketch, error) {
	p, err := r.sketchLogs(e, paths, holdout, seed, k, false)
	if err != nil {
		return nil, err
	}
	return p.sk, nil
}

// needsItems reports why the log read in p needs its item sample, given
// what the command may use ("" when the bins will do).
func (n itemNeeds) needsItems(p *logPass) string {
	switch {
	case n.aligned != "":
		return n.aligned
	case n.signals && p.signals:
		return "the log has signals"
	case n.batches && p.period != nil:
		return "the log settles in batches"
	}
	return ""
}

// logInput is a command's input read from raw logs: a sketch of them,
// or their items when the command needs every row one by one.
type logInput struct {
	smp    fit.Sample
	stats  logs.Stats
	sketch *estimate.Sketch // nil when smp holds the items
	// fromLog: sketch was made from raw logs in this run, not read.
	fromLog bool
	// sampled: smp is the sketch's item sample, not its bins, and why.
	sampled string
	// notes say what the input could not serve (shapes not looked for),
	// for the study's notes.
	notes []string
	// intervals describes interval-censored input (a poller log, a
	// metric), spread into smp; "" for any other.
	intervals string
}

// readLogInput reads raw logs (not sketch files) for a command that
// needs what n says, splitting them as holdout and seed say, in one
// pass: into a sketch, whose item sample the command uses when the pass
// finds that it needs creation times or signals, or into items for
// --histogram and when n needs every row.
func (r *readFlags) readLogInput(e *env, args []string, n itemNeeds, holdout float64, seed uint64) (logInput, error) {
	if r.histogram || n.always != "" {
		smp, st, err := r.readSample(e, args)
		in := logInput{smp: smp, stats: st}
		if note := unsought("a histogram keeps ages alone", n, "give the log itself"); r.histogram && note != "" {
			in.notes = append(in.notes, note)
		}
		return in, err
	}
	k := 0
	if n.signals || n.batches || n.aligned != "" {
		k = sampleRows
	}
	p, err := r.sketchLogs(e, args, holdout, seed, k, n.batches)
	if err != nil {
		return logInput{}, err
	}
	in := logInput{stats: p.stats, sketch: p.sk, fromLog: true, sampled: n.needsItems(p)}
	in.smp = partSample(p.sk, &p.sk.Fit, in.sampled != "")
	return in, nil
}

// sketchBins is the number of bins a sketch holds, both parts.
func sketchBins(s *estimate.Sketch) int {
	a, _ := s.Fit.Bins()
	b, _ := s.HeldOut.Bins()
	return len(a) + len(b)
}
