package backoff

import (
	"math/rand/v2"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/quantile"
)

// Spread summarises a metric over random realisations: its median and
// its 10th and 90th percentiles (see quantile.Spread).
type Spread = quantile.Spread

// MonteCarlo replays runs realisations of st (see Realise) up to horizon
// with replay, which returns a metric for one schedule, and summarises
// the metric. Realisation i draws its jitter from a PCG seeded with
// (seed, i), so a seed repeats the result. A deterministic strategy is
// replayed once. The metrics are folded into a quantile sketch as they come,
// so memory does not grow with runs.
func MonteCarlo(st Strategy, seed uint64, runs int, horizon time.Duration, replay func(*schedule.Schedule) float64) Spread {
	if st.Deterministic() {
		runs = 1
	}
	var q quantile.Quantiles
	for i := range runs {
		q.Add(replay(Realise(st, rand.New(rand.NewPCG(seed, uint64(i))), horizon)))
	}
	return q.Spread()
}
