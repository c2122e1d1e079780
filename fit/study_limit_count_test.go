package fit

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// The limit under a budget that counts asks or prices requests, against
// brute force on tiny logs: every subset of a grid of ages (every 0.5 s,
// the answer ages and just after the censoring ages), first ask at 0 and
// last at the give-up age, with at most the budget's asks (at a price,
// the stuck cap's), replayed. The limit keeps the cap, no subset beats
// it, and where the grid holds every candidate it is the best subset:
// the exact optimum under the budget, not a relaxation of it.
func TestLimitUnderCountAndPriceBudgets(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 4))
	h := 10 * time.Second
	for trial := range 12 {
		var items []estimate.Item
		for range 4 + r.IntN(3) {
			items = append(items, estimate.Item{Age: math.Round(r.Float64()*90) / 10, Status: estimate.Settled})
		}
		items = append(items, estimate.Item{Age: 3 + 4*r.Float64(), Status: estimate.Pending})
		k := 3 + r.IntN(3)
		var b Budget
		price := 0.0
		switch trial % 3 {
		case 0:
			b = Budget{AsksBy: k, AsksByAge: h}
		case 1:
			b = Budget{MaxAttempts: k}
		default:
			price = []float64{0.3, 1, 3}[trial%4%3]
			b = Budget{Price: price}
		}
		opt := Options{Budget: b, Horizon: h, StuckAsks: k}
		if b.Kind() == BudgetAsksBy {
			opt.Horizon, opt.StuckAsks = 0, 0
		}
		if b.Kind() == BudgetMaxAttempts {
			opt.StuckAsks = 0
		}
		res, err := Study(context.Background(), ItemSample(items), nil, StudyOptions{Options: opt, NoSignals: true})
		if err != nil {
			t.Fatal(err)
		}
		grid := []float64{}
		for x := 0.5; x < 10; x += 0.5 {
			grid = append(grid, x)
		}
		whole := true
		for _, it := range items {
			if it.Age > 0 && it.Age < 10 {
				grid = append(grid, it.Age, it.Age+1e-9)
			}
		}
		slices.Sort(grid)
		grid = slices.Compact(grid)
		if len(grid) > 14 {
			grid, whole = grid[:14], false
		}
		best := math.Inf(1)
		for mask := 0; mask < 1<<len(grid); mask++ {
			if bits.OnesCount(uint(mask))+2 > k {
				continue
			}
			asks := []float64{0}
			for j, x := range grid {
				if mask&(1<<j) != 0 {
					asks = append(asks, x)
				}
			}
			c, l := replayAt(t, append(asks, 10), items, h)
			best = min(best, l+price*c)
		}
		lim := res.Limit
		got := lim.Lag.Mean*lim.Detected/lim.Items + price*lim.RequestsPerItem
		if lim.Stuck > float64(k) {
			t.Errorf("trial %d (%s): the limit asks a stuck item %g times, over the cap of %d", trial, b, lim.Stuck, k)
		}
		if got > best+1e-9 {
			t.Errorf("trial %d (%s): limit %.6g above the brute force's best %.6g", trial, b, got, best)
		}
		if whole && got < best-1e-9 {
			t.Errorf("trial %d (%s): limit %.6g below every schedule within the cap (best %.6g): a relaxation, not the optimum", trial, b, got, best)
		}
		if res.LimitNote == "" || !strings.Contains(res.LimitNote, "under the budget") {
			t.Errorf("trial %d: limit note %q does not say it is under the budget", trial, res.LimitNote)
		}
	}
}

// The webhook model of the README at 8 attempts: the limit asks at most
// 8 times (before, a requests mix asked 11), and no fitted row beats it.
func TestLimitHonoursMaxAttempts(t *testing.T) {
	m, err := estimate.ParseModel("0.5*lognormal(median=20m, sigma=1.5) + 0.45*lognormal(median=6h, sigma=1) + 0.05*never")
	if err != nil {
		t.Fatal(err)
	}
	res, err := StudyModel(context.Background(), m, StudyOptions{Options: Options{Budget: Budget{MaxAttempts: 8}, Horizon: 84 * time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	if lim := res.Limit; lim.Stuck > 8 || !(lim.Lag.Mean <= res.Fitted.Lag.Mean) {
		t.Errorf("limit %d asks, lag %g; fitted %g: want at most 8 asks and no more lag", int(lim.Stuck), lim.Lag.Mean, res.Fitted.Lag.Mean)
	}
}

// Where the capped programme would be too large the limit is the
// Lagrangian bound: at or below the exact optimum under the cap, and a
// mix of two schedules whose asks average the cap.
func TestLimitBoundUnderTheExact(t *testing.T) {
	items := payments(400, 3)
	l := newSampleLaw(ItemSample(items))
	cands, _ := itemCandidates(l, 300)
	for _, k := range []int{3, 6, 12} {
		for _, lambda := range []float64{0, 0.5} {
			ex, bound, err := hindsightCapped(l, cands, 0, false, Mean, lambda, k, maxCountCells)
			if err != nil || bound {
				t.Fatalf("k %d: exact: bound %v, err %v", k, bound, err)
			}
			bd, bound, err := hindsightCapped(l, cands, 0, false, Mean, lambda, k, 0)
			if err != nil {
				t.Fatal(err)
			}
			priced := func(x mixed) float64 {
				p := x.prediction()
				return p.Lag.Mean*p.Detected + lambda*p.RequestsPerItem
			}
			if len(ex.a) > k {
				t.Errorf("k %d: the exact limit asks %d times", k, len(ex.a))
			}
			if !bound {
				// The cap did not bind: the same schedule.
				if priced(bd) != priced(ex) {
					t.Errorf("k %d λ %g: unbound limit %g, exact %g", k, lambda, priced(bd), priced(ex))
				}
				continue
			}
			if got, want := priced(bd), priced(ex); got > want*(1+1e-9) {
				t.Errorf("k %d λ %g: bound %g above the exact optimum %g", k, lambda, got, want)
			}
			if n := bd.mix(float64(len(bd.a)), float64(len(bd.b))); n > float64(k)+1e-9 {
				t.Errorf("k %d λ %g: the bound's schedules average %g asks, over the cap", k, lambda, n)
			}
		}
	}
}
