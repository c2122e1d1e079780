package fit

import (
	"context"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

// The issue-29 ratios on Study: run the pairs side by side in one
// sitting (go test ./fit -run '^$' -bench 'Study200k' -benchtime 1x) and
// divide. The CLI's figures (pollfit fit on a 200,000-row realistic log)
// add the reading and the sketch to both sides; the lead's table in
// /work/wt/briefs/i29fit.COMMITS.md has those.

// realistic200k is the 200,000-row realistic log of seed 1 (pollfit gen
// --model realistic -n 200000 --seed 1) split as pollfit fit reads its
// CSV, as far as fit can without the log reader: each row an item as
// the reader makes it (times at the CSV's milliseconds, which the
// generator truncates them to; a pending row censored at the latest
// timestamp in the log, and added after the others), added to a sketch
// of the CLI's split (30% held out by hash, seed 1), whose parts' item
// samples (DefaultSample rows each, weighted by the rows they stand for)
// are the fitting and held-out samples.
func realistic200k(b *testing.B) (Sample, *HeldOut) {
	b.Helper()
	g, err := loggen.NewRealistic(1)
	if err != nil {
		b.Fatal(err)
	}
	var final, pending []estimate.Item
	var started []time.Time
	var latest time.Time
	err = g.Each(200_000, func(r loggen.RealisticRow) error {
		latest = maxTime(latest, maxTime(r.Started, r.Finished))
		it := estimate.Item{Created: r.Started.UnixNano(), Dated: true, Status: estimate.Pending}
		switch r.State {
		case loggen.RealisticSettledAs, loggen.RealisticFailedAs:
			it.Age, it.Status = r.Finished.Sub(r.Started).Seconds(), estimate.Settled
			if r.State == loggen.RealisticFailedAs {
				it.Status = estimate.Failed
			}
			final = append(final, it)
		default:
			pending, started = append(pending, it), append(started, r.Started)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	sk, err := estimate.NewSketch(0.3, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, it := range final {
		sk.Add(it, 1)
	}
	for i, it := range pending {
		it.Age = latest.Sub(started[i]).Seconds()
		sk.Add(it, 1)
	}
	part := func(p *estimate.SketchPart) Sample {
		items, ws, scale := p.Sampled()
		return Sample{Items: items, Weights: ws, Scale: scale}
	}
	return part(&sk.Fit), &HeldOut{Sample: part(&sk.HeldOut), Holdout: 0.3, Seed: 1}
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func benchStudy(b *testing.B, opt StudyOptions) {
	fitOn, heldOut := realistic200k(b)
	opt.Bootstrap = 200 // pollfit fit's default
	b.ResetTimer()
	for b.Loop() {
		if _, err := Study(context.Background(), fitOn, heldOut, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStudy200kShapesOff and BenchmarkStudy200kShapesOn: every
// shape on should cost at most 1.5× the fit without them.
func BenchmarkStudy200kShapesOff(b *testing.B) {
	benchStudy(b, StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 13}}, NoDeadlines: true, NoBatches: true})
}

func BenchmarkStudy200kShapesOn(b *testing.B) {
	benchStudy(b, StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 13}}})
}

// BenchmarkStudy200kBaseline: one baseline should cost at most 1.5×
// BenchmarkStudy200kShapesOn.
func BenchmarkStudy200kBaseline(b *testing.B) {
	s, err := schedule.Parse("2s until 1m, 10s until 10m")
	if err != nil {
		b.Fatal(err)
	}
	benchStudy(b, StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 13}}, Baselines: []Baseline{{Name: "prod", Schedule: s}}})
}
