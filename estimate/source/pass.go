package source

import (
	"context"
	"fmt"
	"runtime"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
)

// pass is what one streaming pass over raw logs found: the sketch, and
// whether the log holds what only its items carry.
type pass struct {
	sk      *estimate.Sketch
	stats   logs.Stats
	signals bool             // some item has a signal
	period  *estimate.Period // the batch period of the whole log, when probed
}

// passSink is one goroutine's part of a pass.
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

// sketchLogs reads the raw logs at paths into a sketch of opt's split,
// with item samples of k rows a part (0: none), in one pass, on
// logs.Sinks goroutines merged at the end; with probe it also folds the
// settle times of day of the item sample for estimate.Periodicity.
func sketchLogs(ctx context.Context, paths []string, opt Options, k int, probe bool) (*pass, error) {
	var sinks []*passSink
	newSink := func() func([]estimate.Item, []float64) {
		s := &passSink{sk: &estimate.Sketch{Holdout: opt.Holdout, Seed: opt.Seed, Sample: k}}
		sinks = append(sinks, s)
		return s.add
	}
	st, err := logs.EachParallel(ctx, paths, opt.Log, newSink)
	if err != nil {
		return &pass{stats: st}, fmt.Errorf("read %w", err)
	}
	p := &pass{sk: sinks[0].sk, stats: st, signals: sinks[0].signals}
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

// stream hands the logs at paths to opt.Stream's sinks: a sketch's bins
// all to one, raw logs' items on logs.Sinks goroutines.
func stream(ctx context.Context, paths []string, opt Options) (*Input, error) {
	if sketchInput(paths) {
		sk, warn, err := readSketches(paths, opt, false)
		if err != nil {
			return nil, err
		}
		run := opt.Stream()
		for _, p := range []*estimate.SketchPart{&sk.Fit, &sk.HeldOut} {
			run(p.Bins())
		}
		return &Input{Stats: sketchStats(sk, paths), Warnings: warn}, nil
	}
	st, err := logs.EachParallel(ctx, paths, opt.Log, opt.Stream)
	in := &Input{Stats: st, Warnings: st.Warnings}
	if err != nil {
		return in, fmt.Errorf("read %w", err)
	}
	return in, nil
}

// readItems reads the logs at paths into one sample: for histograms
// (Log.Histogram) each bin's items weighted by their counts, else every
// item once (nil weights).
func readItems(ctx context.Context, paths []string, opt Options) (*Input, error) {
	smp := newSample(opt.Log.Histogram)
	var st logs.Stats
	var err error
	if opt.Log.Histogram {
		st, err = logs.EachWeightedContext(ctx, paths, opt.Log, smp.add)
	} else {
		st, err = logs.EachContext(ctx, paths, opt.Log, func(it estimate.Item) { smp.add(it, 1) })
	}
	in := &Input{FitOn: smp.Sample, All: smp.Sample, Stats: st, Warnings: st.Warnings}
	if err != nil {
		return in, fmt.Errorf("read %w", err)
	}
	return in, nil
}
