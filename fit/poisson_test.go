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
