package fit

import (
	"context"
	"testing"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

// The issue-29 ratios on Study: run the pairs side by side in one
// sitting (go test ./fit -run '^$' -bench 'Study200k' -benchtime 1x) and
// divide. The CLI's figures (pollfit fit on a 200,000-row realistic log)
// add the reading and the sketch to both sides; the lead's table in
// /work/wt/briefs/i29fit.COMMITS.md has those.

func realistic200k(b *testing.B) Sample {
	b.Helper()
	m, err := loggen.Lookup("realistic")
	if err != nil {
		b.Fatal(err)
	}
	return ItemSample(loggen.Items(loggen.Rows(m, 200_000, 1)))
}

func benchStudy(b *testing.B, opt StudyOptions) {
	smp := realistic200k(b)
	opt.Holdout, opt.Seed = 0.3, 1
	b.ResetTimer()
	for b.Loop() {
		if _, err := Study(context.Background(), smp, nil, opt); err != nil {
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
