package source

import (
	"fmt"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
)

// parts are the two parts of a sketch, or of one value of a segmented
// sketch, with the sketch that holds them (its split, and whether it
// holds intervals) and the most rows each part's item sample keeps: the
// one place the rules below take a sketch's parts from, so that a value
// of a group column is read as the log of its rows alone would be.
type parts struct {
	s         *estimate.Sketch
	fit, held *estimate.SketchPart
	k         int
}

// wholeParts are sketch s's parts, of all values together.
func wholeParts(s *estimate.Sketch) parts { return parts{s, &s.Fit, &s.HeldOut, s.Sample} }

// valueParts are the parts of value g of grouped sketch s.
func valueParts(s *estimate.Sketch, g *estimate.SketchGroup) parts {
	return parts{s, &g.Fit, &g.HeldOut, s.GroupSample}
}

// sample is part p as a sample: its bins, or with sampled its item
// sample. A sample that holds every row of the part, each a whole
// number of times and in all no more rows than the sample keeps, is
// given row by row (no weights), as the items themselves would be; else
// each sampled row is weighted by the rows it stands for.
func (ps parts) sample(p *estimate.SketchPart, sampled bool) fit.Sample {
	var smp fit.Sample
	if ps.s.HasIntervals() { // a read sketch's intervals are valid: no error
		smp, _ = intervalPartSample(ps.s, p)
		return smp
	}
	if !sampled {
		smp.Items, smp.Weights = p.Bins()
		return smp
	}
	items, ws, scale := p.Sampled()
	if scale == 1 && wholeCounts(ws, ps.k) {
		smp.Items = []estimate.Item{}
		for i, it := range items {
			for range int(ws[i]) {
				smp.Items = append(smp.Items, it)
			}
		}
		return smp
	}
	smp.Items, smp.Weights, smp.Scale = items, ws, scale
	if smp.Weights == nil {
		smp.Weights = []float64{}
	}
	return smp
}

// hasSignals reports whether either part's item sample has a signal.
func (ps parts) hasSignals() bool {
	return ps.sample(ps.fit, true).HasSignals() || ps.sample(ps.held, true).HasSignals()
}

// wholeCounts reports whether the weights are whole numbers adding up
// to at most k.
func wholeCounts(ws []float64, k int) bool {
	var t float64
	for _, w := range ws {
		if w != float64(int64(w)) {
			return false
		}
		t += w
	}
	return t <= float64(k)
}

// split is the parts as a study's input: the fitting part, and the
// held-out part with the split that made it; the parts' bins, or with
// sampled their item samples. A sketch that holds nothing out is
// measured on its fitting part; a few rows all hashed to one part go to
// fit.Study whole, to split itself as the sketch's split says.
func (ps parts) split(sampled bool) (fit.Sample, *fit.HeldOut) {
	h, seed := ps.s.Holdout, ps.s.Seed
	fitOn, heldOut := ps.sample(ps.fit, sampled), ps.sample(ps.held, sampled)
	switch {
	case h == 0:
		return fitOn, &fit.HeldOut{Sample: fitOn, Holdout: 0, Seed: seed}
	case fitOn.Len() == 0 || heldOut.Len() == 0:
		fitOn.Items = append(fitOn.Items, heldOut.Items...)
		fitOn.Weights = append(fitOn.Weights, heldOut.Weights...)
		a, b := fit.SplitSample(fitOn, h, seed)
		if a.Len() == 0 || b.Len() == 0 {
			a, b = fitOn, fit.Sample{} // Study says so and measures on the fitting items
		}
		return a, &fit.HeldOut{Sample: b, Holdout: h, Seed: seed}
	}
	return fitOn, &fit.HeldOut{Sample: heldOut, Holdout: h, Seed: seed}
}

// all is both parts as one sample.
func (ps parts) all(sampled bool) fit.Sample {
	return fit.JoinSamples(ps.sample(ps.fit, sampled), ps.sample(ps.held, sampled))
}

// needsItems reports why the log read in p needs its item sample, given
// what the caller may use ("" when the bins will do).
func (n Needs) needsItems(p *pass) string {
	switch {
	case n.Aligned != "":
		return n.Aligned
	case n.Signals && p.signals:
		return "the log has signals"
	case n.Batches && p.period != nil:
		return "the log settles in batches"
	}
	return ""
}

// sketchNeeds is needsItems for a sketch file, from its item sample:
// why the caller uses the sample, "" for the bins. A sketch without a
// sample (a SQL engine's, or one written with no sample) has neither
// creation times nor signals: asks by the wall clock or a schedule that
// resets on signal are a *NoSampleError, and a fit that would look for
// reset on signal or batch asks goes without, which note says.
func (n Needs) sketchNeeds(s *estimate.Sketch, paths []string) (sampled, note string, err error) {
	files := names(paths)
	if !s.HasSample() {
		const fix = "sketch the log with pollfit sketch (not --sample 0), which keeps an item sample (a SQL engine's sketch keeps none)"
		switch {
		case n.Aligned != "":
			return "", "", &NoSampleError{Files: files, Missing: "creation times", Need: n.Aligned, Plural: true}
		case n.Resets != "":
			return "", "", &NoSampleError{Files: files, Missing: "signals", Need: n.Resets}
		}
		return "", n.unsought(files+" keeps no item sample", fix), nil
	}
	p := &pass{sk: s}
	p.signals = wholeParts(s).hasSignals()
	if n.Batches {
		p.period = s.SamplePeriodicity(estimate.PeriodOptions{})
	}
	return n.needsItems(p), "", nil
}

// unsought is the note on the shapes a fit that needs n did not look
// for, as the input (why) has no signals or creation times, with fix;
// "" when n looks for neither.
func (n Needs) unsought(why, fix string) string {
	var what []string
	if n.Signals {
		what = append(what, "reset on signal")
	}
	if n.Batches {
		what = append(what, "batch asks")
	}
	if len(what) == 0 {
		return ""
	}
	return fmt.Sprintf("%s, so no signals or creation times: %s not looked for (not found absent); %s", why, strings.Join(what, " and "), fix)
}
