package main

import (
	"fmt"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
)

// partSample is part p of sketch s as a sample: its bins, or with
// sampled its item sample. A sample that holds every row of the part,
// each a whole number of times and in all no more rows than s.Sample,
// is given row by row (no weights), as the items themselves would be;
// else each sampled row is weighted by the rows it stands for.
func partSample(s *estimate.Sketch, p *estimate.SketchPart, sampled bool) fit.Sample {
	var smp fit.Sample
	if s.HasIntervals() { // a read sketch's intervals are valid: no error
		smp, _ = intervalPartSample(s, p)
		return smp
	}
	if !sampled {
		smp.Items, smp.Weights = p.Bins()
		return smp
	}
	items, ws, scale := p.Sampled()
	if scale == 1 && wholeCounts(ws, s.Sample) {
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

// sketchNeeds is needsItems for a sketch file, from its item sample:
// why the command uses the sample, "" for the bins. A sketch without a
// sample (a SQL engine's, or one written with --sample 0) has neither
// creation times nor signals: asks by the wall clock or a schedule that
// resets on signal are an error, and a fit that would look for reset on
// signal or batch asks goes without, which note says.
func (r *readFlags) sketchNeeds(s *estimate.Sketch, n itemNeeds, args []string) (sampled, note string, err error) {
	names := strings.Join(args, ", ")
	if !s.HasSample() {
		const fix = "sketch the log with pollfit sketch (not --sample 0), which keeps an item sample (a SQL engine's sketch keeps none)"
		switch {
		case n.aligned != "":
			return "", "", fmt.Errorf("read %s: the sketch keeps no item sample, so no creation times, which %s need: %s", names, n.aligned, fix)
		case n.resets != "":
			return "", "", fmt.Errorf("read %s: the sketch keeps no item sample, so no signals, which %s needs: %s", names, n.resets, fix)
		}
		return "", unsought(names+" keeps no item sample", n, fix), nil
	}
	p := &logPass{sk: s}
	p.signals = partSample(s, &s.Fit, true).HasSignals() || partSample(s, &s.HeldOut, true).HasSignals()
	if n.batches {
		p.period = s.SamplePeriodicity(estimate.PeriodOptions{})
	}
	return n.needsItems(p), "", nil
}

// unsought is the note on the shapes a fit that needs n did not look
// for, as the input (why) has no signals or creation times, with fix;
// "" when n looks for neither.
func unsought(why string, n itemNeeds, fix string) string {
	var what []string
	if n.signals {
		what = append(what, "reset on signal")
	}
	if n.batches {
		what = append(what, "batch asks")
	}
	if len(what) == 0 {
		return ""
	}
	return fmt.Sprintf("%s, so no signals or creation times: %s not looked for (not found absent); %s", why, strings.Join(what, " and "), fix)
}

// joinSamples is the samples' items in one sample, weighted when any
// is.
func joinSamples(smps ...fit.Sample) fit.Sample {
	out := fit.Sample{Items: []estimate.Item{}}
	weighted := false
	for _, s := range smps {
		out.Items = append(out.Items, s.Items...)
		weighted = weighted || s.Weighted()
	}
	if weighted {
		out.Weights = make([]float64, 0, out.Len())
		for _, s := range smps {
			for i := range s.Items {
				out.Weights = append(out.Weights, s.Weight(i))
			}
		}
	}
	return out
}

// sketchInput reads sketch files for eval: their bins, or both parts'
// item samples when n needs creation times or signals.
func (r *readFlags) sketchInput(e *env, args []string, n itemNeeds) (logInput, error) {
	s, _, err := r.readSketchFiles(e, args)
	if err != nil {
		return logInput{}, err
	}
	in := logInput{stats: sketchStats(s, args), sketch: s}
	if n.always == "" {
		var note string
		if in.sampled, note, err = r.sketchNeeds(s, n, args); err != nil {
			return logInput{}, err
		}
		if note != "" && !r.quiet {
			fmt.Fprintf(e.stderr, "pollfit: note: %s\n", note)
		}
	}
	in.smp = joinSamples(partSample(s, &s.Fit, in.sampled != ""), partSample(s, &s.HeldOut, in.sampled != ""))
	return in, nil
}

// sampleSource says which item sample a study used, for its header.
func sampleSource(in logInput) string {
	if !in.smp.Weighted() {
		return "all kept in the sketch's item sample, as " + in.sampled
	}
	rows := 0
	for _, p := range []*estimate.SketchPart{&in.sketch.Fit, &in.sketch.HeldOut} {
		items, _, _ := p.Sampled()
		rows += len(items)
	}
	return fmt.Sprintf("fitted and measured on the sketch's item sample by hash of %d rows, as %s", rows, in.sampled)
}
