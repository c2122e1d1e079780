package estimate

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

var inf = math.Inf(1)

func mustTurnbull(t *testing.T, lo, hi, w []float64) *Turnbull {
	t.Helper()
	tb, err := NewTurnbull(lo, hi, w, TurnbullOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !tb.Converged || tb.KKT > 1e-10 {
		t.Fatalf("EM stopped at step %d with KKT gap %g, not converged: %v", tb.Iter, tb.KKT, tb.Warnings)
	}
	return tb
}

// TestTurnbullHand: worked by hand. Items: exact 1, exact 3, (0, 4]
// and (2, 4]. The ends sorted: 0 (open), 1− 1], 2 (open), 3− 3], 4] 4],
// so the Turnbull intervals are the points 1 and 3 ((2, 4] holds only
// 3: the next end after 2 is 3's left end, not a right end). The
// likelihood p₁·p₃·(p₁+p₃)·p₃ = p₁p₃² with p₁+p₃ = 1 is largest at p₁ =
// 1/3. Adding (2, +Inf), pending at 2, multiplies it by p₃ again: 1/4.
func TestTurnbullHand(t *testing.T) {
	lo, hi := []float64{1, 3, 0, 2}, []float64{1, 3, 4, 4}
	tb := mustTurnbull(t, lo, hi, nil)
	if !equalFloats(tb.Lo, []float64{1, 3}) || !equalFloats(tb.Hi, []float64{1, 3}) {
		t.Fatalf("Turnbull intervals lo %v hi %v, want the points 1 and 3", tb.Lo, tb.Hi)
	}
	checkS(t, tb, map[float64]float64{0.5: 1, 1: 2.0 / 3, 2.9: 2.0 / 3, 3: 0, 10: 0})
	if tb.Never() != 0 {
		t.Errorf("Never %v, want 0", tb.Never())
	}
	tb = mustTurnbull(t, append(lo, 2), append(hi, inf), nil)
	checkS(t, tb, map[float64]float64{1: 3.0 / 4, 3: 0})
}

// TestTurnbullIntervals: (0, 2], (1, 3] and (0, 1] have the Turnbull
// intervals (0, 1] and (1, 2]; the first item holds both, so the
// likelihood is p·(1−p)·1, largest at p = 1/2; with weight 3 on (0, 1]
// it is p³(1−p): 3/4. A pending item at 3.5 adds the interval (3.5, Inf)
// as no right end follows it, and (1, 3] now holds only (1, 2]: the
// likelihood (p₁+p₂)·p₂·p₁³·p₃ with Σp = 1 has, by Lagrange with the
// multiplier W = 6, p₃ = 1/6, 3/p₁ = 1/p₂ and 1/(4p₂) + 1/p₂ = 6, so
// p₂ = 5/24, p₁ = 15/24: S(1) = 3/8, S(2) = 1/6 = Never.
func TestTurnbullIntervals(t *testing.T) {
	tb := mustTurnbull(t, []float64{0, 1, 0}, []float64{2, 3, 1}, nil)
	if !equalFloats(tb.Lo, []float64{0, 1}) || !equalFloats(tb.Hi, []float64{1, 2}) {
		t.Fatalf("Turnbull intervals lo %v hi %v, want (0,1] (1,2]", tb.Lo, tb.Hi)
	}
	checkS(t, tb, map[float64]float64{0: 1, 1: 0.5, 2: 0})
	tb = mustTurnbull(t, []float64{0, 1, 0}, []float64{2, 3, 1}, []float64{1, 1, 3})
	checkS(t, tb, map[float64]float64{1: 1.0 / 4, 2: 0})
	tb = mustTurnbull(t, []float64{0, 1, 0, 3.5}, []float64{2, 3, 1, inf}, []float64{1, 1, 3, 1})
	if !equalFloats(tb.Lo, []float64{0, 1, 3.5}) || !equalFloats(tb.Hi, []float64{1, 2, inf}) {
		t.Fatalf("Turnbull intervals lo %v hi %v, want (0,1] (1,2] (3.5,Inf)", tb.Lo, tb.Hi)
	}
	checkS(t, tb, map[float64]float64{1: 3.0 / 8, 2: 1.0 / 6, 100: 1.0 / 6})
	if !near(tb.Never(), 1.0/6, 1e-9) {
		t.Errorf("Never %v, want 1/6", tb.Never())
	}
}

// TestTurnbullIsKaplanMeier: with exact and right-censored items only,
// the NPMLE is the Kaplan–Meier estimate (Efron's redistribution to the
// right is self-consistency), checked against KaplanMeier on generated
// data with ties and censoring.
func TestTurnbullIsKaplanMeier(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 300
	lo, hi, w := make([]float64, n), make([]float64, n), make([]float64, n)
	ages, final := make([]float64, n), make([]bool, n)
	for i := range lo {
		ages[i] = math.Round(r.ExpFloat64()*20) / 2 // ties
		final[i] = r.Float64() < 0.7
		w[i] = 1 + float64(r.IntN(3))
		lo[i], hi[i] = ages[i], ages[i]
		if !final[i] {
			hi[i] = inf
		}
	}
	tb := mustTurnbull(t, lo, hi, w)
	km := KaplanMeier(ages, final, w)
	for _, a := range km.Time {
		for _, x := range []float64{a, a + 0.25} {
			if !near(tb.At(x), km.At(x), 1e-8) {
				t.Errorf("S(%v): Turnbull %v, Kaplan–Meier %v", x, tb.At(x), km.At(x))
			}
		}
	}
	if !near(tb.Never(), km.Never(), 1e-8) {
		t.Errorf("Never: Turnbull %v, Kaplan–Meier %v", tb.Never(), km.Never())
	}
}

func TestTurnbullBadInput(t *testing.T) {
	for _, c := range []struct {
		lo, hi, w []float64
		want      string
	}{
		{[]float64{1}, []float64{0.5}, nil, "item 0: upper bound 0.5 below lower bound 1"},
		{[]float64{1, -1}, []float64{2, 2}, nil, "item 1: lower bound -1"},
		{[]float64{math.NaN()}, []float64{2}, nil, "item 0: lower bound NaN"},
		{[]float64{inf}, []float64{inf}, nil, "item 0: lower bound +Inf"},
		{[]float64{1}, []float64{math.NaN()}, nil, "item 0: upper bound NaN"},
		{[]float64{1}, []float64{2}, []float64{0}, "item 0: weight 0"},
		{[]float64{1}, []float64{2, 3}, nil, "1 lower bounds, 2 upper bounds"},
		{nil, nil, nil, "no items"},
	} {
		_, err := NewTurnbull(c.lo, c.hi, c.w, TurnbullOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewTurnbull(%v, %v, %v): error %v, want %q", c.lo, c.hi, c.w, err, c.want)
		}
	}
}

// TestTurnbullCapReported: a cap too small to converge is reported, not
// taken for convergence.
func TestTurnbullCapReported(t *testing.T) {
	tb, err := NewTurnbull([]float64{0, 1, 0, 2}, []float64{2, 3, 1, 5}, nil, TurnbullOptions{MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	if tb.Converged || tb.Iter != 2 || len(tb.Warnings) != 1 || !strings.Contains(tb.Warnings[0], "not converged") {
		t.Errorf("cap of 2: converged %v after %d steps, warnings %q", tb.Converged, tb.Iter, tb.Warnings)
	}
}

func checkS(t *testing.T, tb *Turnbull, want map[float64]float64) {
	t.Helper()
	for x, s := range want {
		if got := tb.At(x); !near(got, s, 1e-9) {
			t.Errorf("S(%v) = %v, want %v", x, got, s)
		}
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTurnbullDegenerate: (0, 1], (2, 3], (0, 2] and (1, 3] have the
// Turnbull intervals (0, 1], (1, 2] and (2, 3]; by symmetry the maximum
// is p = (1/2, 0, 1/2), where the middle interval's derivative equals W
// although its mass is 0, so the EM creeps to it (sublinearly). It still
// stops by the Kuhn–Tucker tolerance, within the cap, with the middle
// mass near √Tol.
func TestTurnbullDegenerate(t *testing.T) {
	tb := mustTurnbull(t, []float64{0, 2, 0, 1}, []float64{1, 3, 2, 3}, nil)
	if tb.Mass[1] > 2e-5 || !near(tb.At(1), 0.5, 2e-5) || !near(tb.At(2), 0.5, 2e-5) {
		t.Errorf("masses %v, S(1) %v, S(2) %v: want (1/2, 0, 1/2) within 2e-5", tb.Mass, tb.At(1), tb.At(2))
	}
}

// TestTurnbullBounds: the intervals (0, 1] and (1, 2] of mass 1/2 each
// (TestTurnbullIntervals) leave S(0.5) anywhere in [1/2, 1] and fix S(1)
// = 1/2; past the last bound S = 0.
func TestTurnbullBounds(t *testing.T) {
	tb := mustTurnbull(t, []float64{0, 1, 0}, []float64{2, 3, 1}, nil)
	for x, want := range map[float64][2]float64{0: {1, 1}, 0.5: {0.5, 1}, 1: {0.5, 0.5}, 1.5: {0, 0.5}, 2: {0, 0}, 9: {0, 0}} {
		if lo, hi := tb.Bounds(x); !near(lo, want[0], 1e-9) || !near(hi, want[1], 1e-9) {
			t.Errorf("Bounds(%v) = %v, %v; want %v", x, lo, hi, want)
		}
		if lo, hi := tb.Bounds(x); tb.At(x) < lo-1e-12 || tb.At(x) > hi+1e-12 {
			t.Errorf("S(%v) = %v outside its bounds [%v, %v]", x, tb.At(x), lo, hi)
		}
	}
}

// TestTurnbullDensity: the intervals (0, 1] and (1, 2] of mass 1/2 each
// (TestTurnbullIntervals), spread uniformly in age and smoothed by a
// narrow kernel (1% on the log axis), give CDF(0.5) ≈ 1/4, CDF(1) ≈
// 1/2, CDF(1.5) ≈ 3/4 and a density of about 1/2 inside each interval;
// with a pending item beyond, Never keeps its share.
func TestTurnbullDensity(t *testing.T) {
	tb := mustTurnbull(t, []float64{0, 1, 0}, []float64{2, 3, 1}, nil)
	d := tb.Density(DensityOptions{Bandwidth: 0.01})
	for x, want := range map[float64]float64{0.5: 0.25, 1: 0.5, 1.5: 0.75, 3: 1} {
		if got := d.CDF(x); !near(got, want, 0.01) {
			t.Errorf("CDF(%v) = %v, want %v", x, got, want)
		}
	}
	for _, x := range []float64{0.3, 0.7, 1.3, 1.7} {
		if got := d.PDF(x); !near(got, 0.5, 0.02) {
			t.Errorf("PDF(%v) = %v, want 0.5", x, got)
		}
	}
	tb = mustTurnbull(t, []float64{0, 1, 0, 3.5}, []float64{2, 3, 1, inf}, []float64{1, 1, 3, 1})
	d = tb.Density(DensityOptions{Bandwidth: 0.01})
	if !near(d.Never(), 1.0/6, 1e-9) || !near(d.CDF(100), 5.0/6, 1e-3) {
		t.Errorf("Never %v, CDF(100) %v: want 1/6 and 5/6", d.Never(), d.CDF(100))
	}
}
