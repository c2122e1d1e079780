package fit

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// TestExploredByHand: at 0s 10s 20s explored fully (F = 1) moves only
// the ask at 10s, to U(0s, 10s]. An answer at 5s is seen by it half the
// time, at 7.5s on average (lag 2.5s, 2 asks), else at 20s (lag 15s, 3
// asks): lag 8.75s, 2.5 asks. An answer at 15s is seen at 20s as
// before (lag 5s, 3 asks). An item pending at 7s has had the ask at 0s
// and, 70% of the time, the moved one: 1.7 asks. Unexplored: lags 5s
// and 5s, asks 2, 3 and 1.
func TestExploredByHand(t *testing.T) {
	s, err := schedule.Parse("at 0s 10s 20s")
	if err != nil {
		t.Fatal(err)
	}
	items := []estimate.Item{{Age: 5, Status: estimate.Settled}, {Age: 15, Status: estimate.Settled}, {Age: 7, Status: estimate.Pending}}
	c, err := Explored(s, ItemSample(items), 1, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := ExploreCost{Fraction: 1, Lag: 5, Requests: 2, ExploredLag: (8.75 + 5) / 2, ExploredRequests: (2.5 + 3 + 1.7) / 3}
	if !near(c.Lag, want.Lag) || !near(c.Requests, want.Requests) || !near(c.ExploredLag, want.ExploredLag) || !near(c.ExploredRequests, want.ExploredRequests) {
		t.Errorf("got %+v, want %+v", c, want)
	}
	if !near(c.LagChange(), 0.375) || !near(c.RequestsChange(), 0.4) {
		t.Errorf("changes %v, %v; want 0.375, 0.4", c.LagChange(), c.RequestsChange())
	}
	if got := c.String(); got != "exploring 100% of each gap costs +37.5% mean lag and +0.40 requests per item" {
		t.Errorf("String() = %q", got)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestExploredMonteCarlo checks Explored against a brute-force replay of
// many seeded draws of the shifts, ask list by ask list, on a stopping
// schedule, on one that never stops and on one that resets on signal,
// with pending items and signals.
func TestExploredMonteCarlo(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 4))
	var items []estimate.Item
	for range 400 {
		it := estimate.Item{Age: math.Exp(1 + 1.2*r.NormFloat64()), Status: estimate.Settled}
		if r.IntN(5) == 0 {
			it.Status = estimate.Pending
		}
		if r.IntN(3) == 0 {
			it.Signal, it.Signalled = r.Float64()*20, true
		}
		items = append(items, it)
	}
	for _, tc := range []struct {
		dsl string
		f   float64
	}{{"at 0s 1s, 2s until 10s, 5s until 1m", 0.3}, {"at 0s 1s, 2s until 10s, 5s", 0.8}, {"at 0s 1s, 2s until 10s, 5s until 1m", 0},
		{"at 0s 1s, 2s until 10s, 5s until 1m, reset on signal", 0.6}, {"at 500ms 1s, 3s, reset on signal", 1}, {"at 0s 1s, 2s until 10s, 5s until 1m, reset on signal", 0}} {
		s, err := schedule.Parse(tc.dsl)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Explored(s, ItemSample(items), tc.f, ReplayOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m, _ := ReplaySample(s, ItemSample(items), ReplayOptions{})
		lag, req := bruteExplored(t, s, items, tc.f, m.Horizon, rand.New(rand.NewPCG(1, 2)))
		t.Logf("%s F=%v: %s; Monte Carlo lag %.4f, requests %.4f", tc.dsl, tc.f, got, lag, req)
		// 400 items × 500 draws: the Monte Carlo error is well under 0.5%.
		if math.Abs(got.ExploredLag/lag-1) > 0.005 || math.Abs(got.ExploredRequests/req-1) > 0.005 {
			t.Errorf("%s F=%v: lag %.4f, requests %.4f; Monte Carlo %.4f, %.4f", tc.dsl, tc.f, got.ExploredLag, got.ExploredRequests, lag, req)
		}
		if tc.f == 0 && (!near(got.ExploredLag, m.Lag.Mean) || !near(got.ExploredRequests, m.RequestsPerItem)) {
			t.Errorf("%s unexplored: %v, %v; Replay %v, %v", tc.dsl, got.ExploredLag, got.ExploredRequests, m.Lag.Mean, m.RequestsPerItem)
		}
	}
}

// bruteExplored draws 500 shift sets per item and replays each item on
// its moved asks: seen by the first moved ask at or after its answer if
// that ask comes by the horizon (for a schedule that never stops, by
// its first ask after the horizon); pending and missed items cost the
// asks by the horizon. With reset on signal an item's asks are the
// moved ones before its signal, one at it and the signal plus the
// moved ones (drawn again) after age 0. It returns the mean lag of the
// seen and the requests per item.
func bruteExplored(t *testing.T, s *schedule.Schedule, items []estimate.Item, f float64, h time.Duration, r *rand.Rand) (lag, req float64) {
	tl := s.Timeline()
	see := h.Seconds()
	if next, ok := tl.Next(h + 1); ok && tl.Forever() {
		see = next.Seconds()
	}
	nominal, err := tl.Asks(h + 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	draw := func() []float64 {
		moved := make([]float64, len(nominal))
		for j, a := range nominal {
			moved[j] = a.Seconds()
			if _, more := tl.Next(a + 1); j > 0 && more {
				moved[j] -= r.Float64() * f * (a - nominal[j-1]).Seconds()
			}
		}
		return moved
	}
	var lags, seen, asks float64
	for range 500 {
		for _, it := range items {
			moved := draw()
			if s.ResetOnSignal && it.HasSignal() {
				g := it.Signal
				k := sort.SearchFloat64s(moved, g)
				after := draw()
				if after[0] == 0 {
					after = after[1:]
				}
				moved = append(append(moved[:k:k], g), after...)
				for j := k + 1; j < len(moved); j++ {
					moved[j] += g
				}
			}
			upTo := func(x float64) float64 { return float64(sort.SearchFloat64s(moved, math.Nextafter(x, math.Inf(1)))) }
			if !it.Status.Final() {
				asks += upTo(math.Min(it.Age, h.Seconds()))
				continue
			}
			k := sort.SearchFloat64s(moved, it.Age)
			// The ask at the signal, not moved, must come by the horizon itself.
			atSignal := s.ResetOnSignal && it.HasSignal() && k < len(moved) && moved[k] == it.Signal
			if it.Age <= h.Seconds() && k < len(moved) && moved[k] <= see && (!atSignal || moved[k] <= h.Seconds()) {
				lags, seen, asks = lags+moved[k]-it.Age, seen+1, asks+float64(k+1)
			} else { // missed
				asks += upTo(h.Seconds())
			}
		}
	}
	return lags / seen, asks / float64(500*len(items))
}
