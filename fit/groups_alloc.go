package fit

import (
	"fmt"
	"math"
	"slices"
)

// CostLag is one point of a group's lag-versus-cost curve: a fit that
// spends Cost requests per item and waits Lag, the lag summed over its
// items per item (mean lag × share of items whose answer is seen), so
// that lags of groups add when weighted by their items.
type CostLag struct{ Cost, Lag float64 }

// Allocation is how a shared budget is split between groups.
type Allocation struct {
	// Costs are the requests per item each group gets.
	Costs []float64
	// Price is the common marginal price: the lag, summed per item in
	// seconds, that the last request per item bought in every group
	// that has more than its cheapest fit (0 when every group sits at
	// its dearest point and the budget is not all spent).
	Price float64
	// Spent is the weighted mean of Costs: the budget, unless every
	// group's dearest fit costs less.
	Spent float64
}

// Allocate splits budget (requests per item, averaged over all items)
// between groups of weights w (their items) with lag-versus-cost
// curves curves, to the least total lag: each curve is replaced by its
// lower convex hull (a mix of two fits is a fit at any cost between
// them), and requests go, one edge at a time, to the group whose next
// edge buys the most lag per request, the last edge taken in part. At the
// result every group off its cheapest point buys lag at one price per
// request (Allocation.Price), which no other split of the same budget
// beats on the hulls.
func Allocate(curves [][]CostLag, w []float64, budget float64) (Allocation, error) {
	if len(curves) != len(w) || len(curves) == 0 {
		return Allocation{}, fmt.Errorf("allocate: %d curves for %d weights", len(curves), len(w))
	}
	hulls := make([][]CostLag, len(curves))
	total, spent := 0.0, 0.0
	pos := make([]int, len(curves))
	for i, c := range curves {
		hulls[i] = costLagHull(c)
		if len(hulls[i]) == 0 || !(w[i] > 0) {
			return Allocation{}, fmt.Errorf("allocate: group %d has no fit or no weight", i)
		}
		total += w[i]
		spent += w[i] * hulls[i][0].Cost
	}
	a := Allocation{Costs: make([]float64, len(curves))}
	for i := range hulls {
		a.Costs[i] = hulls[i][0].Cost
	}
	if spent > budget*total*(1+1e-9) {
		return a, infeasible(fmt.Sprintf("budget %.4g requests per item is below the groups' cheapest fits, %.4g on average", budget, spent/total), "raise the budget", "Budget.RequestsPerItem")
	}
	for {
		best, slope := -1, 0.0
		for i, h := range hulls {
			if pos[i]+1 < len(h) {
				p, q := h[pos[i]], h[pos[i]+1]
				if s := (p.Lag - q.Lag) / (q.Cost - p.Cost); best < 0 || s > slope {
					best, slope = i, s
				}
			}
		}
		if best < 0 {
			break // every group at its dearest fit
		}
		p, q := hulls[best][pos[best]], hulls[best][pos[best]+1]
		left := budget*total - spent
		if need := w[best] * (q.Cost - p.Cost); need < left {
			spent += need
			pos[best]++
			a.Costs[best] = q.Cost
			continue
		}
		a.Costs[best] = p.Cost + left/w[best]
		spent, a.Price = budget*total, slope
		break
	}
	a.Spent = spent / total
	return a, nil
}

// costLagHull is the lower convex hull of a curve's points, by cost, from
// its cheapest point to its least lag: no point dearer and laggier than
// another, and each step buying less lag per request than the one before.
func costLagHull(c []CostLag) []CostLag {
	pts := slices.Clone(c)
	pts = slices.DeleteFunc(pts, func(p CostLag) bool { return math.IsNaN(p.Cost) || math.IsNaN(p.Lag) })
	slices.SortFunc(pts, func(a, b CostLag) int {
		if a.Cost != b.Cost {
			return cmpFloat(a.Cost, b.Cost)
		}
		return cmpFloat(a.Lag, b.Lag)
	})
	var h []CostLag
	for _, p := range pts {
		if len(h) > 0 && p.Lag >= h[len(h)-1].Lag {
			continue // dearer, and waits no less
		}
		for len(h) >= 2 {
			a, b := h[len(h)-2], h[len(h)-1]
			// b is above the chord from a to p: drop it.
			if (b.Lag-a.Lag)*(p.Cost-a.Cost) >= (p.Lag-a.Lag)*(b.Cost-a.Cost) {
				h = h[:len(h)-1]
				continue
			}
			break
		}
		h = append(h, p)
	}
	return h
}
