package backoff

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
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

// MonteCarlo replays runs realisations of st (see Realise) up to horizon
// with replay, which returns a metric for one schedule, and summarises
// the metric. Realisation i draws its jitter from a PCG seeded with
// (seed, i), so a seed repeats the result. A deterministic strategy is
// replayed once. The metrics are folded into a Quantiles as they come,
// so memory does not grow with runs.
func MonteCarlo(st Strategy, seed uint64, runs int, horizon time.Duration, replay func(*schedule.Schedule) float64) Spread {
	if st.Deterministic() {
		runs = 1
	}
	var q Quantiles
	for i := range runs {
		q.Add(replay(Realise(st, rand.New(rand.NewPCG(seed, uint64(i))), horizon)))
	}
	return q.Spread()
}
