package fit

import (
	"context"
	"encoding/json"
	"github.com/pollfit/pollfit/internal/quantile"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
)

// exponential(initial=1s, factor=2, max=30s) waits 1 2 4 8 16, then 30
// (32 capped) for ever: asks at 0 1 3 7 15 31, then every 30 s.
func TestReplayDeterministicStrategy(t *testing.T) {
	items := testItems(2000, 3)
	st, err := backoff.Parse("exponential(initial=1s, factor=2, max=30s)")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReplayStrategy(context.Background(), st, items, ReplayOptions{}, 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := schedule.Parse("at 0s 1s 3s 7s 15s 31s, 30s")
	want, err := Replay(s, items, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Schedule != want.Schedule || got.Lag != want.Lag || got.RequestsPerItem != want.RequestsPerItem || got.Spread != nil {
		t.Errorf("strategy replay = %+v\nwant the schedule's %+v", got, want)
	}
}

func TestReplayRandomStrategy(t *testing.T) {
	items := testItems(2000, 4)
	st, err := backoff.Parse("exponential(initial=1s, factor=2, max=30s, jitter=full)")
	if err != nil {
		t.Fatal(err)
	}
	a, err := ReplayStrategy(context.Background(), st, items, ReplayOptions{}, 7, 9)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ReplayStrategy(context.Background(), st, items, ReplayOptions{}, 7, 9)
	c, _ := ReplayStrategy(context.Background(), st, items, ReplayOptions{}, 8, 9)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	jc, _ := json.Marshal(c)
	if string(ja) != string(jb) {
		t.Errorf("same seed, different results:\n%s\n%s", ja, jb)
	}
	if string(ja) == string(jc) {
		t.Errorf("different seeds, same results")
	}
	if a.Spread == nil || a.Spread.Runs != 9 || !(a.Spread.LagMean[0] <= a.Lag.Mean && a.Lag.Mean <= a.Spread.LagMean[1]) {
		t.Errorf("spread %+v does not bracket the median lag %v", a.Spread, a.Lag.Mean)
	}
	// Full jitter waits U(0, cap) instead of cap: each realisation asks at
	// least as often as the plain strategy, so even its median costs more.
	plain, _ := backoff.Parse("exponential(initial=1s, factor=2, max=30s)")
	p, _ := ReplayStrategy(context.Background(), plain, items, ReplayOptions{}, 7, 1)
	if !(a.RequestsPerItem > p.RequestsPerItem) || math.IsNaN(a.Lag.Mean) {
		t.Errorf("jittered requests/item %v not above plain %v", a.RequestsPerItem, p.RequestsPerItem)
	}
}

// TestReplayStrategyFlatMemory: the metrics of 300,000 realisations,
// folded, keep the live heap within 2 MB (kept, they would take over
// 100 MB); up to backoff.ExactValues realisations the medians and the
// spread are the exact type-7 ones.
func TestReplayStrategyFlatMemory(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	draw := func() Metrics {
		return Metrics{Items: 10, Detected: 9, Lag: LagStats{Mean: rng.ExpFloat64(), P50: 1, P90: 2, P95: 3, P99: 4, Max: 5},
			RequestsPerItem: 5 + rng.Float64(), AsksByAges: []time.Duration{time.Minute}, AsksBy: []float64{float64(rng.IntN(9))}}
	}
	var a metricsSpread
	var lags []float64
	for range 1000 {
		m := draw()
		a.add(m, 1)
		lags = append(lags, m.Lag.Mean)
	}
	got, want := a.medians("x"), quantile.Summarise(lags)
	if got.Lag.Mean != want.Median || got.Spread.LagMean != [2]float64{want.P10, want.P90} {
		t.Errorf("1000 runs: median %g spread %v, want exactly %g [%g %g]", got.Lag.Mean, got.Spread.LagMean, want.Median, want.P10, want.P90)
	}
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range 300_000 {
		a.add(draw(), 1)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	if grown := int64(m1.HeapAlloc) - int64(m0.HeapAlloc); grown > 2<<20 {
		t.Errorf("300000 more runs grew the live heap by %d bytes, want under 2 MB", grown)
	}
	if got := a.medians("x"); got.Spread.Runs != 301_000 || math.Abs(got.Lag.Mean-math.Ln2) > 0.01 {
		t.Errorf("runs %d, median lag %g, want 301000 and about ln 2 (the exponential's median)", got.Spread.Runs, got.Lag.Mean)
	}
}

// The stuck cost of a strategy with jitter is the median over the
// realisations of its asks by the horizon, counted here by brute force
// from the realisations' own asks: constant(10s, jitter=equal) waits
// U(5 s, 10 s), so by 1 m it asks 7 to 13 times, varying run to run.
func TestReplayRandomStrategyStuck(t *testing.T) {
	items := testItems(500, 5)
	st, err := backoff.Parse("constant(10s, jitter=equal)")
	if err != nil {
		t.Fatal(err)
	}
	const seed, runs, h = 3, 9, time.Minute
	got, err := ReplayStrategy(context.Background(), st, items, ReplayOptions{Horizon: h}, seed, runs)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, runs)
	for i := range counts {
		for _, a := range backoff.Asks(st, rand.New(rand.NewPCG(seed, uint64(i))), h) {
			if a <= h {
				counts[i]++
			}
		}
	}
	slices.Sort(counts)
	if counts[0] < 7 || counts[runs-1] > 13 || counts[0] == counts[runs-1] {
		t.Fatalf("realisations ask %v times by 1m, want 7 to 13, not all equal", counts)
	}
	if want := float64(counts[runs/2]); got.Spread == nil || got.Spread.StuckAsks != want {
		t.Errorf("stuck cost %+v, want the median of %v, %v", got.Spread, counts, want)
	}
}
