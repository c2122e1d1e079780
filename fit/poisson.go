package fit

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// poissonDraws draws Poisson counts with the means of a sample's
// weights (of the sampled rows, times Sample.Scale, for a sample of a
// larger log), as the bootstrap's resamples do, by inversion from one
// uniform: the search starts at the mode, whose probability and
// cumulative probability are computed once per item, and steps down or
// up, about 0.8 standard deviations on average. Means above
// maxInversion go to gonum's sampler.
type poissonDraws struct {
	scale float64 // each draw counts this many rows (Sample.Scale)
	mean  []float64
	mode  []float64 // ⌊mean⌋
	pm    []float64 // P(X = mode)
	cm    []float64 // P(X ≤ mode)
}

// maxInversion is the largest mean drawn by inversion (about 80 steps).
const maxInversion = 1e4

func newPoissonDraws(smp Sample) poissonDraws {
	n := smp.Len()
	d := poissonDraws{scale: 1, mean: make([]float64, n), mode: make([]float64, n), pm: make([]float64, n), cm: make([]float64, n)}
	if smp.Scale > 1 {
		d.scale = smp.Scale
	}
	for i := range n {
		m := smp.Weight(i) / d.scale
		d.mean[i] = m
		if m > 0 && m <= maxInversion {
			k := math.Floor(m)
			lg, _ := math.Lgamma(k + 1)
			d.mode[i], d.pm[i], d.cm[i] = k, math.Exp(k*math.Log(m)-m-lg), mathext.GammaIncRegComp(k+1, m)
		}
	}
	return d
}

// resample sets w[i] to a Poisson count of mean the weight of item i.
func (d poissonDraws) resample(rng *rand.Rand, w []float64) {
	for i, m := range d.mean {
		switch {
		case m <= 0:
			w[i] = 0
		case m <= maxInversion:
			w[i] = invertPoisson(rng.Float64(), m, d.mode[i], d.pm[i], d.cm[i])
		default:
			w[i] = distuv.Poisson{Lambda: m, Src: rng}.Rand()
		}
		w[i] *= d.scale
	}
}

// invertPoisson is the least k with P(X ≤ k) > u for X Poisson of mean
// m, searched from the mode k0 (p0 = P(X = k0), c0 = P(X ≤ k0)).
func invertPoisson(u, m, k0, p0, c0 float64) float64 {
	k, p, c := k0, p0, c0
	if u < c {
		// Down while P(X ≤ k−1) = c − p still exceeds u.
		for k > 0 && u < c-p {
			c -= p
			p *= k / m
			k--
		}
		return k
	}
	for u >= c && p > 0 {
		k++
		p *= m / k
		c += p
	}
	return k
}
