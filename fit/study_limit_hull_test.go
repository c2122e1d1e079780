package fit

import (
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/pollfit/pollfit/internal/loggen"
)

// A frontier's budgets share one limitHull: each budget's limit from the
// shared hull, asked from several goroutines at once, is the limit a
// hull of its own finds (the same two schedules and mix, to the bit),
// and the shared hull solves fewer programmes than the budgets' own
// hulls together (the bracketing prices repeat).
func TestLimitHullShared(t *testing.T) {
	smp := ItemSample(loggen.Items(loggen.Rows(loggen.Payments, 4000, 3)))
	il := newSampleLaw(smp)
	cands, _ := itemCandidates(il, 900)
	costs := FrontierBudgets(2, 40, 7)
	shared := newLimitHull(il, cands, 0, false, Mean)
	got := make([]mixed, len(costs))
	var wg sync.WaitGroup
	for i, c := range costs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if got[i], err = shared.at(c); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	own := 0
	for i, c := range costs {
		h := newLimitHull(il, cands, 0, false, Mean)
		want, err := h.at(c)
		if err != nil {
			t.Fatal(err)
		}
		own += h.solved.len()
		g := got[i]
		if !slices.Equal(g.a, want.a) || !slices.Equal(g.b, want.b) || math.Float64bits(g.w) != math.Float64bits(want.w) {
			t.Errorf("cost %.4g: shared hull mixes %d and %d asks at %v; its own hull %d and %d at %v", c, len(g.a), len(g.b), g.w, len(want.a), len(want.b), want.w)
		}
	}
	if n := shared.solved.len(); n >= own {
		t.Errorf("the shared hull solved %d programmes, the budgets' own %d together", n, own)
	} else {
		t.Logf("shared hull: %d programmes; own hulls: %d", n, own)
	}
}
