package estimate

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// The 6-MP arm of the Gehan/Freireich leukemia trial: remission times in
// weeks, + marking censored ones.
var (
	sixMP      = []float64{6, 6, 6, 6, 7, 9, 10, 10, 11, 13, 16, 17, 19, 20, 22, 23, 25, 32, 32, 34, 35}
	sixMPFinal = []bool{true, true, true, false, true, false, true, false, false, true, true, false, false, false, true, true, false, false, false, false, false}
)

func near(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol
}

func TestKaplanMeierSixMP(t *testing.T) {
	s := KaplanMeier(sixMP, sixMPFinal, nil)
	// Worked by hand: at each event age, S *= 1 − d/n.
	s6 := 1 - 3.0/21
	s7 := s6 * (1 - 1.0/17)
	s10 := s7 * (1 - 1.0/15)
	s13 := s10 * (1 - 1.0/12)
	s16 := s13 * (1 - 1.0/11)
	s22 := s16 * (1 - 1.0/7)
	s23 := s22 * (1 - 1.0/6)
	for _, c := range []struct{ t, want float64 }{
		{0, 1}, {5.9, 1}, {6, s6}, {6.5, s6}, {7, s7}, {9, s7}, {10, s10}, {12, s10},
		{13, s13}, {16, s16}, {21, s16}, {22, s22}, {23, s23}, {35, s23}, {100, s23},
	} {
		if got := s.At(c.t); !near(got, c.want, 1e-12) {
			t.Errorf("S(%v) = %v, want %v", c.t, got, c.want)
		}
	}
	// The published table (Freireich et al.; Kleinbaum ch. 2) to 4 places.
	for _, c := range []struct{ t, want float64 }{{6, .8571}, {7, .8067}, {10, .7529}, {13, .6902}, {16, .6275}, {22, .5378}, {23, .4482}} {
		if got := s.At(c.t); !near(got, c.want, 5e-5) {
			t.Errorf("S(%v) = %.4f, published %.4f", c.t, got, c.want)
		}
	}
	if got := s.Never(); !near(got, s23, 1e-12) {
		t.Errorf("Never = %v, want %v", got, s23)
	}
	// Greenwood: σ² = Σ d/(n(n−d)).
	g10 := 3.0/(21*18) + 1.0/(17*16) + 1.0/(15*14)
	if got := s.StdErr(10); !near(got, math.Sqrt(g10), 1e-12) {
		t.Errorf("σ(10) = %v, want %v", got, math.Sqrt(g10))
	}
	// Published standard error of S(6): 0.0764.
	if got := s6 * s.StdErr(6); !near(got, 0.0764, 5e-5) {
		t.Errorf("se S(6) = %.4f, want 0.0764", got)
	}
	z := 1.959963984540054
	lo, hi := s.Band(10, 0.95, ConfLog)
	if !near(lo, s10*math.Exp(-z*math.Sqrt(g10)), 1e-9) || !near(hi, math.Min(1, s10*math.Exp(z*math.Sqrt(g10))), 1e-9) {
		t.Errorf("log band at 10 = [%v, %v]", lo, hi)
	}
	lo, hi = s.Band(10, 0.95, ConfLogLog)
	// exp(−exp(log(−log S) ± z σ/|log S|)).
	l := math.Log(-math.Log(s10))
	wantLo := math.Exp(-math.Exp(l + z*math.Sqrt(g10)/-math.Log(s10)))
	wantHi := math.Exp(-math.Exp(l - z*math.Sqrt(g10)/-math.Log(s10)))
	if !near(lo, wantLo, 1e-9) || !near(hi, wantHi, 1e-9) {
		t.Errorf("log-log band at 10 = [%v, %v], want [%v, %v]", lo, hi, wantLo, wantHi)
	}
	// Median: S first ≤ 0.5 at 23 (published median 23 weeks); the first
	// quartile: S first ≤ 0.75 at 13.
	if got := s.Quantile(0.5); got != 23 {
		t.Errorf("median = %v, want 23", got)
	}
	if got := s.Quantile(0.25); got != 13 {
		t.Errorf("q25 = %v, want 13", got)
	}
	// Median interval, published as 0.95LCL 16, UCL NA: the lower log
	// band first drops to 0.5 at 16 (0.6275·exp(−1.96·0.1818) = 0.439;
	// at 13 it is 0.6902·exp(−1.96·0.1548) = 0.510); the upper band stays
	// above 0.5 (0.4482·exp(1.96·0.3003) = 0.807 at 23).
	if lo, hi := s.QuantileBand(0.5, 0.95, ConfLog); lo != 16 || !math.IsNaN(hi) {
		t.Errorf("median band [%v, %v], want [16, NaN]", lo, hi)
	}
	if got := s.Quantile(0.6); !math.IsNaN(got) {
		t.Errorf("q60 = %v, want NaN (never reached)", got)
	}
}

// TestQuantileR checks the quantile rule against the expectations in the
// survival package's own tests (tests/quantile.R, test1 without NA).
func TestQuantileR(t *testing.T) {
	s := KaplanMeier(
		[]float64{9, 1, 1, 6, 6, 8, 10},
		[]bool{true, true, false, true, true, false, false}, nil)
	qq := []float64{13.0 / 14, 6.0 / 7, 2.0 / 3, .5, 9.0 / 35, .1}
	want := []float64{1, 3.5, 6, 9, 9.5, math.NaN()}
	for i, q := range qq {
		if got := s.Quantile(1 - q); !near(got, want[i], 1e-12) {
			t.Errorf("quantile(1−%v) = %v, want %v", q, got, want[i])
		}
	}
	// The same test's intervals (conf.type "log", 95%): lower c(1, 1, 1,
	// 6, 6, 9), upper all NA (the upper band never gets low enough).
	wantLo := []float64{1, 1, 1, 6, 6, 9}
	for i, q := range qq {
		lo, hi := s.QuantileBand(1-q, 0.95, ConfLog)
		if lo != wantLo[i] || !math.IsNaN(hi) {
			t.Errorf("band of quantile(1−%v) = [%v, %v], want [%v, NaN]", q, lo, hi, wantLo[i])
		}
	}
	// Uncensored 1..4: the median falls on the flat at 0.5 from 2 to 3.
	s = KaplanMeier([]float64{1, 2, 3, 4}, []bool{true, true, true, true}, nil)
	if got := s.Quantile(0.5); got != 2.5 {
		t.Errorf("median of 1..4 = %v, want 2.5", got)
	}
	if got := s.Quantile(1); got != 4 {
		t.Errorf("quantile(1) of 1..4 = %v, want 4", got)
	}
}

// QuantileBand reads the band at each age of the estimate without
// searching for the age: it must be Band at each age, read as findq.
func TestQuantileBandIsBandAtEachAge(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	for trial := range 20 {
		n := 5 + r.IntN(300)
		ages, final, w := make([]float64, n), make([]bool, n), make([]float64, n)
		for i := range ages {
			ages[i] = math.Round(30*r.ExpFloat64()) / float64(1+trial%3) // ties
			final[i] = r.Float64() < 0.8
			w[i] = float64(1 + r.IntN(3))
		}
		s := KaplanMeier(ages, final, w)
		for _, typ := range []ConfType{ConfLog, ConfLogLog, ConfPlain} {
			lower, upper := make([]float64, len(s.Time)), make([]float64, len(s.Time))
			for i, age := range s.Time {
				lower[i], upper[i] = s.Band(age, 0.9, typ)
			}
			for _, p := range []float64{0.05, 0.25, 0.5, 0.75, 0.9, 0.99} {
				lo, hi := s.QuantileBand(p, 0.9, typ)
				wlo, whi := findQuantile(s.Time, lower, s.End(), p), findQuantile(s.Time, upper, s.End(), p)
				if !same(lo, wlo) || !same(hi, whi) {
					t.Fatalf("trial %d, type %d, p %v: band [%v, %v], want [%v, %v]", trial, typ, p, lo, hi, wlo, whi)
				}
			}
		}
	}
}

// same reports whether a and b are equal or both NaN.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// redistribute is Efron's redistribute-to-the-right construction of the
// Kaplan–Meier estimate, an independent second method: each censored
// item's mass passes in equal shares to the items to its right.
func redistribute(t []float64, final []bool, w []float64) func(float64) float64 {
	type obs struct {
		t, m  float64
		final bool
	}
	o := make([]obs, len(t))
	for i := range t {
		o[i] = obs{t[i], w[i], final[i]}
	}
	sort.SliceStable(o, func(a, b int) bool {
		if o[a].t != o[b].t {
			return o[a].t < o[b].t
		}
		return o[a].final && !o[b].final
	})
	tot := 0.0
	for _, x := range o {
		tot += x.m
	}
	for i := range o {
		o[i].m /= tot
	}
	for i := range o {
		if o[i].final {
			continue
		}
		right := 0.0
		for j := i + 1; j < len(o); j++ {
			right += o[j].m
		}
		if right == 0 {
			continue
		}
		// Every earlier censoring scaled all items right of it alike, so
		// current masses to the right are proportional to the weights.
		m := o[i].m
		o[i].m = 0
		for j := i + 1; j < len(o); j++ {
			o[j].m += m * o[j].m / right
		}
	}
	return func(x float64) float64 {
		S := 1.0
		for _, v := range o {
			if v.final && v.t <= x {
				S -= v.m
			}
		}
		return S
	}
}

func TestKaplanMeierRedistribute(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		n := 5 + r.IntN(60)
		ts := make([]float64, n)
		fin := make([]bool, n)
		w := make([]float64, n)
		for i := range ts {
			ts[i] = float64(r.IntN(15)) // many ties
			fin[i] = r.Float64() < 0.7
			w[i] = 1
			if trial%2 == 1 {
				w[i] = 0.5 + 3*r.Float64()
			}
		}
		s := KaplanMeier(ts, fin, w)
		want := redistribute(ts, fin, w)
		for x := -0.5; x < 16; x += 0.5 {
			if got := s.At(x); !near(got, want(x), 1e-9) {
				t.Fatalf("trial %d: S(%v) = %v, redistribute-to-the-right %v", trial, x, got, want(x))
			}
		}
	}
}

func TestAccumulatorMatchesSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var a Accumulator
	var ts []float64
	var fin []bool
	for i := 0; i < 5000; i++ {
		age := math.Min(400, math.Round(math.Exp(2+r.NormFloat64()))) // whole seconds: one age a bin
		st := Settled
		if r.Float64() < 0.2 {
			st = Pending
		}
		a.Add(Item{Age: age, Status: st})
		ts, fin = append(ts, age), append(fin, st.Final())
	}
	got, want := a.Survival(), KaplanMeier(ts, fin, nil)
	for x := 0.0; x < 410; x += 0.25 {
		if g, w := got.At(x), want.At(x); !near(g, w, 1e-12) {
			t.Fatalf("S(%v): accumulator %v, slices %v", x, g, w)
		}
	}
	if a.Items != 5000 || a.Final+a.Pending != 5000 {
		t.Errorf("counts: items %v final %v pending %v", a.Items, a.Final, a.Pending)
	}
}
