package fit

import (
	"context"
	"math"
	"testing"

	"github.com/pollfit/pollfit/internal/loggen"
	"github.com/pollfit/pollfit/internal/testenv"
)

// inverseCurve samples L(c) = a/c at costs from 0.5 to 60 in steps of
// 0.01: convex and falling, so its hull is itself.
func inverseCurve(a float64) []CostLag {
	var c []CostLag
	for x := 0.5; x <= 60+1e-9; x += 0.01 {
		c = append(c, CostLag{Cost: x, Lag: a / x})
	}
	return c
}

// interp is the piecewise-linear curve through c's points at cost x.
func interp(c []CostLag, x float64) float64 {
	for i := 1; i < len(c); i++ {
		if x <= c[i].Cost {
			p, q := c[i-1], c[i]
			return p.Lag + (q.Lag-p.Lag)*(x-p.Cost)/(q.Cost-p.Cost)
		}
	}
	return math.NaN()
}

// TestAllocateClosedForm: for lags a_s/c the equal-marginal split is
// c_s = B √a_s / Σ w_s √a_s (weights summing to 1), at the price
// a_s/c_s² in every group; Allocate on the sampled curves finds it,
// and no split of the budget over a fine grid beats it (brute force).
func TestAllocateClosedForm(t *testing.T) {
	a := []float64{1, 25}
	w := []float64{0.7, 0.3} // items
	const budget = 8.0
	curves := [][]CostLag{inverseCurve(a[0]), inverseCurve(a[1])}
	al, err := Allocate(curves, w, budget)
	if err != nil {
		t.Fatal(err)
	}
	norm := w[0]*math.Sqrt(a[0]) + w[1]*math.Sqrt(a[1])
	for s := range a {
		want := budget * math.Sqrt(a[s]) / norm
		if math.Abs(al.Costs[s]-want) > 0.01 {
			t.Errorf("group %d: cost %.4f, want the closed form %.4f", s, al.Costs[s], want)
		}
		if price := a[s] / (al.Costs[s] * al.Costs[s]); math.Abs(price-al.Price)/price > 0.01 {
			t.Errorf("group %d: marginal gain %.5f, want the common price %.5f", s, price, al.Price)
		}
	}
	if math.Abs(al.Spent-budget) > 1e-9 {
		t.Errorf("spent %v, want the budget %v", al.Spent, budget)
	}
	lag := func(c0 float64) float64 {
		c1 := (budget - w[0]*c0) / w[1]
		return w[0]*interp(curves[0], c0) + w[1]*interp(curves[1], c1)
	}
	got := lag(al.Costs[0])
	best := math.Inf(1)
	for c0 := 0.5; c0 <= (budget-w[1]*0.5)/w[0]; c0 += 0.0005 {
		if l := lag(c0); l < best {
			best = l
		}
	}
	if got > best*(1+1e-6) {
		t.Errorf("allocated lag %.6f, but a split found by brute force gives %.6f", got, best)
	}
}

// TestAllocateHull: a group's point above the chord of its neighbours
// is never used, a point dearer and no faster is dropped, a budget below
// the cheapest fits is an error, and one beyond the dearest is left
// unspent at price 0.
func TestAllocateHull(t *testing.T) {
	c := []CostLag{{1, 10}, {2, 8}, {3, 2}, {4, 2}, {6, 1}}
	h := costLagHull(c)
	want := []CostLag{{1, 10}, {3, 2}, {6, 1}}
	if len(h) != len(want) {
		t.Fatalf("hull %v, want %v", h, want)
	}
	for i := range h {
		if h[i] != want[i] {
			t.Fatalf("hull %v, want %v", h, want)
		}
	}
	// Two equal groups, budget 2 (4 in all): both first edges buy 4 s
	// per request, the second edges 1/3; the 2 spare requests go at
	// price 4, so any split of them along the first edges waits 12.
	al, err := Allocate([][]CostLag{c, c}, []float64{1, 1}, 2)
	hl := func(x float64) float64 { return interp(h, x) }
	if err != nil || al.Price != 4 || hl(al.Costs[0])+hl(al.Costs[1]) != 12 || al.Costs[0]+al.Costs[1] != 4 {
		t.Errorf("allocation %+v, %v: want 4 requests in all waiting 12 at price 4", al, err)
	}
	if _, err := Allocate([][]CostLag{c, c}, []float64{1, 1}, 0.5); err == nil {
		t.Error("a budget below the cheapest fits: no error")
	}
	al, err = Allocate([][]CostLag{c, c}, []float64{1, 1}, 10)
	if err != nil || al.Spent != 6 || al.Price != 0 {
		t.Errorf("allocation %+v, %v: want all at 6, price 0", al, err)
	}
}

// TestStudyGroupsMixed is issue 13's check: on the generated mix of
// wallets, mobile money, cards and bank transfers, the fit per method
// at 8 requests per item on average waits at most 0.45× the one
// schedule's held-out mean lag, at no more cost, and sharing the budget
// beats giving each method 8.
func TestStudyGroupsMixed(t *testing.T) {
	testenv.SkipUnlessLong(t) // fits four groups twice
	t.Parallel()              // minutes of fitting: shares the cores with the other slow tests
	segs := methodGroups(10000, 1)
	opt := GroupOptions{StudyOptions: StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 8}}, Holdout: 0.3, Seed: 1}}
	shared, err := StudyGroups(context.Background(), nil, segs, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.PerGroup = true
	equal, err := StudyGroups(context.Background(), nil, segs, opt)
	if err != nil {
		t.Fatal(err)
	}
	one := shared.SharedTotal
	ratio := shared.Total.LagMean / one.LagMean
	t.Logf("grouped %.3fs at %.2f req, equal budgets %.3fs at %.2f, one schedule %.3fs at %.2f: ratio %.3f (equal %.3f)",
		shared.Total.LagMean, shared.Total.RequestsPerItem, equal.Total.LagMean, equal.Total.RequestsPerItem,
		one.LagMean, one.RequestsPerItem, ratio, equal.Total.LagMean/one.LagMean)
	if ratio > 0.45 {
		t.Errorf("grouped lag %.3fs is %.3f× the one schedule's %.3fs, want ≤ 0.45×", shared.Total.LagMean, ratio, one.LagMean)
	}
	if shared.Total.RequestsPerItem > one.RequestsPerItem*1.02 {
		t.Errorf("grouped cost %.3f, the one schedule's %.3f: not the same cost", shared.Total.RequestsPerItem, one.RequestsPerItem)
	}
	if shared.Total.LagMean >= equal.Total.LagMean {
		t.Errorf("shared budget %.3fs, equal budgets %.3fs: sharing should win", shared.Total.LagMean, equal.Total.LagMean)
	}
	// The totals are the groups' rows added up, item by item.
	var n, det, lag float64
	for _, f := range shared.Groups {
		n += f.Row.Items
		det += f.Row.Detected
		lag += f.Row.Lag.Mean * f.Row.Detected
		if f.Fallback {
			t.Errorf("group %s (%v final answers) fell back", f.Value, f.Final)
		}
	}
	if n != one.Items || math.Abs(lag/det-shared.Total.LagMean) > 1e-12 {
		t.Errorf("totals: %v items (shared %v), lag %v vs %v", n, one.Items, lag/det, shared.Total.LagMean)
	}
}

// methodGroups are the items of n rows of the segmented model (seeded),
// one group per payment method in the order the methods first come.
func methodGroups(n int, seed uint64) []Group {
	rows := loggen.Rows(loggen.Segmented, n, seed)
	items := loggen.Items(rows)
	idx := map[string]int{}
	var segs []Group
	for i, r := range rows {
		k, ok := idx[r.Method]
		if !ok {
			k, idx[r.Method] = len(segs), len(segs)
			segs = append(segs, Group{Value: r.Method})
		}
		segs[k].Sample.Items = append(segs[k].Sample.Items, items[i])
	}
	return segs
}
