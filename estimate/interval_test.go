package estimate

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestIntervalSet: equal intervals merge, weights add up by status, the
// Turnbull estimate is that of the items one by one, and WidestShare is
// read off the widths by hand: finals of widths 0 (w 2), 1 (w 1), 4 (w
// 1): half the final weight is exact, three quarters within 1.
func TestIntervalSet(t *testing.T) {
	var s IntervalSet
	for _, iv := range []Interval{{Lo: 1, Hi: 1}, {Lo: 1, Hi: 1, W: 1}, {Lo: 2, Hi: 3, W: 1}, {Lo: 0, Hi: 4, W: 1}, {Lo: 5, Hi: inf, W: 2}} {
		if err := s.Add(iv); err != nil {
			t.Fatal(err)
		}
	}
	if s.Len() != 4 {
		t.Errorf("%d distinct intervals, want 4", s.Len())
	}
	if f, p := s.Weights(); f != 4 || p != 2 {
		t.Errorf("weights final %v pending %v, want 4 and 2", f, p)
	}
	got, err := s.Turnbull(TurnbullOptions{})
	if err != nil {
		t.Fatal(err)
	}
	one := mustTurnbull(t, []float64{1, 1, 2, 0, 5, 5}, []float64{1, 1, 3, 4, inf, inf}, nil)
	for _, x := range []float64{0.5, 1, 2.5, 3, 4, 6} {
		if !near(got.At(x), one.At(x), 1e-9) {
			t.Errorf("S(%v): merged %v, one by one %v", x, got.At(x), one.At(x))
		}
	}
	for p, want := range map[float64]float64{0.25: 0, 0.5: 0, 0.75: 1, 1: 4} {
		if w := s.WidestShare(p); w != want {
			t.Errorf("WidestShare(%v) = %v, want %v", p, w, want)
		}
	}
	if !math.IsNaN(s.WidestShare(0)) || !math.IsNaN((&IntervalSet{}).WidestShare(0.5)) {
		t.Error("WidestShare of share 0 or of an empty set is not NaN")
	}
	if err := s.Add(Interval{Lo: 3, Hi: 2, W: 1}); err == nil || !strings.Contains(err.Error(), "below lower bound") {
		t.Errorf("Add((3, 2]): error %v", err)
	}
}

// TestBootstrapNearGreenwood: on exact ages with right-censoring the
// bootstrap band's half-width is Greenwood's z·S·σ (a second method) to
// within 25%, and the band holds the estimate; the same seed gives the
// same band.
func TestBootstrapNearGreenwood(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 3))
	var s IntervalSet
	var ages []float64
	var final []bool
	for i := 0; i < 600; i++ {
		a := math.Round(r.ExpFloat64()*100) / 10
		f := r.Float64() < 0.8
		hi := a
		if !f {
			hi = inf
		}
		if err := s.Add(Interval{Lo: a, Hi: hi, W: 1}); err != nil {
			t.Fatal(err)
		}
		ages, final = append(ages, a), append(final, f)
	}
	km := KaplanMeier(ages, final, nil)
	at := []float64{3, 10, 20}
	lo, hi, err := s.Bootstrap(at, BootOptions{Reps: 400, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for k, a := range at {
		S := km.At(a)
		gw := 1.959964 * S * km.StdErr(a)
		if half := (hi[k] - lo[k]) / 2; math.Abs(half-gw) > 0.25*gw || lo[k] > S || hi[k] < S {
			t.Errorf("S(%v) = %.3f: bootstrap [%.3f, %.3f], half-width %.4f; Greenwood's %.4f", a, S, lo[k], hi[k], half, gw)
		}
	}
	lo2, hi2, _ := s.Bootstrap(at, BootOptions{Reps: 400, Seed: 1})
	if !equalFloats(lo, lo2) || !equalFloats(hi, hi2) {
		t.Error("the same seed gave another band")
	}
}
