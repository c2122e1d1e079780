package fit

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Measuring a schedule replayed once, reweighted, gives what
// ReplaySample gives on the reweighted sample: with ties, pending and
// missed items, signals, zero weights and Poisson weights.
func TestReweightMatchesReplay(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	items := make([]estimate.Item, 3000)
	for i := range items {
		items[i] = estimate.Item{Age: math.Round(r.ExpFloat64()*30*10) / 10, Status: estimate.Settled}
		switch u := r.Float64(); {
		case u < 0.05:
			items[i].Status = estimate.Pending
		case u < 0.08:
			items[i].Status = estimate.Failed
		}
		if r.Float64() < 0.2 {
			items[i].Signal, items[i].Signalled = items[i].Age*r.Float64(), true
		}
	}
	for _, dsl := range []string{"1s until 30s, 5s until 2m", "at 0s 2s 5s, 2s until 1m, 10s until 5m, reset on signal"} {
		s, err := schedule.Parse(dsl)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []time.Duration{90 * time.Second, 5 * time.Minute} {
			rp := replayAll(s, items, h)
			draw := newPoissonDraws(ItemSample(items))
			for trial := 0; trial < 20; trial++ {
				w := make([]float64, len(items))
				if trial%2 == 0 {
					draw.resample(r, w)
				} else {
					for i := range w {
						w[i] = float64(r.IntN(4)) * 0.5
					}
				}
				mean, p95, req := rp.measure(w)
				m, err := ReplaySample(s, Sample{Items: items, Weights: w}, ReplayOptions{Horizon: h})
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(mean-m.Lag.Mean) > 1e-12*m.Lag.Mean || p95 != m.Lag.P95 || math.Abs(req-m.RequestsPerItem) > 1e-12*req {
					t.Fatalf("%q to %v, trial %d: reweighted %.15g %.15g %.15g, replayed %.15g %.15g %.15g",
						dsl, h, trial, mean, p95, req, m.Lag.Mean, m.Lag.P95, m.RequestsPerItem)
				}
			}
		}
	}
}
