package fit

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
	"github.com/pollfit/pollfit/internal/testenv"
)

// replayAt replays the asks (seconds) as an "at" schedule to horizon h:
// the brute force's cost and lag, by Replay rather than the law.
func replayAt(t *testing.T, asks []float64, items []estimate.Item, h time.Duration) (cost, lag float64) {
	t.Helper()
	var at []time.Duration
	for _, a := range asks {
		at = append(at, nanos(a))
	}
	s := &schedule.Schedule{Clauses: []schedule.Clause{{At: at}}}
	m, err := Replay(s, items, ReplayOptions{Horizon: h})
	if err != nil {
		t.Fatal(err)
	}
	return m.RequestsPerItem, m.Lag.Mean * float64(m.Detected) / float64(m.Items)
}

// lowerHull is the lower convex envelope of the points (cost, lag) at x:
// the least mix of two points spending x, or a point spending no more.
func lowerHull(cost, lag []float64, x float64) float64 {
	best := math.Inf(1)
	for i := range cost {
		if cost[i] <= x+1e-12 {
			best = min(best, lag[i])
		}
		for j := range cost {
			if cost[i] < x && cost[j] > x {
				w := (x - cost[i]) / (cost[j] - cost[i])
				best = min(best, (1-w)*lag[i]+w*lag[j])
			}
		}
	}
	return best
}

// The limit against brute force: on tiny logs, every subset of a grid of
// ages finer than the candidates (every 0.5 s, plus the answer ages and
// just after the censoring ages), first ask at 0 and last at the give-up
// age, replayed. The limit is the lower convex envelope of all of them at
// the fitted cost, so no subset spending as little beats it, and a mix of
// two of them reaches it.
func TestLimitIsTheHullOfEverySchedule(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := range 6 {
		var items []estimate.Item
		for range 4 + r.IntN(3) {
			items = append(items, estimate.Item{Age: math.Round(r.Float64()*90) / 10, Status: estimate.Settled})
		}
		items = append(items, estimate.Item{Age: 3 + 4*r.Float64(), Status: estimate.Pending})
		h := 10 * time.Second
		res, err := Study(context.Background(), ItemSample(items), nil, StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 2 + 2*r.Float64()}, Horizon: h}, NoSignals: true})
		if err != nil {
			t.Fatal(err)
		}
		grid := []float64{}
		for x := 0.5; x < 10; x += 0.5 {
			grid = append(grid, x)
		}
		for _, it := range items {
			if it.Age > 0 && it.Age < 10 {
				grid = append(grid, it.Age, it.Age+1e-9)
			}
		}
		slices.Sort(grid)
		grid = slices.Compact(grid)
		if len(grid) > 13 {
			grid = grid[:13] // 8192 subsets at most
		}
		var costs, lags []float64
		for mask := 0; mask < 1<<len(grid); mask++ {
			asks := []float64{0}
			for k, x := range grid {
				if mask&(1<<k) != 0 {
					asks = append(asks, x)
				}
			}
			asks = append(asks, 10)
			c, l := replayAt(t, asks, items, h)
			costs, lags = append(costs, c), append(lags, l)
		}
		R := res.Limit.RequestsPerItem
		want := lowerHull(costs, lags, R)
		got := res.Limit.Lag.Mean * res.Limit.Detected / res.Limit.Items
		// The grid is cut at 13 ages, so the brute force may miss an age
		// the limit uses: the limit is at most the brute force's hull.
		if got > want+1e-9 {
			t.Errorf("log %d: limit %.6g (summed lag per item) above the brute force's hull %.6g at %.4g requests per item", trial, got, want, R)
		}
		for i := range costs {
			if costs[i] <= R*(1+1e-12) && lags[i] < got-1e-9 {
				t.Errorf("log %d: a schedule spending %.4g ≤ %.4g has lag %.6g below the limit %.6g", trial, costs[i], R, lags[i], got)
				break
			}
		}
	}
}

// The limit row is at or below every schedule asking by age at or below
// its cost, on 50 generated logs: the rows of the table (fitted with
// neither signals nor shapes, the exact fit) and random schedules, all
// replayed on the held-out items to the give-up age.
func TestLimitBelowEverySchedule(t *testing.T) {
	models := []loggen.Model{loggen.Payments, loggen.Deadline, loggen.Batch}
	r := rand.New(rand.NewPCG(3, 9))
	trials := 50
	if !testenv.Long() {
		trials = 12 // each model at each budget once; 50 logs in the long run
	}
	for trial := range trials {
		items := loggen.Items(loggen.Rows(models[trial%3], 300+r.IntN(300), uint64(trial)))
		b := []float64{2, 4, 8, 16}[trial%4]
		res, err := Study(context.Background(), ItemSample(items), nil, StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: b}},
			Holdout: 0.3, Seed: uint64(trial), NoSignals: true, NoBatches: true, NoDeadlines: true})
		if err != nil {
			t.Fatal(err)
		}
		lim := res.Limit
		h := res.GiveUp.Age
		check := func(name string, m Metrics) {
			if sum, limit := m.Lag.Mean*m.Detected, lim.Lag.Mean*lim.Detected; m.RequestsPerItem <= lim.RequestsPerItem*(1+1e-12) && sum < limit*(1-1e-9) {
				t.Errorf("log %d: %s (%q) lag %.4g at %.3f requests beats the limit %.4g at %.3f", trial, name, m.Schedule, m.Lag.Mean, m.RequestsPerItem, lim.Lag.Mean, lim.RequestsPerItem)
			}
		}
		check("fitted", res.Fitted.Metrics)
		check("exact (fit)", res.ExactFit.Metrics)
		for range 40 {
			s := randomStoppingSchedule(r, h)
			m, err := ReplaySample(s, *res.HeldOut, ReplayOptions{Horizon: h})
			if err != nil {
				t.Fatal(err)
			}
			check("random", m)
		}
	}
}

// randomStoppingSchedule is up to 3 clauses of random intervals that end
// with an ask at h.
func randomStoppingSchedule(r *rand.Rand, h time.Duration) *schedule.Schedule {
	s := &schedule.Schedule{}
	var last time.Duration // the last ask so far
	for k := range 1 + r.IntN(3) {
		every := time.Duration(100+r.IntN(30000)) * time.Millisecond
		if last+every > h {
			break
		}
		until := last + time.Duration(1+r.IntN(20))*every
		if k == 2 || until >= h {
			s.Clauses = append(s.Clauses, schedule.Clause{Every: every, Until: h})
			break
		}
		s.Clauses = append(s.Clauses, schedule.Clause{Every: every, Until: until})
		last = until
	}
	if asks, _ := s.Timeline().Asks(h); len(asks) > 0 && asks[len(asks)-1] < h {
		s.Clauses = append(s.Clauses, schedule.Clause{At: []time.Duration{h}})
	}
	return schedule.Canonical(s)
}
