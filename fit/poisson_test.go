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
