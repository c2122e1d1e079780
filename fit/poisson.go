package fit

import (
	"math"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// poissonDraws draws Poisson counts with the means of a sample's
// weights (of the sampled rows, times Sample.Scale, for a sample of a
// larger log), as the bootstrap's resamples do, by inversion from one
// uniform: the search starts at the mode, whose probability and
// cumulative probability are computed once per item, and steps down or
// up, about 0.8 standard deviations on average, each step a product
// with a reciprocal computed beforehand. Means above maxInversion go to
// gonum's sampler.
type poissonDraws struct {
	scale float64 // each draw counts this many rows (Sample.Scale)
	bins  []poissonBin
}

// poissonBin is what an item's draw needs, together.
type poissonBin struct {
	mean, inv float64 // the mean and 1/mean
	mode      float64 // ⌊mean⌋
	pm, cm    float64 // P(X = mode), P(X ≤ mode)
}

// maxInversion is the largest mean drawn by inversion (about 80 steps).
const maxInversion = 1e4

// recip[k] is 1/k, for the steps up from a mode (recip[0] unused).
var recip = sync.OnceValue(func() []float64 {
	r := make([]float64, 2*maxInversion)
	for k := 1; k < len(r); k++ {
		r[k] = 1 / float64(k)
	}
	return r
})

func newPoissonDraws(smp Sample) poissonDraws {
	n := smp.Len()
	d := poissonDraws{scale: 1, bins: make([]poissonBin, n)}
	if smp.Scale > 1 {
		d.scale = smp.Scale
	}
	for i := range n {
		m := smp.Weight(i) / d.scale
		b := &d.bins[i]
		b.mean = m
		if m > 0 && m <= maxInversion {
			k := math.Floor(m)
			lg, _ := math.Lgamma(k + 1)
			b.inv, b.mode, b.pm, b.cm = 1/m, k, math.Exp(k*math.Log(m)-m-lg), mathext.GammaIncRegComp(k+1, m)
		}
	}
	return d
}

// resample sets w[i] to a Poisson count of mean the weight of item i.
func (d poissonDraws) resample(rng *rand.Rand, w []float64) {
	rc := recip()
	for i := range d.bins {
		b := &d.bins[i]
		switch m := b.mean; {
		case m <= 0:
			w[i] = 0
		case m <= maxInversion:
			w[i] = invertPoisson(rng.Float64(), b, rc)
		default:
			w[i] = distuv.Poisson{Lambda: m, Src: rng}.Rand()
		}
		w[i] *= d.scale
	}
}

// invertPoisson is the least k with P(X ≤ k) > u for X Poisson of the
// bin's mean, searched from its mode; rc[k] is 1/k.
func invertPoisson(u float64, b *poissonBin, rc []float64) float64 {
	k, p, c := b.mode, b.pm, b.cm
	if u < c {
		// Down while P(X ≤ k−1) = c − p still exceeds u.
		for k > 0 && u < c-p {
			c -= p
			p *= k * b.inv
			k--
		}
		return k
	}
	for u >= c && p > 0 {
		k++
		if int(k) < len(rc) {
			p *= b.mean * rc[int(k)]
		} else {
			p *= b.mean / k
		}
		c += p
	}
	return k
}
