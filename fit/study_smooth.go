package fit

import (
	"math"
	"sort"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// The smoothing. The exact optimum fitted to raw items overfits them, so
// Study fits it to their density, smoothed by a Gaussian kernel on the
// log-age axis (estimate.Density). The kernel's bandwidth decides how
// well that fit does on items it never saw, so it is chosen by that,
// not by the density estimate's own criterion: the fitting items are
// split in two halves (seeded by StudyOptions.Seed), and for each
// candidate bandwidth (the density estimate's own, ISJ's, times 2^(k/2)
// for k = −2 … 2) the exact optimum at the study's budget is fitted to
// each half's density and scored on each item of the other half: its lag
// (squared for RMS) plus the price per request of the density estimate's
// own fit times its requests, so that a fit that overspends does not look
// better for it. The least mean score wins, but only when it beats the
// density estimate's own by two standard errors of the items' paired
// differences: half the fitting items is a small sample, and a choice
// made on its noise generalises worse. Each half holds half the items,
// so its kernel is 2^(1/5) times wider (bandwidths shrink as n^(−1/5)).
// With fewer than minCrossValidate fitting items, or when a candidate
// cannot be fitted, the density estimate's own bandwidth stays;
// StudyOptions.Bandwidth, when set, is used as given.

// Smoothing is how the density the exact fits work on was smoothed.
type Smoothing struct {
	// Bandwidth is the kernel's standard deviation on the natural-log
	// age axis (0.1 ≈ ±10% of the age).
	Bandwidth float64
	// Rule is how it was chosen: SmoothGiven, SmoothCrossValidated, or
	// the density estimate's own method ("isj", "silverman", "resolution",
	// "default") when there were too few items to cross-validate.
	Rule string
	// Factor is Bandwidth over the density estimate's own bandwidth (1
	// for a given bandwidth).
	Factor float64
}

// The rules of Smoothing.Rule besides the density estimate's own.
const (
	SmoothGiven          = "given"
	SmoothCrossValidated = "cross-validated"
)

// bandwidthFactors are the candidate bandwidths, as multiples of the
// density estimate's own; the first wins ties.
var bandwidthFactors = []float64{1, 0.5, math.Sqrt2 / 2, math.Sqrt2, 2}

// minCrossValidate is the fewest fitting items (by weight) the
// bandwidth is cross-validated on.
const minCrossValidate = 1000

// cvCandidates is the most candidate ages of the exact fits scored in
// the cross-validation: a ranking needs fewer than a fit to ship.
const cvCandidates = 300

// smoothDensity is the ISJ-smoothed density of the fitting items, or the
// one of the bandwidth given, before any cross-validation.
func (st *study) smoothDensity() {
	h := st.opt.Bandwidth
	st.res.Density = st.density(h)
	bw, rule := st.res.Density.Bandwidth()
	if h > 0 {
		rule = SmoothGiven
	}
	st.res.Smoothing = &Smoothing{Bandwidth: bw, Rule: rule, Factor: 1}
	st.isj = bw
}

// chooseSmoothing cross-validates the bandwidth at the budget of opt and
// horizon h, once a study (StudyFrontier again at each budget where the
// smoothing shapes the schedule), and smooths the density the exact fits
// work on with it.
func (st *study) chooseSmoothing(opt Options, h time.Duration) {
	if st.smoothed || st.res.Smoothing == nil || st.opt.Bandwidth > 0 {
		return
	}
	st.smoothed = true
	if st.train.Total() < minCrossValidate {
		return
	}
	o := opt
	o.Horizon, o.Exact, o.Consider = h, true, nil
	o.Candidates = min(o.Candidates, cvCandidates)
	if o.Candidates == 0 {
		o.Candidates = cvCandidates
	}
	if o.Budget.AsksBy > 0 {
		o.Horizon = 0
	}
	best, ok := st.crossValidate(o)
	if !ok {
		return
	}
	f := bandwidthFactors[best]
	if st.res.Smoothing.Factor != f {
		st.res.Density = st.density(f * st.isj)
	}
	st.res.Smoothing = &Smoothing{Bandwidth: f * st.isj, Rule: SmoothCrossValidated, Factor: f}
}

// smoothingShips reports whether the smoothing reaches the schedule
// shipped, not only the exact (fit) row: with Exact, or through the
// exact optimum's asks that a deadline burst is placed over.
func (st *study) smoothingShips() bool {
	if st.res.Smoothing == nil {
		return false
	}
	return st.opt.Exact || len(st.findShapes().Deadlines) > 0
}

// crossValidate scores every candidate bandwidth on the two halves of
// the fitting items and returns the best one's index; ok is false when
// some candidate could not be fitted.
func (st *study) crossValidate(o Options) (best int, ok bool) {
	cv := st.cvHalves()
	if cv == nil {
		return 0, false
	}
	halves := cv.halves
	// The exact fits, on each half at each bandwidth, are independent:
	// they run in parallel, then score in order.
	nb := len(bandwidthFactors)
	type fitted struct {
		asks []float64
		mult float64
		ok   bool
	}
	fits := make([]fitted, 2*nb)
	parallel(len(fits), func(j int) error {
		d := cv.density(j/nb, bandwidthFactors[j%nb]*st.isj*math.Pow(2, 0.2))
		f := &fits[j]
		f.asks, f.mult, f.ok = exactAsks(d, o)
		return nil
	})
	for _, f := range fits {
		if !f.ok {
			return 0, false
		}
	}
	// Each fit is scored on the other half, each at once; then the
	// scores of a bandwidth join, half 0's fit's first.
	scored := make([][]float64, len(fits))
	parallel(len(fits), func(j int) error {
		k := j / nb
		lambda := fits[k*nb].mult // one price per request for every candidate
		scored[j] = itemScores(halves[1-k], fits[j].asks, o.Objective, lambda)
		return nil
	})
	scores := make([][]float64, nb)
	var ws []float64
	for k := range halves {
		other := halves[1-k]
		for i := range bandwidthFactors {
			scores[i] = append(scores[i], scored[k*nb+i]...)
		}
		for j := range other.Items {
			ws = append(ws, other.Weight(j))
		}
	}
	return pickBandwidth(scores, ws), true
}

// cvSplit is the cross-validation's two halves of a study's fitting
// items, each made ready to smooth: they depend on the items and the
// seed alone, so a study makes them once, however many budgets it
// cross-validates at (a frontier's, a group's curve and its study).
type cvSplit struct {
	halves    [2]Sample
	smoothers [2]*estimate.Smoother
	densities [2]onceMap[float64, *estimate.Dist]
}

// density is half k's smoothed density at bandwidth h, made once.
func (cv *cvSplit) density(k int, h float64) *estimate.Dist {
	return cv.densities[k].get(h, func() *estimate.Dist { return cv.smoothers[k].Density(h) })
}

// density is the study's smoothed density at bandwidth h (0: the
// density estimate's own), made once for the study and those again
// shares its items with: only read.
func (st *study) density(h float64) *estimate.Dist {
	return st.densities.get(h, func() *estimate.Dist { return st.smoother().Density(h) })
}

// newCVSplit splits train in halves by seed (nil when a half would be
// empty).
func newCVSplit(train Sample, seed uint64) *cvSplit {
	a, b := SplitSample(train, 0.5, seed^0x5eed5)
	if a.Len() == 0 || b.Len() == 0 {
		return nil
	}
	cv := &cvSplit{halves: [2]Sample{a, b}}
	parallel(2, func(k int) error {
		cv.smoothers[k] = estimate.NewSmoother(sampleKM(cv.halves[k]), estimate.DensityOptions{})
		return nil
	})
	return cv
}

// exactAsks is the exact optimum of d under o and the price per request
// it was found at (0 for a budget of asks).
func exactAsks(d Distribution, o Options) ([]float64, float64, bool) {
	p, err := distProblemAt(d, o, cvQuantiles)
	if err != nil || p.first >= p.end {
		return nil, 0, false
	}
	sol, mult, err := p.exact()
	if err != nil {
		return nil, 0, false
	}
	lambda, _ := p.mults(mult)
	return sol.Asks, lambda, true
}

// itemScores are the items' lag (squared for RMS) plus lambda times their
// requests under asks, each as Replay counts them: an answer at t waits
// for the first ask at or after t and costs the asks up to it, one after
// the last ask is missed (no lag) and costs every ask, and a pending item
// costs the asks at or before its censoring age.
func itemScores(smp Sample, asks []float64, obj Objective, lambda float64) []float64 {
	out := make([]float64, smp.Len())
	for i, it := range smp.Items {
		if !it.Status.Final() {
			out[i] = lambda * float64(sort.Search(len(asks), func(j int) bool { return asks[j] > it.Age }))
			continue
		}
		j := sort.SearchFloat64s(asks, it.Age)
		if j == len(asks) {
			out[i] = lambda * float64(len(asks))
			continue
		}
		lag := asks[j] - it.Age
		if obj == RMS {
			lag *= lag
		}
		out[i] = lag + lambda*float64(j+1)
	}
	return out
}

// pickBandwidth is the candidate of least mean score, unless it beats
// the first (the density estimate's own) by less than two standard
// errors of the items' paired differences: a half of the fitting items
// is a small sample, and a choice made on its noise would generalise
// worse than the density estimate's own.
func pickBandwidth(scores [][]float64, ws []float64) int {
	w := 0.0
	for _, x := range ws {
		w += x
	}
	meanDiff := func(i int) (mean, se float64) {
		for k, x := range scores[i] {
			mean += ws[k] * (x - scores[0][k])
		}
		mean /= w
		for k, x := range scores[i] {
			d := x - scores[0][k] - mean
			se += ws[k] * d * d
		}
		return mean, math.Sqrt(se / math.Max(w-1, 1) / w)
	}
	best, bestMean := 0, 0.0
	for i := 1; i < len(scores); i++ {
		if m, se := meanDiff(i); m < bestMean && m < -2*se {
			best, bestMean = i, m
		}
	}
	return best
}
