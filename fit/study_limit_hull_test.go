package fit

import (
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/pollfit/pollfit/estimate"
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

// A cost below every schedule's fails in the few programmes of the walk
// up to hullProbeAfter and the one at the dearest price, not the walk's
// 25; just above the cheapest schedule's cost (the one at the dearest
// price) the walk goes on to find it, and just below it fails: on a
// realistic log's items and on one of the bundled models'.
func TestBracketHullFailsFast(t *testing.T) {
	g, err := loggen.NewRealistic(4)
	if err != nil {
		t.Fatal(err)
	}
	var items []estimate.Item
	if err := g.Each(3000, func(r loggen.RealisticRow) error {
		if !r.Finished.IsZero() {
			items = append(items, estimate.Item{Age: r.Finished.Sub(r.Started).Seconds(), Status: estimate.Settled})
		} else {
			items = append(items, estimate.Item{Age: g.End.Sub(r.Started).Seconds()})
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for name, smp := range map[string]Sample{
		"realistic": ItemSample(items),
		"payments":  ItemSample(loggen.Items(loggen.Rows(loggen.Payments, 3000, 5))),
	} {
		il := newSampleLaw(smp)
		cands, _ := itemCandidates(il, 900)
		h := newLimitHull(il, cands, 0, false, Mean)
		_, cheapest := h.solve(hullTopPrice)
		calls := 0
		at := func(lambda float64) ([]float64, sums) { calls++; return h.solve(lambda) }
		if _, err := bracketHull(il, Mean, at, 0.5*cheapest.requests); err == nil || calls > 5 {
			t.Errorf("%s: half the cheapest schedule's cost: error %v after %d programmes, want one after at most 5", name, err, calls)
		}
		if _, err := bracketHull(il, Mean, at, cheapest.requests*(1-1e-6)); err == nil {
			t.Errorf("%s: a cost just under the cheapest schedule's %.6g brackets", name, cheapest.requests)
		}
		m, err := bracketHull(il, Mean, at, cheapest.requests*(1+1e-9))
		if err != nil || len(m.b) != len(h.g.ages(h.g.solve(hullTopPrice, 0))) {
			t.Errorf("%s: just over the cheapest schedule's cost: %v, mix of %d and %d asks", name, err, len(m.a), len(m.b))
		}
	}
}
