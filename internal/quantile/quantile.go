// Package quantile holds the quantile summaries the replays and
// simulations fold their metrics into: Summarise for a slice, and
// Quantiles, a streaming sketch in memory that does not grow with the
// stream. It sits below every other package and imports none of them.
package quantile

import (
	"math"
	"slices"
)

// Spread summarises a metric over random realisations: its median and
// its 10th and 90th percentiles (R's default type-7 quantiles: linear
// between order statistics).
type Spread struct {
	Median, P10, P90 float64
}

// Summarise returns the spread of x, ignoring NaNs; all NaN when x has
// no number.
func Summarise(x []float64) Spread {
	s := make([]float64, 0, len(x))
	for _, v := range x {
		if !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	slices.Sort(s)
	return Spread{Median: quantile7(s, 0.5), P10: quantile7(s, 0.1), P90: quantile7(s, 0.9)}
}

// quantile7 is the type-7 quantile of sorted s.
func quantile7(s []float64, p float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	h := float64(len(s)-1) * p
	lo := int(math.Floor(h))
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// Quantiles summarises a stream of numbers for their type-7 quantiles
// (as Summarise) in memory that does not grow with the stream. Its zero
// value is empty and ready to use; NaNs are ignored.
//
// The first ExactValues numbers are kept as they are: up to that many,
// every quantile is exact, the same as Summarise's. Beyond, they are
// folded into a histogram of log-spaced bins (zero, ±Inf and each sign
// apart) whose counts are exact, so a quantile reads the two order
// statistics it interpolates between at their exact ranks; each is read
// as its bin's representative value, within a relative error of
// RelativeError of the true order statistic. The error is in value
// only, not in rank: the rank error is zero, and the quantile returned
// is within RelativeError·max(|x₍ₖ₎|, |x₍ₖ₊₁₎|) of the exact one.
//
// The histogram holds at most MaxBins bins. When the numbers span more
// than that (about 3.6 decades at the finest width), each pair of
// neighbouring bins merges into one, squaring the bins' ratio γ, so the
// relative error becomes (γ²−1)/(γ²+1), about twice as large, and so on
// (Error reports the bound in force). When every number is a whole
// number (counts), the order statistics are read rounded to whole
// numbers: exactly while the bins are narrower than 1 (below
// 1/(2·Error), 500 at the finest), within Error plus ½ above. Two
// sketches merge by adding (Merge), giving the sketch of the two
// streams together.
type Quantiles struct {
	exact  []float64 // the numbers, while there are at most ExactValues
	folded bool      // whether the numbers are in the histogram instead
	frac   bool      // whether a number was not whole
	level  int       // collapses so far: bins are γ0^(2^level) wide
	pos    map[int]uint64
	neg    map[int]uint64 // by the bin of |x|
	zero   uint64
	negInf uint64
	posInf uint64
	n      uint64
}

const (
	// ExactValues is how many numbers a Quantiles keeps exactly.
	ExactValues = 1024
	// MaxBins is the most histogram bins a Quantiles holds, positive
	// and negative together: about 40 bytes each, so under 200 KB.
	MaxBins = 4096
	// RelativeError is the value error of a folded Quantiles before
	// any collapse: bins of ratio γ0 = (1+α)/(1−α) with α = 0.1%.
	RelativeError = 0.001
)

// gamma0 is the finest bins' ratio.
var gamma0 = (1 + RelativeError) / (1 - RelativeError)

// Add adds x to the stream.
func (q *Quantiles) Add(x float64) {
	if math.IsNaN(x) {
		return
	}
	q.frac = q.frac || x != math.Trunc(x) && !math.IsInf(x, 0)
	if !q.folded {
		if len(q.exact) < ExactValues {
			q.exact = append(q.exact, x)
			return
		}
		q.fold()
	}
	q.addFolded(x, 1)
}

// N is the count of numbers added, NaNs aside.
func (q *Quantiles) N() int {
	if !q.folded {
		return len(q.exact)
	}
	return int(q.n)
}

// Error is the bound on the relative value error of a quantile now: 0
// while the numbers are kept exactly.
func (q *Quantiles) Error() float64 {
	if !q.folded {
		return 0
	}
	g := q.gamma()
	return (g - 1) / (g + 1)
}

// gamma is the ratio of the bins' edges at the current level.
func (q *Quantiles) gamma() float64 { return math.Pow(gamma0, math.Ldexp(1, q.level)) }

// fold moves the exact numbers into the histogram.
func (q *Quantiles) fold() {
	q.folded = true
	q.pos, q.neg = map[int]uint64{}, map[int]uint64{}
	for _, x := range q.exact {
		q.addFolded(x, 1)
	}
	q.exact = nil
}

// addFolded adds c copies of x to the histogram.
func (q *Quantiles) addFolded(x float64, c uint64) {
	q.n += c
	switch {
	case x == 0:
		q.zero += c
	case math.IsInf(x, 1):
		q.posInf += c
	case math.IsInf(x, -1):
		q.negInf += c
	case x > 0:
		q.pos[q.bin(x)] += c
	default:
		q.neg[q.bin(-x)] += c
	}
	for len(q.pos)+len(q.neg) > MaxBins {
		q.collapse()
	}
}

// bin is the index i of the bin (γ^(i−1), γ^i] holding x > 0.
func (q *Quantiles) bin(x float64) int {
	return int(math.Ceil(math.Log(x) / math.Log(q.gamma())))
}

// collapse merges each pair of bins 2j−1, 2j into bin j of twice the
// logarithmic width.
func (q *Quantiles) collapse() {
	q.level++
	for _, m := range []*map[int]uint64{&q.pos, &q.neg} {
		next := make(map[int]uint64, len(*m)/2+1)
		for i, c := range *m {
			next[ceilHalf(i)] += c
		}
		*m = next
	}
}

// ceilHalf is ⌈i/2⌉.
func ceilHalf(i int) int {
	if i > 0 {
		return (i + 1) / 2
	}
	return -((-i) / 2)
}

// Merge adds the numbers of r to q.
func (q *Quantiles) Merge(r *Quantiles) {
	if !r.folded {
		for _, x := range r.exact {
			q.Add(x)
		}
		return
	}
	q.frac = q.frac || r.frac
	if !q.folded {
		q.fold()
	}
	for q.level < r.level {
		q.collapse()
	}
	add := func(to, from map[int]uint64) {
		for i, c := range from {
			for range q.level - r.level { // r's finer bins into q's
				i = ceilHalf(i)
			}
			to[i] += c
		}
	}
	add(q.pos, r.pos)
	add(q.neg, r.neg)
	q.zero += r.zero
	q.posInf += r.posInf
	q.negInf += r.negInf
	q.n += r.n
	for len(q.pos)+len(q.neg) > MaxBins {
		q.collapse()
	}
}

// representative is the value bin i stands for: within the relative
// error of every value in (γ^(i−1), γ^i].
func (q *Quantiles) representative(i int) float64 {
	g := q.gamma()
	return 2 * math.Pow(g, float64(i)) / (g + 1)
}

// Quantile is the type-7 p-quantile of the numbers (NaN when there are
// none), exact or within Error.
func (q *Quantiles) Quantile(p float64) float64 {
	if !q.folded {
		s := slices.Clone(q.exact)
		slices.Sort(s)
		return quantile7(s, p)
	}
	if q.n == 0 {
		return math.NaN()
	}
	h := float64(q.n-1) * p
	lo := uint64(math.Floor(h))
	a := q.rank(lo)
	if lo+1 >= q.n {
		return a
	}
	b := q.rank(lo + 1)
	if a == b { // also keeps ±Inf from giving NaN
		return a
	}
	return a + (h-float64(lo))*(b-a)
}

// rank is the value read for the order statistic of 0-based rank k,
// rounded when every number is whole.
func (q *Quantiles) rank(k uint64) float64 {
	x := q.rankValue(k)
	if !q.frac {
		return math.Round(x)
	}
	return x
}

// rankValue is rank before rounding.
func (q *Quantiles) rankValue(k uint64) float64 {
	seen := uint64(0)
	at := func(c uint64) bool { seen += c; return k < seen }
	if at(q.negInf) {
		return math.Inf(-1)
	}
	for _, i := range slices.Backward(sortedKeys(q.neg)) {
		if at(q.neg[i]) {
			return -q.representative(i)
		}
	}
	if at(q.zero) {
		return 0
	}
	for _, i := range sortedKeys(q.pos) {
		if at(q.pos[i]) {
			return q.representative(i)
		}
	}
	return math.Inf(1)
}

func sortedKeys(m map[int]uint64) []int {
	keys := make([]int, 0, len(m))
	for i := range m {
		keys = append(keys, i)
	}
	slices.Sort(keys)
	return keys
}

// Spread is the median and the 10th and 90th percentiles.
func (q *Quantiles) Spread() Spread {
	return Spread{Median: q.Quantile(0.5), P10: q.Quantile(0.1), P90: q.Quantile(0.9)}
}
