package fit

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pollfit/pollfit/estimate"
)

// The bootstrap's Poisson draws have the Poisson law: at means below
// and above the inversion's limit, the share of each count over 200,000
// draws is within 5 standard errors of the probability mass function.
func TestPoissonDraws(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, m := range []float64{0.3, 1, 7.5, 29.9, 120, 2500, maxInversion + 1} {
		d := newPoissonDraws(Sample{Items: make([]estimate.Item, 1), Weights: []float64{m}})
		const n = 200_000
		counts := map[float64]float64{}
		w := []float64{0}
		for range n {
			d.resample(r, w)
			counts[w[0]]++
		}
		for k := math.Floor(math.Max(0, m-3*math.Sqrt(m))); k <= m+3*math.Sqrt(m); k++ {
			lg, _ := math.Lgamma(k + 1)
			p := math.Exp(k*math.Log(m) - m - lg)
			se := math.Sqrt(p * (1 - p) / n)
			if got := counts[k] / n; math.Abs(got-p) > 5*se {
				t.Errorf("mean %g: P(%g) drawn %.5f, want %.5f ± %.5f", m, k, got, p, 5*se)
			}
		}
	}
}

// A sample of a larger log (Sample.Scale) is resampled by its sampled
// rows: items of weight 10 that stand for 10 rows each draw ten times
// what the same items of weight 1 draw from the same stream, so the
// bootstrap's spread is that of the sampled rows, not of the rows they
// stand for (which would be √10 narrower).
func TestPoissonDrawsScaled(t *testing.T) {
	items := make([]estimate.Item, 500)
	plain, scaled := Sample{Items: items, Weights: make([]float64, 500)}, Sample{Items: items, Weights: make([]float64, 500), Scale: 10}
	for i := range items {
		plain.Weights[i], scaled.Weights[i] = float64(1+i%3), 10*float64(1+i%3)
	}
	a, b := make([]float64, 500), make([]float64, 500)
	newPoissonDraws(plain).resample(rand.New(rand.NewPCG(1, 2)), a)
	newPoissonDraws(scaled).resample(rand.New(rand.NewPCG(1, 2)), b)
	for i := range a {
		if b[i] != 10*a[i] {
			t.Fatalf("item %d: scaled draw %g, want 10 × %g", i, b[i], a[i])
		}
	}
}

// A table's draw is the search's count for every uniform: random ones,
// each cumulative probability the search compares with and the floats
// either side of it, and uniforms beyond the table's last count; for
// whole and fractional means up to the largest tabled, and 0.
func TestPoissonTableIsTheSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	rc := recip()
	means := []float64{1e-9, 0.3, 1, 2, 3.5, 7, 10, 29.9, 64, 100, 255.5, maxTabled}
	for range 40 {
		means = append(means, 1+float64(r.IntN(maxTabled)), r.Float64()*maxTabled)
	}
	for _, m := range means {
		b := newPoissonMean(m)
		tab := newPoissonTable(b, rc)
		us := []float64{0, math.Nextafter(1, 0), math.Nextafter(tab.c, 0), tab.c}
		for range 2000 {
			us = append(us, r.Float64())
		}
		for _, c := range tab.cum {
			us = append(us, c, math.Nextafter(c, 0), math.Nextafter(c, 1))
		}
		for _, u := range us {
			if u < 0 || u >= 1 {
				continue
			}
			if got, want := tab.draw(u, b, rc), invertPoisson(u, b, rc); got != want {
				t.Fatalf("mean %g, u %v: table %g, search %g", m, u, got, want)
			}
		}
	}
}
