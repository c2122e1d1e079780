package fit

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// replayed is a schedule replayed once on every item of a sample, so
// that a reweighting of the items (a bootstrap resample) is measured
// by sums alone: an item's outcome does not depend on the weights.
type replayed struct {
	// By item: its asks, 1 when seen (else 0), and its lag when seen
	// (else 0), so that measure's sums run without a branch.
	asks, seen, lag []float64
	order           []int // the seen items by increasing lag
}

// replayAll replays s on items to horizon (> 0).
func replayAll(s *schedule.Schedule, items []estimate.Item, horizon time.Duration) *replayed {
	r := newReplayer(s)
	n := len(items)
	rp := &replayed{asks: make([]float64, n), seen: make([]float64, n), lag: make([]float64, n)}
	for i, it := range items {
		o := replayOne(r, it, horizon)
		rp.asks[i] = float64(o.asks)
		if o.seen {
			rp.seen[i], rp.lag[i] = 1, o.lag
			rp.order = append(rp.order, i)
		}
	}
	slices.SortFunc(rp.order, func(a, b int) int { return cmp.Compare(rp.lag[a], rp.lag[b]) })
	return rp
}

// measure is ReplaySample's mean lag, 95th percentile of the lag and
// requests per item when item i weighs weights[i] (NaN lags when no
// answer is seen).
func (rp *replayed) measure(weights []float64) (mean, p95, perItem float64) {
	var total, requests, seen, sum float64
	weights = weights[:len(rp.asks)]
	asks, seenAt, lags := rp.asks, rp.seen[:len(rp.asks)], rp.lag[:len(rp.asks)]
	for i, w := range weights {
		// An unseen item adds w·0 = +0 to seen and sum: the sums the
		// seen items alone make, to the bit.
		total += w
		requests += w * asks[i]
		seen += w * seenAt[i]
		sum += w * lags[i]
	}
	perItem = requests / total
	if !(seen > 0) {
		return math.NaN(), math.NaN(), perItem
	}
	// The smallest lag whose cumulative weight reaches 95% of the seen
	// items' (the largest lag of weight if rounding keeps it short). An
	// item of no weight adds +0, which leaves the sum as it is and cannot
	// reach the target (cum < target before it): no branch on it to
	// mispredict, a third of the items being drawn no weight.
	target := percentiles[2] / 100 * seen
	var cum float64
	for _, i := range rp.order {
		if cum += weights[i]; cum >= target {
			return sum / seen, rp.lag[i], perItem
		}
	}
	for _, i := range slices.Backward(rp.order) {
		if weights[i] > 0 {
			p95 = rp.lag[i]
			break
		}
	}
	return sum / seen, p95, perItem
}

// Lags is SampleLags of the items, unweighted: the lags in seconds of
// the items that s sees by horizon, in the items' order.
func Lags(s *schedule.Schedule, items []estimate.Item, horizon time.Duration) ([]float64, error) {
	lags, _, err := SampleLags(s, ItemSample(items), horizon)
	return lags, err
}

// SampleLags are the lags in seconds of the items of smp that s sees by
// horizon, as Replay counts them (reset on signal and wall-clock aligned
// asks included), and their weights (nil for an unweighted sample), in
// the items' order; items of weight 0 are left out. Like Replay it
// refuses items without a creation time under a schedule with aligned
// asks. On a sketch's bins the lags are each bin's and the weights its
// count, so that the lag distribution is drawn from the bins.
func SampleLags(s *schedule.Schedule, smp Sample, horizon time.Duration) (lags, weights []float64, err error) {
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	if err := checkCreated(s, smp.Items, "lags"); err != nil {
		return nil, nil, err
	}
	r := newReplayer(s)
	for i, it := range smp.Items {
		w := smp.Weight(i)
		if w == 0 {
			continue
		}
		if o := replayOne(r, it, horizon); o.seen {
			lags = append(lags, o.lag)
			if smp.Weighted() {
				weights = append(weights, w)
			}
		}
	}
	return lags, weights, nil
}
