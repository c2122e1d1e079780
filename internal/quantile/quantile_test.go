package quantile

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sample draws n seeded numbers: 10% zeros, 20% negative, the rest
// lognormal with σ = 1.5, so the histogram has to collapse.
func sample(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := make([]float64, n)
	for i := range x {
		switch u := rng.Float64(); {
		case u < 0.1:
			x[i] = 0
		case u < 0.3:
			x[i] = -math.Exp(rng.NormFloat64() * 1.5)
		default:
			x[i] = 3 * math.Exp(rng.NormFloat64()*1.5)
		}
	}
	return x
}

// TestQuantilesExact: up to ExactValues numbers the spread is
// Summarise's, to the bit.
func TestQuantilesExact(t *testing.T) {
	x := sample(ExactValues, 1)
	x[3] = math.NaN() // ignored by both
	var q Quantiles
	for _, v := range x {
		q.Add(v)
	}
	if got, want := q.Spread(), Summarise(x); got != want || q.Error() != 0 || q.N() != ExactValues-1 {
		t.Errorf("spread %+v (error %g, n %d), want %+v exactly", got, q.Error(), q.N(), want)
	}
}

// TestQuantilesFolded checks the folded sketch's quantiles against the
// exact type-7 quantiles of the same seeded sample, sorted: each within
// the documented bound Error·max(|x₍ₖ₎|, |x₍ₖ₊₁₎|).
func TestQuantilesFolded(t *testing.T) {
	x := sample(200_000, 2)
	var q Quantiles
	for _, v := range x {
		q.Add(v)
	}
	s := slices.Clone(x)
	slices.Sort(s)
	// Each sign spans about ±4.4σ = 13 in ln x: 6,600 and 6,200 bins of
	// ln γ0 = 0.002, so two collapses (to 3,200) fit MaxBins.
	g := math.Pow(gamma0, 4)
	if want := (g - 1) / (g + 1); math.Abs(q.Error()-want) > 1e-12 {
		t.Errorf("error bound %g, want %g (two collapses)", q.Error(), want)
	}
	for _, p := range []float64{0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1} {
		h := float64(len(s)-1) * p
		k := int(h)
		want := quantile7(s, p)
		bound := q.Error() * math.Max(math.Abs(s[k]), math.Abs(s[min(k+1, len(s)-1)]))
		if got := q.Quantile(p); math.Abs(got-want) > bound {
			t.Errorf("p%g: %g, exact %g, off by %g > %g", 100*p, got, want, math.Abs(got-want), bound)
		}
	}
	if got := q.Quantile(0.25); got != 0 {
		t.Errorf("p25 = %g, want 0 (10%% zeros from the 20th to the 30th percentile)", got)
	}
}

// TestQuantilesMerge: sketches of three parts of a stream, merged, read
// the same quantiles as the sketch of the whole stream.
func TestQuantilesMerge(t *testing.T) {
	x := sample(60_000, 3)
	var whole, a, b, c Quantiles
	for i, v := range x {
		whole.Add(v)
		[]*Quantiles{&a, &b, &c}[min(i/500, 2)].Add(v) // a and b exact, c folded
	}
	a.Merge(&b)
	a.Merge(&c)
	for _, p := range []float64{0.01, 0.1, 0.5, 0.9, 0.99} {
		if got, want := a.Quantile(p), whole.Quantile(p); got != want {
			t.Errorf("p%g: merged %g, whole %g", 100*p, got, want)
		}
	}
	if a.N() != whole.N() || a.Error() != whole.Error() {
		t.Errorf("merged n %d error %g, whole %d %g", a.N(), a.Error(), whole.N(), whole.Error())
	}
}

// TestQuantilesMemory: numbers spanning 300 decades keep the histogram
// within MaxBins, and adding to a folded sketch allocates nothing, so
// memory does not grow with the stream.
func TestQuantilesMemory(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var q Quantiles
	for range 1_000_000 {
		q.Add(math.Pow(10, 300*rng.Float64()-150))
	}
	if n := len(q.pos) + len(q.neg); n > MaxBins {
		t.Errorf("%d bins, more than %d", n, MaxBins)
	}
	if q.N() != 1_000_000 {
		t.Errorf("n = %d", q.N())
	}
	if a := testing.AllocsPerRun(1000, func() { q.Add(math.Pow(10, 300*rng.Float64()-150)) }); a != 0 {
		t.Errorf("Add allocates %g times a number", a)
	}
	if med := q.Quantile(0.5); math.Abs(math.Log10(med)) > 1 {
		t.Errorf("median %g, want about 10^0", med)
	}
}

// TestQuantilesWholeNumbers: counts (whole numbers) below 500 read back
// exactly once folded, as they would unfolded: each of the finest bins
// is narrower than 1, so it holds one whole number.
func TestQuantilesWholeNumbers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var q Quantiles
	x := make([]float64, 5001)
	for i := range x {
		x[i] = float64(rng.IntN(499))
		q.Add(x[i])
	}
	s := slices.Clone(x)
	slices.Sort(s)
	for _, p := range []float64{0.1, 0.5, 0.9, 0.999} {
		if got, want := q.Quantile(p), quantile7(s, p); got != want {
			t.Errorf("p%g: %g, want exactly %g", 100*p, got, want)
		}
	}
	q.Add(0.5) // no longer all whole: read as bins again
	if got := q.Quantile(0.5); got == math.Round(got) {
		t.Errorf("median %g still rounded after a fraction", got)
	}
}

func TestSummarise(t *testing.T) {
	// 1..11: type-7 quantiles at h = 10p: 10th → 2, median → 6, 90th → 10.
	x := []float64{11, 3, 1, 2, 4, 5, 6, 7, 8, 9, 10, math.NaN()}
	if s := Summarise(x); s != (Spread{Median: 6, P10: 2, P90: 10}) {
		t.Errorf("Summarise = %+v", s)
	}
	// 1..4: h = 0.3, 1.5, 2.7 → 1.3, 2.5, 3.7.
	s := Summarise([]float64{4, 3, 2, 1})
	if math.Abs(s.P10-1.3) > 1e-12 || s.Median != 2.5 || math.Abs(s.P90-3.7) > 1e-12 {
		t.Errorf("Summarise(1..4) = %+v", s)
	}
	if s := Summarise(nil); !math.IsNaN(s.Median) {
		t.Errorf("Summarise(nil) = %+v", s)
	}
}
