package fit

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// The limit under a requests budget keeps the stuck cap: against brute
// force on tiny logs, every subset of a grid of ages finer than the
// candidates (every 0.5 s, the answer ages and just after the censoring
// ages), first ask at 0 and last at the give-up age, that asks at most
// the cap times in all, replayed. The limit asks no schedule of more
// than the cap, is the lower convex envelope of those subsets at the
// fitted cost, and no such subset spending as little beats it. (Before, the limit mixed schedules over the cap, asking a stuck
// item more often than any schedule may.)
func TestLimitKeepsTheStuckCap(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	binding := 0
	for trial := range 8 {
		var items []estimate.Item
		for range 5 + r.IntN(3) {
			items = append(items, estimate.Item{Age: math.Round(r.Float64()*90) / 10, Status: estimate.Settled})
		}
		items = append(items, estimate.Item{Age: 3 + 4*r.Float64(), Status: estimate.Pending})
		h, stuck := 10*time.Second, 4
		opt := StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 3 + r.Float64()}, Horizon: h, StuckAsks: stuck}, NoSignals: true}
		res, err := Study(context.Background(), ItemSample(items), nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		if res.Limit.Stuck > float64(stuck)+1e-9 {
			t.Errorf("log %d: the limit asks a stuck item %.4g times by %s, the cap is %d", trial, res.Limit.Stuck, h, stuck)
		}
		unbound, err := Study(context.Background(), ItemSample(items), nil, func() StudyOptions { o := opt; o.StuckAsks = 1000; return o }())
		if err != nil {
			t.Fatal(err)
		}
		if unbound.Limit.Stuck > float64(stuck) {
			binding++ // the cap binds on this log
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
		var costs, lags []float64
		for _, mid := range agesUpTo(grid, stuck-2) { // with the asks at 0 and at 10 s
			asks := append(append([]float64{0}, mid...), 10)
			c, l := replayAt(t, asks, items, h)
			costs, lags = append(costs, c), append(lags, l)
		}
		R := res.Limit.RequestsPerItem
		want := lowerHull(costs, lags, R)
		got := res.Limit.Lag.Mean * res.Limit.Detected / res.Limit.Items
		if math.Abs(got-want) > 1e-9*math.Max(1, want) {
			t.Errorf("log %d: limit %.6g (summed lag per item), the brute force's hull within the cap %.6g at %.4g requests per item", trial, got, want, R)
		}
		for i := range costs {
			if costs[i] <= R*(1+1e-12) && lags[i] < got-1e-9 {
				t.Errorf("log %d: a schedule of at most %d asks spending %.4g ≤ %.4g has lag %.6g below the limit %.6g", trial, stuck, costs[i], R, lags[i], got)
				break
			}
		}
	}
	if binding < 3 {
		t.Errorf("the cap binds on %d logs of 8: the test checks too little", binding)
	}
}

// agesUpTo are the subsets of xs of at most k elements, each in order.
func agesUpTo(xs []float64, k int) [][]float64 {
	out := [][]float64{{}}
	if k <= 0 {
		return out
	}
	for i, x := range xs {
		for _, rest := range agesUpTo(xs[i+1:], k-1) {
			out = append(out, append([]float64{x}, rest...))
		}
	}
	return out
}
