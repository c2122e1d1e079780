package source

import (
	"context"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
)

// Input is what Read found: samples ready to fit, with what reading
// them counted.
type Input struct {
	// FitOn is the sample to fit on. HeldOut is its held-out part when
	// the read split the log (a sketch's hash split): give both to
	// fit.Study. HeldOut is nil when FitOn holds every item read, one by
	// one, for fit.Study to split itself (Needs.Always, a histogram).
	FitOn   fit.Sample
	HeldOut *fit.HeldOut
	// All is every row read as one sample, both parts of a sketch
	// together: what a replay of schedules (fit.Replay) measures on.
	All fit.Sample
	// Groups are the samples of the values of the group column
	// (Options.Log.By), in the order the values first came, each its
	// items, its sketch's bins or its item sample, split as the sketch
	// splits (Group.HeldOut) unless the items were read, for
	// fit.StudyGroups; FitOn and HeldOut are then all values
	// together, as without the column, when one pass read them (Whole
	// gives the shared schedule FitOn).
	Groups []fit.Group
	Stats  logs.Stats
	// Sketch is the sketch read or made, nil when the items were read;
	// for groups read from raw logs in one pass, the sketch of all values
	// together, whose values' parts became Groups (and are dropped).
	// FromLog: it was made from raw logs by this read, not read from
	// sketch files.
	Sketch  *estimate.Sketch
	FromLog bool
	// Sampled says why FitOn is the sketch's item sample, not its bins
	// ("" for the bins).
	Sampled string
	// Warnings are what reading the logs found worth telling (bad rows
	// skipped, rows a SQL engine's query left out), Notes the shapes the
	// input could not serve, for a study's notes.
	Warnings, Notes []string
}

// Read opens the logs at paths — CSV or Parquet logs, folders, globs,
// "-" for standard input, histograms (Options.Log.Histogram), or sketch
// files, told apart by their first bytes — and returns them as samples
// ready to fit: one group (FitOn, HeldOut, All) without a group column,
// one per value (Groups) with Options.Log.By. A raw log goes through a
// sketch of the split Options asks for, read in one streaming pass on
// logs.Sinks goroutines, so memory stays flat in the log's size: the
// sketch's bins, or its item sample when the pass finds the caller
// needs creation times or signals (Options.Needs); only a caller that
// needs every row one by one (Needs.Always) gets the items. A sketch
// file keeps the split it was written with. Read stops soon after ctx
// is done, with ctx's error wrapped.
//
// Errors name Options' fields: *OptionError, *SplitError,
// *NoSampleError, *GroupColumnError, *GroupsError, *DroppedError, or a
// reader's error wrapped (logs.RowError, logs.MissingColumnsError, ...).
func Read(ctx context.Context, paths []string, opt Options) (*Input, error) {
	ctx = ctxOrBackground(ctx)
	if err := opt.check(); err != nil {
		return nil, err
	}
	switch {
	case opt.Log.By != "":
		return readGroups(ctx, paths, opt)
	case opt.Stream != nil:
		return stream(ctx, paths, opt)
	case opt.Sketch:
		return makeSketch(ctx, paths, opt)
	case sketchInput(paths):
		return readSketchFiles(paths, opt)
	case opt.Log.Histogram || opt.Needs.Always != "":
		in, err := readItems(ctx, paths, opt)
		if note := opt.Needs.unsought("a histogram keeps ages alone", "give the log itself"); err == nil && opt.Log.Histogram && note != "" {
			in.Notes = append(in.Notes, note)
		}
		return in, err
	}
	p, err := sketchLogs(ctx, paths, opt, opt.passSample(), opt.Needs.Batches)
	if err != nil {
		return &Input{Stats: p.stats}, err
	}
	in := &Input{Stats: p.stats, Warnings: p.stats.Warnings, Sketch: p.sk, FromLog: true, Sampled: opt.Needs.needsItems(p)}
	in.setSamples()
	return in, nil
}

// Whole is the fitting items of all groups as one, for
// fit.StudyGroups' shared schedule: the fitting part Read gives without
// the group column, when it read the groups from one pass (nil when the
// groups are each value's items: the shared schedule then fits their
// fitting parts joined).
func (in *Input) Whole() *fit.Sample {
	if len(in.Groups) == 0 || in.HeldOut == nil {
		return nil
	}
	return &in.FitOn
}

// setSamples fills FitOn, HeldOut and All from the sketch.
func (in *Input) setSamples() {
	ps, sampled := wholeParts(in.Sketch), in.Sampled != ""
	in.FitOn, in.HeldOut = ps.split(sampled)
	in.All = ps.all(sampled)
}

// readSketchFiles reads and merges sketch files, a sketch with groups as
// the sum of its groups, using their item samples when opt.Needs asks.
func readSketchFiles(paths []string, opt Options) (*Input, error) {
	sk, warn, err := readSketches(paths, opt, false)
	if err != nil {
		return nil, err
	}
	if opt.KeepSplit && (sk.Holdout != opt.Holdout || sk.Seed != opt.Seed) {
		return nil, &SplitError{Holdout: sk.Holdout, Seed: sk.Seed, WantHoldout: opt.Holdout, WantSeed: opt.Seed}
	}
	in := &Input{Stats: sketchStats(sk, paths), Sketch: sk, Warnings: warn}
	if opt.Needs.Always == "" {
		var note string
		if in.Sampled, note, err = opt.Needs.sketchNeeds(sk, paths); err != nil {
			return nil, err
		}
		if note != "" {
			in.Notes = append(in.Notes, note)
		}
	}
	in.setSamples()
	return in, nil
}

// makeSketch is Read for Options.Sketch: sketch files merged, keeping
// their groups, or raw logs sketched with SampleRows rows of item sample
// a part.
func makeSketch(ctx context.Context, paths []string, opt Options) (*Input, error) {
	if sketchInput(paths) {
		sk, warn, err := readSketches(paths, opt, true)
		if err != nil {
			return nil, err
		}
		return &Input{Stats: sketchStats(sk, paths), Sketch: sk, Warnings: warn}, nil
	}
	p, err := sketchLogs(ctx, paths, opt, opt.SampleRows, false)
	if err != nil {
		return &Input{Stats: p.stats}, err
	}
	return &Input{Stats: p.stats, Warnings: p.stats.Warnings, Sketch: p.sk, FromLog: true}, nil
}

// SampledRows is the number of rows of the sketch's item samples, both
// parts (0 without a sketch).
func (in *Input) SampledRows() int {
	if in.Sketch == nil {
		return 0
	}
	rows := 0
	for _, p := range []*estimate.SketchPart{&in.Sketch.Fit, &in.Sketch.HeldOut} {
		items, _, _ := p.Sampled()
		rows += len(items)
	}
	return rows
}

// Bins is the number of bins the sketch holds, both parts (0 without a
// sketch).
func (in *Input) Bins() int {
	if in.Sketch == nil {
		return 0
	}
	a, _ := in.Sketch.Fit.Bins()
	b, _ := in.Sketch.HeldOut.Bins()
	return len(a) + len(b)
}

// sampleBuilder collects items into a sample, weighted or not.
type sampleBuilder struct {
	fit.Sample
	weighted bool
}

func newSample(weighted bool) *sampleBuilder {
	b := &sampleBuilder{weighted: weighted}
	if weighted {
		b.Weights = []float64{}
	}
	return b
}

func (b *sampleBuilder) add(it estimate.Item, w float64) {
	b.Items = append(b.Items, it)
	if b.weighted {
		b.Weights = append(b.Weights, w)
	}
}
