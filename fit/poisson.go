package fit

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// poissonDraws draws Poisson counts with the means of a sample's
// weights, as the bootstrap's resamples do: by inversion from one
// uniform with e^−w computed once per item for means up to
// maxInversion, by gonum's sampler above.
type poissonDraws struct {
	mean, expNeg []float64
}

// maxInversion is the largest mean drawn by inversion: its e^−w is far
// above the smallest float64, and it takes about w steps.
const maxInversion = 30

func newPoissonDraws(smp Sample) poissonDraws {
	d := poissonDraws{mean: make([]float64, smp.Len()), expNeg: make([]float64, smp.Len())}
	for i := range d.mean {
		d.mean[i] = smp.Weight(i)
		d.expNeg[i] = math.Exp(-d.mean[i])
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
			w[i] = invertPoisson(rng.Float64(), m, d.expNeg[i])
		default:
			w[i] = distuv.Poisson{Lambda: m, Src: rng}.Rand()
		}
	}
}

// invertPoisson is the smallest k with P(X ≤ k) > u for X Poisson of
// mean m (e = e^−m).
func invertPoisson(u, m, e float64) float64 {
	k, p, cdf := 0.0, e, e
	for u >= cdf && p > 0 {
		k++
		p *= m / k
		cdf += p
	}
	return k
}
