package fit

import (
	"cmp"
	"math"
	"slices"
)

// percentiles are the ranks LagStats reports, in percent.
var percentiles = [4]float64{50, 90, 95, 99}

// noLags is LagStats when nothing was detected.
func noLags() LagStats {
	nan := math.NaN()
	return LagStats{nan, nan, nan, nan, nan, nan}
}

// lagStats computes the mean and nearest-rank percentiles of lags, which
// it sorts in place.
func lagStats(lags []float64) LagStats {
	n := len(lags)
	if n == 0 {
		return noLags()
	}
	sortNonNegative(lags)
	var sum float64
	for _, l := range lags {
		sum += l
	}
	var p [4]float64
	for i, q := range percentiles {
		k := int(math.Ceil(q / 100 * float64(n)))
		p[i] = lags[max(k, 1)-1]
	}
	return LagStats{Mean: sum / float64(n), P50: p[0], P90: p[1], P95: p[2], P99: p[3], Max: lags[n-1]}
}

// weightedLagStats is lagStats with lags[i] standing for weights[i]
// identical lags (all weights > 0): the weighted mean, and for each
// percentile p the smallest lag whose cumulative weight reaches
// p/100 × the total weight, which is lagStats' nearest rank when every
// weight is 1.
func weightedLagStats(lags, weights []float64) LagStats {
	n := len(lags)
	if n == 0 {
		return noLags()
	}
	if w, ok := oneWeight(weights); ok {
		return sameWeightLagStats(lags, w)
	}
	return pairLagStats(lags, weights)
}

// pairLagStats is weightedLagStats of any weights, sorting each lag with
// its weight.
func pairLagStats(lags, weights []float64) LagStats {
	n := len(lags)
	// The pairs sort together, by lag alone, into the order a sort of
	// their indices by lag gave (see sortLagWeights), so that every sum
	// below adds the same terms in the same order.
	pairs := make([]lagWeight, n)
	for i := range pairs {
		pairs[i] = lagWeight{lags[i], weights[i]}
	}
	sortLagWeights(pairs)
	var total, sum float64
	for _, p := range pairs {
		total += p.w
		sum += p.w * p.lag
	}
	var p [4]float64
	for j, q := range percentiles {
		p[j] = weightedRank(pairs, q/100*total)
	}
	return LagStats{Mean: sum / total, P50: p[0], P90: p[1], P95: p[2], P99: p[3], Max: pairs[n-1].lag}
}

// oneWeight is the weight all weights are, if they are one.
func oneWeight(ws []float64) (float64, bool) {
	for _, w := range ws[1:] {
		if w != ws[0] {
			return 0, false
		}
	}
	return ws[0], true
}

// sameWeightLagStats is weightedLagStats when every lag weighs w (a
// sketch's item sample of distinct rows, each standing for as many):
// the same sums of the same terms in the same order (equal lags are
// equal terms, in whichever order they sort), without sorting the
// weights along.
func sameWeightLagStats(lags []float64, w float64) LagStats {
	sorted := slices.Clone(lags)
	sortNonNegative(sorted)
	var total, sum float64
	for _, l := range sorted {
		total += w
		sum += w * l
	}
	var p [4]float64
	for j, q := range percentiles {
		target := q / 100 * total
		p[j] = sorted[len(sorted)-1]
		var cum float64
		for _, l := range sorted {
			if cum += w; cum >= target {
				p[j] = l
				break
			}
		}
	}
	return LagStats{Mean: sum / total, P50: p[0], P90: p[1], P95: p[2], P99: p[3], Max: sorted[len(sorted)-1]}
}

// lagWeight is a lag with the weight it stands for.
type lagWeight struct{ lag, w float64 }

// weightedRank is the smallest lag of the sorted pairs whose cumulative
// weight reaches target, else the largest.
func weightedRank(pairs []lagWeight, target float64) float64 {
	var cum float64
	for _, p := range pairs {
		if cum += p.w; cum >= target {
			return p.lag
		}
	}
	return pairs[len(pairs)-1].lag
}

// nearestRanks returns, for each p in ps, the smallest x whose
// cumulative weight reaches p × the total weight (ws nil: each x weighs
// 1, and this is the nearest rank x[⌈p·n⌉-1] of the sorted xs). xs must
// not be empty; ws holds the weights of xs, in the same order.
func nearestRanks[T cmp.Ordered](xs []T, ws []float64, ps ...float64) []T {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(xs[a], xs[b]) })
	w := func(i int) float64 {
		if ws == nil {
			return 1
		}
		return ws[i]
	}
	var total float64
	for _, i := range idx {
		total += w(i)
	}
	out := make([]T, len(ps))
	for j, p := range ps {
		out[j] = xs[idx[len(idx)-1]]
		var cum float64
		for _, i := range idx {
			if cum += w(i); cum >= p*total {
				out[j] = xs[i]
				break
			}
		}
	}
	return out
}
