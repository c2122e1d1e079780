package estimate

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
	"gonum.org/v1/gonum/stat/distuv"
)

// integratePDF integrates d.PDF over ages by the trapezoid rule on a fine
// log grid, independently of the CDF.
func integratePDF(d *Dist, lo, hi float64) float64 {
	const n = 200000
	r := math.Log(hi / lo)
	sum, prev := 0.0, 0.0
	for i := 0; i <= n; i++ {
		t := lo * math.Exp(r*float64(i)/n)
		v := d.PDF(t) * t // per unit log age
		if i > 0 {
			sum += (v + prev) / 2 * r / n
		}
		prev = v
	}
	return sum
}

func TestDCTSquares(t *testing.T) {
	// |DFT of x followed by its mirror|² equals the squared DCT-II,
	// y_k = 2 Σ x_j cos(πk(2j+1)/(2n)), computed here by the definition.
	x := []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3}
	n := len(x)
	v := make([]float64, 2*n)
	for i, xi := range x {
		v[i], v[2*n-1-i] = xi, xi
	}
	c := fourier.NewFFT(2*n).Coefficients(nil, v)
	for k := 0; k < n; k++ {
		y := 0.0
		for j, xj := range x {
			y += 2 * xj * math.Cos(math.Pi*float64(k)*float64(2*j+1)/float64(2*n))
		}
		if a := cmplx.Abs(c[k]); !near(a*a, y*y, 1e-9*(1+y*y)) {
			t.Errorf("k=%d: |V|² = %v, DCT² = %v", k, a*a, y*y)
		}
	}
}

func TestISJGaussian(t *testing.T) {
	// For normal data ISJ tends to the AMISE-optimal (4/(3n))^(1/5)·σ.
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1000, 20000} {
		pts := make([]logPoint, n)
		for i := range pts {
			x := 2 * r.NormFloat64()
			pts[i] = logPoint{x, x, 1}
		}
		h, method, _ := chooseBandwidth(pts, float64(n), 0)
		want := math.Pow(4/(3*float64(n)), 0.2) * 2
		if method != "isj" || math.Abs(h/want-1) > 0.25 {
			t.Errorf("n=%d: bandwidth %v (%s), want ≈ %v", n, h, method, want)
		}
	}
}

func TestDensityMixture(t *testing.T) {
	// Uncensored lognormal mixture: 60% around 2 s, 40% around 40 s.
	r := rand.New(rand.NewPCG(7, 8))
	ages := append(lognormalAges(r, 12000, 2, 0.4), lognormalAges(r, 8000, 40, 0.3)...)
	final := make([]bool, len(ages))
	for i := range final {
		final[i] = true
	}
	d := Density(KaplanMeier(ages, final, nil), DensityOptions{})
	if got := integratePDF(d, 1e-3, 1e5); !near(got, 1, 2e-3) {
		t.Errorf("∫f = %v, want 1", got)
	}
	modes := d.Modes(0.05)
	if len(modes) != 2 {
		t.Fatalf("modes %v, want 2", modes)
	}
	if !near(modes[0], 2, 0.2) || !near(modes[1], 40, 4) {
		t.Errorf("modes %v, want ≈ [2 40]", modes)
	}
	// Against the true mixture CDF.
	a, b := distuv.LogNormal{Mu: math.Log(2), Sigma: 0.4}, distuv.LogNormal{Mu: math.Log(40), Sigma: 0.3}
	for _, x := range []float64{1, 2, 4, 10, 30, 40, 60} {
		want := 0.6*a.CDF(x) + 0.4*b.CDF(x)
		if got := d.CDF(x); !near(got, want, 0.015) {
			t.Errorf("CDF(%v) = %v, want %v", x, got, want)
		}
	}
	for _, p := range []float64{0.01, 0.3, 0.6, 0.99} {
		if q := d.Quantile(p); !near(d.CDF(q), p, 1e-9) {
			t.Errorf("CDF(Quantile(%v)) = %v", p, d.CDF(q))
		}
	}
	if !d.Smooth() || !math.IsInf(d.Quantile(1.001), 1) {
		t.Errorf("Smooth %v, Quantile(1.001) = %v", d.Smooth(), d.Quantile(1.001))
	}
	if h := d.Hazard(10); !near(h, d.PDF(10)/(1-d.CDF(10)), 1e-12) {
		t.Errorf("hazard(10) = %v", h)
	}
}

func TestDensityCensored(t *testing.T) {
	// Lognormal (median 20 s) observed over a 60 s window: many pending.
	r := rand.New(rand.NewPCG(9, 10))
	items := window(r, lognormalAges(r, 20000, 20, 1), 120, Settled)
	s := accumulate(items).Survival()
	d := Density(s, DensityOptions{})
	never := s.Never()
	if never < 0.02 || d.Never() != never {
		t.Fatalf("Never = %v (KM %v), want the KM end value > 0.02", d.Never(), never)
	}
	if got := integratePDF(d, 1e-3, 1e6); !near(got, 1-never, 2e-3) {
		t.Errorf("∫f = %v, want 1 − S(∞) = %v", got, 1-never)
	}
	if got := d.CDF(1e9); !near(got, 1-never, 1e-9) {
		t.Errorf("CDF(∞) = %v, want %v", got, 1-never)
	}
	truth := distuv.LogNormal{Mu: math.Log(20), Sigma: 1}
	for _, x := range []float64{2, 5, 10, 20, 40, 80} {
		if got := d.CDF(x); !near(got, truth.CDF(x), 0.02) {
			t.Errorf("CDF(%v) = %v, want %v", x, got, truth.CDF(x))
		}
	}
	prev := 0.0
	for x := 0.01; x < 1e4; x *= 1.01 {
		c := d.CDF(x)
		if c < prev {
			t.Fatalf("CDF decreases at %v", x)
		}
		prev = c
	}
}

func TestDensityRounded(t *testing.T) {
	// Ages rounded to whole seconds are spread back over their second:
	// the density is smooth, not a comb.
	r := rand.New(rand.NewPCG(11, 12))
	ages := lognormalAges(r, 20000, 10, 0.5)
	final := make([]bool, len(ages))
	for i := range ages {
		ages[i], final[i] = math.Round(ages[i]), true
	}
	s := KaplanMeier(ages, final, nil)
	if s.Resolution != 1 {
		t.Fatalf("resolution %v, want 1", s.Resolution)
	}
	d := Density(s, DensityOptions{})
	if len(d.Atoms()) != 0 {
		t.Errorf("atoms %v on rounded ages", d.Atoms())
	}
	truth := distuv.LogNormal{Mu: math.Log(10), Sigma: 0.5}
	for _, x := range []float64{5, 5.5, 8, 8.5, 10, 10.5, 15, 15.5} {
		if got, want := d.PDF(x), truth.Prob(x); math.Abs(got/want-1) > 0.12 {
			t.Errorf("PDF(%v) = %v, want ≈ %v", x, got, want)
		}
	}
}

func TestDensityDeadlineAtom(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	s := accumulate(deadlineLog(r, 20000, 0.3, 60)).Survival()
	d := Density(s, DensityOptions{})
	at := d.Atoms()
	if len(at) != 1 || at[0].Age != 60 || !near(at[0].Share, 0.3, 0.02) {
		t.Fatalf("atoms %+v, want one at 60 s holding ≈ 0.3", at)
	}
	if d.Smooth() {
		t.Error("Smooth() with an atom")
	}
	if q := d.Quantile(d.CDF(59.99) + at[0].Share/2); q != 60 {
		t.Errorf("quantile inside the atom = %v, want 60", q)
	}
	if jump := d.CDF(60) - d.CDF(59.999); !near(jump, at[0].Share, 1e-3) {
		t.Errorf("CDF jump at 60 = %v, want %v", jump, at[0].Share)
	}
	if got := integratePDF(d, 1e-3, 1e5) + at[0].Share; !near(got, 1, 3e-3) {
		t.Errorf("∫f + atom = %v, want 1", got)
	}
}

func trues(n int) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = true
	}
	return b
}

func TestDensityDegenerate(t *testing.T) {
	// All answers at one age: no spread to smooth, a 5% kernel, a warning.
	s := KaplanMeier([]float64{7, 7, 7, 9}, []bool{true, true, true, false}, nil)
	d := Density(s, DensityOptions{SmoothDeadlines: true})
	if h, m := d.Bandwidth(); m != "default" || h != 0.05 || len(d.Warnings) != 1 {
		t.Errorf("bandwidth %v (%s), warnings %q", h, m, d.Warnings)
	}
	if got := integratePDF(d, 1e-3, 1e3); !near(got, 0.75, 2e-3) {
		t.Errorf("∫f = %v, want 1 − S(∞) = 0.75", got)
	}
	// A handful of ages: whatever the method, a proper density.
	s = KaplanMeier([]float64{1, 2, 4, 8, 30}, trues(5), nil)
	d = Density(s, DensityOptions{})
	if h, m := d.Bandwidth(); !(h > 0) || (m != "isj" && m != "silverman") {
		t.Errorf("bandwidth %v (%s)", h, m)
	}
	if got := integratePDF(d, 1e-3, 1e4); !near(got, 1, 2e-3) {
		t.Errorf("∫f = %v, want 1", got)
	}
	// Nothing final: all mass is Never.
	d = Density(KaplanMeier([]float64{5, 6}, []bool{false, false}, nil), DensityOptions{})
	if d.Never() != 1 || d.CDF(100) != 0 || d.PDF(5) != 0 || d.Survival(1) != 1 {
		t.Errorf("no answers: never %v CDF %v PDF %v", d.Never(), d.CDF(100), d.PDF(5))
	}
	if tt, _, _, _ := d.Grid(); len(tt) != 0 {
		t.Errorf("grid of %d points for no answers", len(tt))
	}
}

func TestISJFallback(t *testing.T) {
	// Two points: the fixed point has no root in the bracket, so
	// Silverman's rule takes over, with a warning. With sd = 2.5 and
	// IQR/1.34 larger, h = 0.9·2.5·2^(−1/5).
	pts := []logPoint{{0, 0, 1}, {5, 5, 1}}
	h, m, warn := chooseBandwidth(pts, 2, 0)
	if m != "silverman" || !near(h, 0.9*2.5*math.Pow(2, -0.2), 1e-12) || warn == "" {
		t.Errorf("bandwidth %v (%s), warning %q", h, m, warn)
	}
}

func TestHazardExponential(t *testing.T) {
	// Exponential ages (rate 0.1/s), censored by a uniform observation
	// window: the hazard is 0.1 at every age.
	r := rand.New(rand.NewPCG(19, 20))
	n := 50000
	ages, final := make([]float64, n), make([]bool, n)
	for i := range ages {
		a, c := r.ExpFloat64()/0.1, 60*r.Float64()
		ages[i], final[i] = min(a, c), a <= c
	}
	d := Density(KaplanMeier(ages, final, nil), DensityOptions{})
	for _, x := range []float64{1, 3, 10, 20, 40} {
		if h := d.Hazard(x); math.Abs(h/0.1-1) > 0.1 {
			t.Errorf("hazard(%v) = %v, want 0.1", x, h)
		}
	}
}
