package fit

import (
	"math"
	"slices"
	"sort"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// Distribution is a settle-time distribution: CDF(t) is the chance that an
// item's final answer has come by age t seconds. It may tend to less than
// 1: the rest never settles. estimate.Model and the smoothed densities of
// package estimate satisfy it.
type Distribution interface {
	CDF(t float64) float64
}

// Density is a Distribution with a density, PDF(t) = CDF'(t). The
// continuous rate (Rate) and Barlow–Proschan shooting (Shoot) need it.
type Density interface {
	Distribution
	PDF(t float64) float64
}

// quantiler is a Distribution that can give its quantiles, used to place
// the integration grid where the mass is.
type quantiler interface {
	Quantile(p float64) float64
}

// law is what the cost of a schedule needs, per item: F(t) the share of
// items with a final answer at an age ≤ t; I(t) = ∫₀ᵗ F and
// J(t) = ∫₀ᵗ s F(s) ds; total, the share that is asked until its answer
// comes (final and never-settling items); pend(t), the share pending in
// the log whose observation ended at an age ≥ t (still asked at t).
type law interface {
	at(t float64) pt // F, I, J and pend at once
	F(t float64) float64
	total() float64
	pend(t float64) float64
}

// distLaw tabulates I and J for a Distribution on a grid; between grid
// points the CDF is evaluated exactly and the integral is a trapezoid.
type distLaw struct {
	d       Distribution
	t, i, j []float64
	f       []float64
}

// newDistLaw tabulates d on [0, end].
func newDistLaw(d Distribution, end float64) *distLaw {
	return newDistLawN(d, end, distQuantiles)
}

// distQuantiles is how many quantiles (and grid steps) newDistLaw
// places its grid at; cvQuantiles how many the smoothing's
// cross-validation tabulates its candidate densities at, as its exact
// fits rank bandwidths rather than ship a schedule (as cvCandidates).
const (
	distQuantiles = 4000
	cvQuantiles   = 1000
)

// newDistLawN tabulates d on [0, end] at n quantiles and grid steps.
func newDistLawN(d Distribution, end float64, n int) *distLaw {
	pts := make([]float64, 0, 3*n)
	for k := 0; k <= n; k++ {
		x := float64(k) / float64(n)
		pts = append(pts, end*x, end*x*x*x)
	}
	if q, ok := d.(quantiler); ok {
		for k := 1; k < n; k++ {
			x := q.Quantile(float64(k) / float64(n))
			if x > 0 && x < end && !math.IsInf(x, 0) {
				// A point just below each quantile keeps atoms exact.
				pts = append(pts, x, math.Nextafter(x, 0))
			}
		}
	}
	slices.Sort(pts)
	pts = slices.Compact(pts)
	l := &distLaw{d: d, t: pts}
	l.f = make([]float64, len(pts))
	l.i = make([]float64, len(pts))
	l.j = make([]float64, len(pts))
	for k, x := range pts {
		l.f[k] = d.CDF(x)
		if k > 0 {
			h := x - pts[k-1]
			l.i[k] = l.i[k-1] + h*(l.f[k]+l.f[k-1])/2
			l.j[k] = l.j[k-1] + h*(x*l.f[k]+pts[k-1]*l.f[k-1])/2
		}
	}
	return l
}

func (l *distLaw) F(t float64) float64 {
	if t < 0 {
		return 0
	}
	return l.d.CDF(t)
}

// fastF is F interpolated linearly on the grid: for lag percentiles,
// where a relative error of the grid's order is harmless. An atom's
// jump is kept (the grid has a point just below it).
func (l *distLaw) fastF(t float64) float64 {
	if t < 0 {
		return 0
	}
	k := l.cell(t)
	if k+1 >= len(l.t) || t <= l.t[k] {
		return l.f[k]
	}
	w := (t - l.t[k]) / (l.t[k+1] - l.t[k])
	return l.f[k] + w*(l.f[k+1]-l.f[k])
}

// cell is the index k of the last grid point ≤ t.
func (l *distLaw) cell(t float64) int {
	return max(sort.SearchFloat64s(l.t, t+1e-300)-1, 0)
}

func (l *distLaw) at(t float64) pt {
	if t <= 0 {
		return pt{t: t, f: l.F(t)}
	}
	f := l.d.CDF(t)
	k := l.cell(t)
	h := t - l.t[k]
	x := pt{t: t, f: f}
	if k+1 < len(l.t) && h > 0 && l.t[k+1] > t {
		x.i = l.i[k] + h*(l.f[k]+f)/2
		x.j = l.j[k] + h*(l.t[k]*l.f[k]+t*f)/2
	} else {
		x.i = l.i[k] + h*l.f[k]
		x.j = l.j[k] + h*(l.t[k]+t)/2*l.f[k]
	}
	return x
}

func (l *distLaw) total() float64       { return 1 }
func (l *distLaw) pend(float64) float64 { return 0 }

// itemLaw is the exact law of a log: final items are atoms at their
// ages, pending items are asked up to their censoring age; each counts
// with its weight in a Sample.
type itemLaw struct {
	final   []float64 // sorted ages of final answers
	cum     []float64 // cum[k] = Σ w over final[:k]
	sum     []float64 // sum[k] = Σ w·a over final[:k]
	sum2    []float64 // sum2[k] = Σ w·a² over final[:k]
	pending []float64 // sorted censoring ages
	pcum    []float64 // pcum[k] = Σ w over pending[:k]
	n       float64   // total weight
	// largest is the largest age of any item of positive weight, final
	// or pending (largestAgeSample), where a fit of a schedule that never
	// stops costs it to.
	largest time.Duration
}

func newItemLaw(items []estimate.Item) *itemLaw { return newSampleLaw(ItemSample(items)) }

// newSampleLaw is the law of smp; items of weight 0 are left out.
func newSampleLaw(smp Sample) *itemLaw {
	l := &itemLaw{n: smp.Total(), largest: largestAgeSample(smp)}
	var final, pending atoms
	for i, it := range smp.Items {
		switch w := smp.Weight(i); {
		case w == 0:
		case it.Status.Final():
			final.add(it.Age, w, smp.Weighted())
		default:
			pending.add(it.Age, w, smp.Weighted())
		}
	}
	var ws []float64
	l.final, l.cum, ws = final.sorted()
	l.pending, l.pcum, _ = pending.sorted()
	l.sum = make([]float64, len(l.final)+1)
	l.sum2 = make([]float64, len(l.final)+1)
	for k, a := range l.final {
		w := 1.0
		if ws != nil {
			w = ws[k]
		}
		l.sum[k+1] = l.sum[k] + w*a
		l.sum2[k+1] = l.sum2[k] + w*a*a
	}
	return l
}

// atoms are ages with their weights (w nil: every weight is 1).
type atoms struct{ age, w []float64 }

func (a *atoms) add(age, w float64, weighted bool) {
	a.age = append(a.age, age)
	if weighted {
		a.w = append(a.w, w)
	}
}

// sorted returns the ages in increasing order, the prefix sums of their
// weights (one more than the ages) and the weights in the same order
// (nil when every weight is 1).
func (a *atoms) sorted() (ages, cum, ws []float64) {
	cum = make([]float64, len(a.age)+1)
	if a.w == nil {
		slices.Sort(a.age)
		for k := range a.age {
			cum[k+1] = float64(k + 1)
		}
		return a.age, cum, nil
	}
	// The pairs sort together, by age alone, in the order a comparison
	// sort of them gives (sortLagWeights: a radix sort of a long list,
	// unless ties of other weights could be ordered otherwise).
	pairs := make([]lagWeight, len(a.age))
	for k := range pairs {
		pairs[k] = lagWeight{a.age[k], a.w[k]}
	}
	sortLagWeights(pairs)
	ages, ws = make([]float64, len(pairs)), make([]float64, len(pairs))
	for k, p := range pairs {
		ages[k], ws[k] = p.lag, p.w
		cum[k+1] = cum[k] + ws[k]
	}
	return ages, cum, ws
}

// upto is the number of final answers (atoms, not weight) at ages ≤ t.
func (l *itemLaw) upto(t float64) int {
	return sort.Search(len(l.final), func(k int) bool { return l.final[k] > t })
}

func (l *itemLaw) F(t float64) float64 { return l.cum[l.upto(t)] / l.n }

func (l *itemLaw) at(t float64) pt {
	k := l.upto(t)
	fk := l.cum[k]
	return pt{t: t, f: fk / l.n, i: (fk*t - l.sum[k]) / l.n, j: (fk*t*t - l.sum2[k]) / (2 * l.n), pend: l.pend(t)}
}

func (l *itemLaw) total() float64 { return l.cum[len(l.final)] / l.n }

func (l *itemLaw) pend(t float64) float64 {
	k := sort.SearchFloat64s(l.pending, t)
	return (l.pcum[len(l.pending)] - l.pcum[k]) / l.n
}
