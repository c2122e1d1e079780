package main

import (
	"slices"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
)

// itemNeeds says what per-item data a command may want from a raw log,
// which a sketch does not keep. A command works from a sketch of the log,
// read in one streaming pass, unless it needs the items themselves.
type itemNeeds struct {
	// always names what needs the items whatever the log holds (a
	// wall-clock aligned schedule, --plot's lag curves); "" for nothing.
	always string
	// signals: reset on signal is fitted or replayed, so a log with
	// signals needs its items.
	signals bool
	// batches: batch shapes are fitted, so a log whose creation times
	// show a batch period needs its items.
	batches bool
}

// withBaselines adds what the baselines replayed beside a fit need: a
// wall-clock aligned baseline needs the items' creation times, and one
// that resets on signal needs the signals.
func (n itemNeeds) withBaselines(bs []fit.Baseline) itemNeeds {
	for _, b := range bs {
		switch {
		case b.Schedule == nil:
		case len(b.Schedule.Aligned) > 0:
			n.always = "baseline " + b.Name + "'s wall-clock aligned asks"
		case b.Schedule.ResetOnSignal:
			n.signals = true
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
	acc     *estimate.Accumulator // nil unless batches are probed
	signals bool
}

func (s *passSink) add(it estimate.Item, w float64) {
	s.sk.Add(it, w)
	if s.acc != nil {
		s.acc.AddPhase(it, w)
	}
	if !s.signals && it.HasSignal() {
		s.signals = true
	}
}

// sketchLogs reads the logs at paths into a sketch of the given split in
// one pass, on logs.Sinks goroutines merged at the end; with probe it
// also folds the settle times of day for estimate.Periodicity.
func (r *readFlags) sketchLogs(e *env, paths []string, holdout float64, seed uint64, probe bool) (*logPass, error) {
	if _, err := estimate.NewSketch(holdout, seed); err != nil {
		return nil, usagef("--holdout %g: want a share in [0, 1)", holdout)
	}
	var sinks []*passSink
	newSink := func() func(estimate.Item, float64) {
		s := &passSink{sk: &estimate.Sketch{Holdout: holdout, Seed: seed}}
		if probe {
			s.acc = &estimate.Accumulator{}
		}
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
		if probe {
			sinks[0].acc.Merge(s.acc)
		}
	}
	if probe {
		p.period = estimate.Periodicity(sinks[0].acc, estimate.PeriodOptions{})
	}
	return p, nil
}

// sketchOf reads raw logs into a sketch of the given split, in one
// parallel pass.
func (r *readFlags) sketchOf(e *env, paths []string, holdout float64, seed uint64) (*estimate.Sketch, error) {
	p, err := r.sketchLogs(e, paths, holdout, seed, false)
	if err != nil {
		return nil, err
	}
	return p.sk, nil
}

// needsItems reports why the log read in p needs its items, given what
// the command may use ("" when the sketch will do).
func (n itemNeeds) needsItems(p *logPass) string {
	switch {
	case n.signals && p.signals:
		return "the log has signals"
	case n.batches && p.period != nil:
		return "the log settles in batches"
	}
	return ""
}

// rereadable reports whether every input can be read twice: standard
// input cannot.
func rereadable(paths []string) bool { return !slices.Contains(paths, "-") }

// logInput is a command's input read from raw logs: a sketch of them
// when the command needs no per-item data, else their items.
type logInput struct {
	smp    fit.Sample
	stats  logs.Stats
	sketch *estimate.Sketch // nil when smp holds the items
	// fromLog: sketch was made from raw logs in this run, not read.
	fromLog bool
}

// readLogInput reads raw logs (not sketch files) for a command that
// needs what n says, splitting them as holdout and seed say when they go
// to a sketch. When the pass finds that the items are needed, the logs
// are read again into items.
func (r *readFlags) readLogInput(e *env, args []string, n itemNeeds, holdout float64, seed uint64) (logInput, error) {
	if r.histogram || n.always != "" || ((n.signals || n.batches) && !rereadable(args)) {
		smp, st, err := r.readSample(e, args)
		return logInput{smp: smp, stats: st}, err
	}
	p, err := r.sketchLogs(e, args, holdout, seed, n.batches)
	if err != nil {
		return logInput{}, err
	}
	if why := n.needsItems(p); why != "" {
		smp, st, err := r.readSample(e, args) // a second pass, for the items
		return logInput{smp: smp, stats: st}, err
	}
	in := logInput{stats: p.stats, sketch: p.sk, fromLog: true}
	in.smp.Items, in.smp.Weights = p.sk.Fit.Bins()
	return in, nil
}

// sketchBins is the number of bins a sketch holds, both parts.
func sketchBins(s *estimate.Sketch) int {
	a, _ := s.Fit.Bins()
	b, _ := s.HeldOut.Bins()
	return len(a) + len(b)
}
