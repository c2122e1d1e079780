package source

import (
	"context"
	"fmt"
	"slices"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
)

// readGroups is Read with a group column (Options.Log.By): one sample
// per value in the order the values first came. A raw log is read in one
// pass into a sketch per value, each read as Read reads a log without
// the column: its bins, or when the pass finds the caller needs the item
// sample (Input.Sampled says why), the value's own item sample of
// SampleRows rows a part, the rows of least hash, which are the rows
// Read would sample of a log of that value's rows alone. Only when the
// caller needs the items (Needs.Always), the column has more values than
// a sketch with groups keeps, or the log is standard input (which cannot
// be read again should the pass find too many values) is each group its
// items. A sketch file's groups are their bins. Each group comes split
// as the log read without the group column is (the sketch's hash split
// of each row; Group.HeldOut), so that a row is fitted on or held out
// alike with and without the column, and a log and its sketch fit
// alike; only for a caller that needs every row (Needs.Always) is a
// group its rows whole, unsplit.
func readGroups(ctx context.Context, paths []string, opt Options) (*Input, error) {
	in := &Input{}
	switch {
	case opt.StreamBy != nil:
		err := in.eachBy(ctx, paths, opt, opt.StreamBy)
		return in, err
	case opt.Sketch && sketchInput(paths):
		sk, warn, err := readSketches(paths, opt, true)
		if err != nil {
			return nil, err
		}
		return &Input{Stats: sketchStats(sk, paths), Sketch: sk, Warnings: warn}, nil
	case opt.Sketch:
		return groupSketch(ctx, paths, opt)
	}
	n := opt.Needs
	if n.Always == "" && !slices.Contains(paths, "-") && len(paths) > 0 && !sketchInput(paths) {
		p, ok, err := in.groupPass(ctx, paths, opt)
		if err != nil {
			return in, err
		}
		if ok {
			in.Sketch, in.FromLog, in.Sampled = p.sk, true, n.needsItems(p)
			in.Groups = sketchGroups(p.sk, in.Sampled != "")
			in.setSamples() // the whole, as Read without the column gives it
			// The values' parts are the groups now: memory keeps their
			// samples, not a sketch of every value.
			p.sk.DropGroups()
			return in, nil
		}
	}
	if n.Always == "" && sketchInput(paths) {
		return sketchFileGroups(paths, opt)
	}
	share := opt.Holdout
	if n.Always != "" {
		share = 0 // the rows whole
	}
	var groups []*sampleGroup
	err := in.eachBy(ctx, paths, opt, func(it estimate.Item, w float64, g int, v string) {
		if g == len(groups) {
			groups = append(groups, &sampleGroup{value: v})
		}
		groups[g].add(it, w, share, opt.Seed)
	})
	for _, g := range groups {
		seg := fit.Group{Value: g.value, Sample: g.fitOn}
		if share > 0 {
			seg.HeldOut = &fit.HeldOut{Sample: g.heldOut, Holdout: share, Seed: opt.Seed}
		}
		in.Groups = append(in.Groups, seg)
	}
	in.All = joinGroups(in.Groups)
	return in, err
}

// sketchFileGroups are the groups of sketch files split by the group
// column: each value's bins in the parts of the sketch's split.
func sketchFileGroups(paths []string, opt Options) (*Input, error) {
	sk, warn, err := readSketches(paths, opt, true)
	if err != nil {
		return nil, err
	}
	if opt.KeepSplit && (sk.Holdout != opt.Holdout || sk.Seed != opt.Seed) {
		return nil, &SplitError{Holdout: sk.Holdout, Seed: sk.Seed, WantHoldout: opt.Holdout, WantSeed: opt.Seed}
	}
	in := &Input{Stats: sketchStats(sk, paths), Sketch: sk, Warnings: warn, Groups: sketchGroups(sk, false)}
	if note := groupSketchNote(sk, paths, opt); note != "" {
		in.Notes = append(in.Notes, note)
	}
	in.setSamples() // the whole's bins, as the log's one pass gives them
	return in, nil
}

// joinGroups is the groups' items together, both parts, weighted when
// any is.
func joinGroups(groups []fit.Group) fit.Sample {
	var smps []fit.Sample
	for _, g := range groups {
		smps = append(smps, g.Sample)
		if g.HeldOut != nil {
			smps = append(smps, g.HeldOut.Sample)
		}
	}
	return fit.JoinSamples(smps...)
}

// sampleGroup is one value's items in the parts of a split, each
// weighted from the first weight other than 1 on.
type sampleGroup struct {
	value          string
	fitOn, heldOut fit.Sample
}

// add adds a row standing for w rows, to the parts the sketch's split
// of share and seed puts it in (share 0: all to fitOn).
func (g *sampleGroup) add(it estimate.Item, w, share float64, seed uint64) {
	fitW, outW := w, 0.0
	if share > 0 {
		fitW, outW = estimate.SplitRow(it, w, share, seed)
	}
	if fitW > 0 || outW == 0 {
		addRow(&g.fitOn, it, fitW)
	}
	if outW > 0 {
		addRow(&g.heldOut, it, outW)
	}
}

func addRow(s *fit.Sample, it estimate.Item, w float64) {
	s.Items = append(s.Items, it)
	if w != 1 || s.Weights != nil {
		if s.Weights == nil {
			s.Weights = slices.Repeat([]float64{1}, len(s.Items)-1)
		}
		s.Weights = append(s.Weights, w)
	}
}

// groupSketchNote says which shapes opt.Needs looks for that a sketch
// with groups cannot serve: its values keep no item sample, so no
// signals or creation times. Those its item sample of all values shows
// absent are absent in every value; "" when that covers all.
func groupSketchNote(sk *estimate.Sketch, paths []string, opt Options) string {
	n := opt.Needs
	if sk.HasSample() {
		n.Signals = n.Signals && wholeParts(sk).hasSignals()
		n.Batches = n.Batches && sk.SamplePeriodicity(estimate.PeriodOptions{}) != nil
	}
	why := names(paths) + " is a grouped sketch, whose values keep no item sample"
	return n.unsought(why, "fit the log itself to look for them in each value")
}

// groupPass reads raw logs into a sketch per value of opt's split in one
// pass, with item samples of the whole and of each value as Read keeps
// them without a group column (when opt.Needs asks for items), probing
// the whole's sample for a batch period as Read does; ok is false when
// the column has more values than such a sketch keeps (the caller then
// reads the items).
func (in *Input) groupPass(ctx context.Context, paths []string, opt Options) (*pass, bool, error) {
	sk, err := estimate.NewGroupedSketch(opt.Log.By, opt.Holdout, opt.Seed)
	if err != nil {
		return &pass{}, false, err
	}
	sk.Sample, sk.GroupSample = opt.passSample(), opt.passSample()
	p := &pass{sk: sk}
	var full error
	err = in.eachBy(ctx, paths, opt, func(it estimate.Item, w float64, _ int, v string) {
		if full == nil {
			full = sk.AddBy(v, it, w)
		}
		p.signals = p.signals || it.HasSignal()
	})
	p.stats = in.Stats
	if err != nil || full != nil {
		return p, false, err
	}
	if opt.Needs.Batches {
		p.period = sk.SamplePeriodicity(estimate.PeriodOptions{})
	}
	return p, true, nil
}

// groupSketch reads raw logs into a sketch per value of opt.Log.By, with
// item samples of SampleRows rows a part (of all values together).
func groupSketch(ctx context.Context, paths []string, opt Options) (*Input, error) {
	s, err := estimate.NewGroupedSketch(opt.Log.By, opt.Holdout, opt.Seed)
	if err != nil {
		return nil, err
	}
	s.Sample, s.GroupSample = opt.SampleRows, 0 // a sketch file keeps no value's sample
	in := &Input{Sketch: s, FromLog: true}
	var full error
	err = in.eachBy(ctx, paths, opt, func(it estimate.Item, w float64, _ int, v string) {
		if full == nil {
			full = s.AddBy(v, it, w)
		}
	})
	if err == nil && full != nil {
		err = &GroupsError{Column: opt.Log.By, Err: full}
	}
	return in, err
}

// sketchGroups are a sketch's groups as samples, as Read gives them:
// each value's parts, their bins or with sampled their item samples
// (valueParts); a sketch that holds nothing out gives each value one
// part, unsplit.
func sketchGroups(s *estimate.Sketch, sampled bool) []fit.Group {
	var groups []fit.Group
	for _, g := range s.Groups {
		ps := valueParts(s, g)
		seg := fit.Group{Value: g.Value}
		if s.Holdout > 0 {
			seg.Sample = ps.sample(ps.fit, sampled)
			seg.HeldOut = &fit.HeldOut{Sample: ps.sample(ps.held, sampled), Holdout: s.Holdout, Seed: s.Seed}
		} else {
			seg.Sample = ps.all(sampled)
		}
		groups = append(groups, seg)
	}
	return groups
}

// mergedGroups are a sketch's groups as the bins of both parts
// together, one sample a value.
func mergedGroups(s *estimate.Sketch) []fit.Group {
	var groups []fit.Group
	for _, g := range s.Groups {
		var whole estimate.SketchPart
		whole.Merge(&g.Fit)
		whole.Merge(&g.HeldOut)
		groups = append(groups, fit.Group{Value: g.Value, Sample: binSample(&whole)})
	}
	return groups
}

// binSample is a sketch part's bins as a weighted sample.
func binSample(p *estimate.SketchPart) fit.Sample {
	smp := fit.Sample{Items: []estimate.Item{}, Weights: []float64{}}
	items, ws := p.Bins()
	smp.Items, smp.Weights = append(smp.Items, items...), append(smp.Weights, ws...)
	return smp
}

// eachBy streams the logs at paths to fn with each item's weight, its
// value of the group column and the value's index (logs.EachBy); sketch
// files split by the same column give each value's bins, both parts
// together. It sets in.Stats and adds the read's warnings.
func (in *Input) eachBy(ctx context.Context, paths []string, opt Options, fn func(it estimate.Item, w float64, g int, v string)) error {
	if sketchInput(paths) {
		sk, warn, err := readSketches(paths, opt, true)
		if err != nil {
			return err
		}
		in.Warnings = append(in.Warnings, warn...)
		for i, s := range mergedGroups(sk) {
			for j, it := range s.Sample.Items {
				fn(it, s.Sample.Weights[j], i, s.Value)
			}
		}
		in.Stats = sketchStats(sk, paths)
		return nil
	}
	st, err := logs.EachByContext(ctx, paths, opt.Log, fn)
	in.Stats = st
	if err != nil {
		return fmt.Errorf("read %w", err)
	}
	in.Warnings = append(in.Warnings, st.Warnings...)
	return nil
}
