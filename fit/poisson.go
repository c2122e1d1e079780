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
// cumulative probability are computed once per mean, and steps down or
// up, about 0.8 standard deviations on average, each step a product
// with a reciprocal computed beforehand. Means above maxInversion go to
// gonum's sampler.
//
// Most items of a sketch or a log share a few small means (a bin's
// count, a row's 1). For each of those the cumulative probabilities the
// search steps through are worked out once, by the same arithmetic, into
// a table with a guide (Chen and Asau's): a draw then starts at the
// guide's entry for its uniform and takes a step or none. It finds the
// count the search would, for every uniform.
type poissonDraws struct {
	scale float64 // each draw counts this many rows (Sample.Scale)
	bins  []*poissonMean
}

// poissonMean is what the draws of one mean need.
type poissonMean struct {
	mean, inv float64 // the mean and 1/mean
	mode      float64 // ⌊mean⌋
	pm, cm    float64 // P(X = mode), P(X ≤ mode)
	tab       *poissonTable
}

// maxInversion is the largest mean drawn by inversion (about 80 steps).
const maxInversion = 1e4

// Tables are made for means up to maxTabled; at most maxShared means
// share their constants (and table).
const (
	maxTabled = 256
	maxShared = 4096
)

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
	d := poissonDraws{scale: 1, bins: make([]*poissonMean, n)}
	if smp.Scale > 1 {
		d.scale = smp.Scale
	}
	shared := map[float64]*poissonMean{}
	for i := range n {
		m := smp.Weight(i) / d.scale
		if pm, ok := shared[m]; ok {
			d.bins[i] = pm
			continue
		}
		pm := newPoissonMean(m)
		if len(shared) < maxShared {
			if m > 0 && m <= maxTabled {
				pm.tab = newPoissonTable(pm, recip())
			}
			shared[m] = pm
		}
		d.bins[i] = pm
	}
	return d
}

func newPoissonMean(m float64) *poissonMean {
	pm := &poissonMean{mean: m}
	if m > 0 && m <= maxInversion {
		k := math.Floor(m)
		lg, _ := math.Lgamma(k + 1)
		pm.inv, pm.mode, pm.pm, pm.cm = 1/m, k, math.Exp(k*math.Log(m)-m-lg), mathext.GammaIncRegComp(k+1, m)
	}
	return pm
}

// resample sets w[i] to a Poisson count of mean the weight of item i.
func (d poissonDraws) resample(rng *rand.Rand, w []float64) {
	rc := recip()
	for i, b := range d.bins {
		switch m := b.mean; {
		case m <= 0:
			w[i] = 0
		case b.tab != nil:
			w[i] = b.tab.draw(rng.Float64(), b, rc)
		case m <= maxInversion:
			w[i] = invertPoisson(rng.Float64(), b, rc)
		default:
			w[i] = distuv.Poisson{Lambda: m, Src: rng}.Rand()
		}
		w[i] *= d.scale
	}
}

// invertPoisson is the least k with P(X ≤ k) > u for X Poisson of the
// mean, searched from its mode; rc[k] is 1/k.
func invertPoisson(u float64, b *poissonMean, rc []float64) float64 {
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
	return stepUp(u, b.mean, k, p, c, rc)
}

// stepUp is invertPoisson's search up from count k, with p = P(X = k)
// and c = P(X ≤ k) as the search computes them.
func stepUp(u, m, k, p, c float64, rc []float64) float64 {
	for u >= c && p > 0 {
		k++
		if int(k) < len(rc) {
			p *= m * rc[int(k)]
		} else {
			p *= m / k
		}
		c += p
	}
	return k
}

// A poissonTable holds, for counts 0 … len(cum)−1, the cumulative
// probability P(X ≤ k) that invertPoisson compares u with on reaching k
// (c − p on its way down, c on its way up), and a guide: guide[j] is the
// least count whose cum exceeds j/len(guide), so that the count of any u
// in [j/len(guide), (j+1)/len(guide)) is guide[j] or above.
type poissonTable struct {
	cum   []float64
	guide []int32
	// p and c are the search's P(X = k) and P(X ≤ k) at the table's last
	// count, to search on from there.
	p, c float64
}

func newPoissonTable(b *poissonMean, rc []float64) *poissonTable {
	// Down from the mode, as invertPoisson steps.
	k, p, c := b.mode, b.pm, b.cm
	down := []float64{c}
	for k > 0 {
		c -= p
		p *= k * b.inv
		k--
		down = append(down, c)
	}
	t := &poissonTable{}
	for i := len(down) - 1; i >= 0; i-- {
		t.cum = append(t.cum, down[i])
	}
	// Up from the mode, until the search would stop whatever u (c ≥ 1)
	// or a count far out in the tail.
	k, p, c = b.mode, b.pm, b.cm
	limit := b.mode + 40*math.Sqrt(b.mean) + 40
	for c < 1 && p > 0 && k < limit {
		k++
		if int(k) < len(rc) {
			p *= b.mean * rc[int(k)]
		} else {
			p *= b.mean / k
		}
		c += p
		t.cum = append(t.cum, c)
	}
	t.p, t.c = p, c
	// The guide, over a power of two of cells so that u·cells is exact.
	cells := 1
	for cells < 2*len(t.cum) {
		cells *= 2
	}
	t.guide = make([]int32, cells)
	j := 0
	for cell := range t.guide {
		for j < len(t.cum)-1 && !(t.cum[j] > float64(cell)/float64(cells)) {
			j++
		}
		t.guide[cell] = int32(j)
	}
	return t
}

// draw is invertPoisson(u, b, rc) from the table.
func (t *poissonTable) draw(u float64, b *poissonMean, rc []float64) float64 {
	k := int(t.guide[int(u*float64(len(t.guide)))])
	for k < len(t.cum) && u >= t.cum[k] {
		k++
	}
	if k < len(t.cum) {
		return float64(k)
	}
	last := len(t.cum) - 1
	return stepUp(u, b.mean, float64(last), t.p, t.c, rc)
}
