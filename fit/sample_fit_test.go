package fit

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

// histSample is a weighted sample of n items told apart by their age
// (the index), with weights: whole numbers from 0 to 60, a few large
// bins, and some with a fractional part.
func histSample(n int, seed uint64) Sample {
	r := rand.New(rand.NewPCG(seed, 3))
	smp := Sample{Items: make([]estimate.Item, n), Weights: make([]float64, n)}
	for i := range smp.Items {
		smp.Items[i] = estimate.Item{Age: float64(i), Status: estimate.Settled}
		w := float64(r.IntN(61))
		switch i % 50 {
		case 0:
			w = 200000
		case 1:
			w += 0.25
		}
		smp.Weights[i] = w
	}
	return smp
}

// byAge maps each item's age (its index in histSample) to its weight.
func byAge(s Sample) map[float64]float64 {
	m := map[float64]float64{}
	for i, it := range s.Items {
		m[it.Age] += s.Weights[i]
	}
	return m
}

func TestSplitSampleWeighted(t *testing.T) {
	const frac = 0.3
	smp := histSample(4000, 1)
	fitOn, held := SplitSample(smp, frac, 42)
	f, h := byAge(fitOn), byAge(held)
	// Every item's weight is split exactly; none of weight 0 is kept.
	for i, it := range smp.Items {
		if w := smp.Weights[i]; f[it.Age]+h[it.Age] != w {
			t.Fatalf("item %d: %v + %v, want %v", i, f[it.Age], h[it.Age], w)
		}
		if x := h[it.Age]; x != math.Trunc(x) && x-math.Trunc(x) != 0.25 {
			t.Fatalf("item %d: %v held out, want a whole number or one and a quarter", i, x)
		}
	}
	for _, s := range []Sample{fitOn, held} {
		for i, w := range s.Weights {
			if !(w > 0) || len(s.Weights) != len(s.Items) {
				t.Fatalf("item %d of weight %v kept (%d weights, %d items)", i, w, len(s.Weights), len(s.Items))
			}
		}
	}
	if fitOn.Total()+held.Total() != smp.Total() {
		t.Errorf("totals %v + %v, want %v", fitOn.Total(), held.Total(), smp.Total())
	}
	// The held-out weight is a sum of independent binomials (and
	// Bernoullis of the quarters): within 4 sd of frac × total. The large
	// bins must each be near their share too.
	var v float64
	for _, w := range smp.Weights {
		n, q := math.Floor(w), w-math.Floor(w)
		v += (n + q*q) * frac * (1 - frac)
	}
	if d := held.Total() - frac*smp.Total(); math.Abs(d) > 4*math.Sqrt(v) {
		t.Errorf("held out %v of %v: %.1f sd from %v", held.Total(), smp.Total(), d/math.Sqrt(v), frac*smp.Total())
	}
	sd := math.Sqrt(200000 * frac * (1 - frac))
	for i, w := range smp.Weights {
		if w == 200000 && math.Abs(h[smp.Items[i].Age]-frac*w) > 5*sd {
			t.Errorf("large bin %d: %v held out, want %v ± %.0f", i, h[smp.Items[i].Age], frac*w, 5*sd)
		}
	}
	// Same seed, same split; another seed, another.
	f2, h2 := SplitSample(smp, frac, 42)
	if !reflect.DeepEqual(f2, fitOn) || !reflect.DeepEqual(h2, held) {
		t.Error("same seed, different split")
	}
	if _, h3 := SplitSample(smp, frac, 43); reflect.DeepEqual(h3, held) {
		t.Error("another seed, the same split")
	}
}

// TestSplitSampleUnweighted checks that a plain log splits exactly as
// Split splits it, and that frac 0 holds nothing out.
func TestSplitSampleUnweighted(t *testing.T) {
	items := loggen.Items(loggen.Rows(loggen.Payments, 3000, 4))
	a, b := Split(items, 0.3, 9)
	fa, fb := SplitSample(ItemSample(items), 0.3, 9)
	same := func(s Sample, items []estimate.Item) bool {
		return !s.Weighted() && slices.EqualFunc(s.Items, items, func(x, y estimate.Item) bool {
			return x.Age == y.Age && x.Created == y.Created && x.Status == y.Status
		})
	}
	if !same(fa, a) || !same(fb, b) {
		t.Errorf("SplitSample gives %d + %d items, Split %d + %d", fa.Len(), fb.Len(), len(a), len(b))
	}
	smp := histSample(100, 2)
	f, h := SplitSample(smp, 0, 9)
	if f.Total() != smp.Total() || h.Total() != 0 || h.Len() != 0 {
		t.Errorf("frac 0: %v held out of %v", h.Total(), smp.Total())
	}
	f, h = SplitSample(smp, 1, 9)
	if h.Total() != smp.Total() || f.Len() != 0 {
		t.Errorf("frac 1: %v held out of %v", h.Total(), smp.Total())
	}
}

// TestFitSampleEqualsRepeated checks that fitting a weighted sample is
// fitting the log with each item repeated weight times.
func TestFitSampleEqualsRepeated(t *testing.T) {
	items := loggen.Items(loggen.Rows(loggen.Payments, 800, 21))
	smp, rep := randomWeights(items, 21)
	for _, b := range []Budget{{RequestsPerItem: 6}, {Price: 0.5}} {
		got, err1 := FitSample(smp, Options{Budget: b})
		want, err2 := Fit(rep, Options{Budget: b})
		if err1 != nil || err2 != nil {
			t.Fatalf("%+v: %v, %v", b, err1, err2)
		}
		if !got.Schedule.Equal(want.Schedule) || got.Horizon != want.Horizon {
			t.Errorf("%+v: weighted %s (horizon %v), repeated %s (%v)", b, schedule.Format(got.Schedule), got.Horizon, schedule.Format(want.Schedule), want.Horizon)
		}
		if d := got.Fitted.RequestsPerItem - want.Fitted.RequestsPerItem; math.Abs(d) > 1e-9 {
			t.Errorf("%+v: fitted requests %v, repeated %v", b, got.Fitted.RequestsPerItem, want.Fitted.RequestsPerItem)
		}
	}
}

// Worked by hand under "10s until 1m" to 1 min: an answer at 3 s with a
// signal at 1 s is seen at 10 s without reset (lag 7, asks 0 and 10) and
// at 11 s with it (lag 8, asks 0, 1 and 11); one at 3 s with a signal at
// 4 s is seen at 10 s (lag 7, 2 asks) or at 4 s (lag 1, asks 0 and 4).
// Once each, at a price of 1 per request: plain 7 + 2 = 9, reset 4.5 +
// 2.5 = 7, so reset. Weighted 5 and 1: plain 7 + 2 = 9, reset 41/6 +
// 17/6 ≈ 9.67, so no reset.
func TestWithSignalsWeighted(t *testing.T) {
	s, _ := schedule.Parse("10s until 1m")
	items := []estimate.Item{
		{Age: 3, Status: estimate.Settled, Signal: 1, Signalled: true},
		{Age: 3, Status: estimate.Settled, Signal: 4, Signalled: true},
	}
	b := Budget{Price: 1}
	if _, ok, err := WithSignals(s, ItemSample(items), time.Minute, b); err != nil || !ok {
		t.Errorf("once each: reset %v (%v), want it", ok, err)
	}
	smp := Sample{Items: items, Weights: []float64{5, 1}}
	if _, ok, err := WithSignals(s, smp, time.Minute, b); err != nil || ok {
		t.Errorf("weighted 5 and 1: reset %v (%v), want none", ok, err)
	}
	out := schedule.Canonical(s)
	out.ResetOnSignal = true
	m, _ := ReplaySample(out, smp, ReplayOptions{Horizon: time.Minute})
	if math.Abs(m.Lag.Mean-41.0/6) > 1e-12 || math.Abs(m.RequestsPerItem-17.0/6) > 1e-12 {
		t.Errorf("reset, weighted: lag %v, %v requests; want 41/6 and 17/6", m.Lag.Mean, m.RequestsPerItem)
	}
}
