package source_test

import (
	"errors"
	"math"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/source"
)

// TestSplitIntervals: exact answers at 1..20 s (Lo = Hi) spread into
// weighted items that keep each item's whole weight: with nothing held
// out the held-out part is the fitting part, 20 items' weight in all at
// a mean age of 10.5 s (the mean of 1..20); a set with no answer, only
// pending items, has nothing to fit.
func TestSplitIntervals(t *testing.T) {
	var set estimate.IntervalSet
	for k := 1; k <= 20; k++ {
		if err := set.Add(estimate.Interval{Lo: float64(k), Hi: float64(k), W: 1}); err != nil {
			t.Fatal(err)
		}
	}
	in, err := source.SplitIntervals(&set, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	var w, age float64
	for i, it := range in.FitOn.Items {
		w += in.FitOn.Weight(i)
		age += in.FitOn.Weight(i) * it.Age
	}
	if math.Abs(w-20) > 1e-9 || math.Abs(age/w-10.5) > 1e-9 {
		t.Errorf("fitting part: weight %g, mean age %g; want 20 and 10.5", w, age/w)
	}
	if in.HeldOut == nil || in.HeldOut.Holdout != 0 || in.HeldOut.Sample.Len() != in.FitOn.Len() || in.All.Len() != in.FitOn.Len() {
		t.Errorf("nothing held out: held-out part %+v, all %d items; want the fitting part's %d", in.HeldOut, in.All.Len(), in.FitOn.Len())
	}
	held, err := source.SplitIntervals(&set, 0.3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if held.HeldOut.Holdout != 0.3 || held.HeldOut.Seed != 1 || held.FitOn.Len()+held.HeldOut.Sample.Len() != in.FitOn.Len() {
		t.Errorf("0.3 held out: %d + %d items, split %g seed %d; want %d items, 0.3, 1", held.FitOn.Len(), held.HeldOut.Sample.Len(), held.HeldOut.Holdout, held.HeldOut.Seed, in.FitOn.Len())
	}
	var pending estimate.IntervalSet
	if err := pending.Add(estimate.Interval{Lo: 5, Hi: math.Inf(1), W: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := source.SplitIntervals(&pending, 0, 1); !errors.Is(err, source.ErrNoAnswerToFit) {
		t.Errorf("only pending items: %v; want ErrNoAnswerToFit", err)
	}
}
