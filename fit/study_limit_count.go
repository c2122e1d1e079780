package fit

import (
	"math"
)

// The limit under a budget that counts asks (asks-by N@T, max attempts
// N) or prices requests. Both are a shortest path with a cap on its
// asks: at most N asks up to H at no price per request, or at most the
// stuck cap at the price. The lag is a Monge array (see grid.solve), and
// adding a cost of either end alone keeps it one, so the best path with
// k edges is found from the best with k − 1 by divide and conquer over
// the monotone best predecessors, in O(n log n) a layer: the exact
// optimum under the cap, one schedule, not a mix.

// maxCountCells bounds layers × candidates of the capped programme (its
// table of predecessors, hindsightCapped's cells); past it the limit is
// the Lagrangian bound.
const maxCountCells = 2e7

// cappedPath is the cheapest path through g's candidates, ending at the
// last, at price lambda per request with at most maxAsks asks (the
// free start is not one): its indices, or nil when none.
func (g *grid) cappedPath(lambda float64, maxAsks int) []int {
	n := len(g.t)
	edges := maxAsks - 1 // the first candidate is an ask
	if g.freeStart {
		edges = maxAsks
	}
	edges = min(edges, n-1)
	if edges < 1 {
		if n == 1 && maxAsks >= 1 {
			return []int{0}
		}
		return nil
	}
	inf := math.Inf(1)
	ly := newCapLayer(g, lambda)
	ly.prev[0] = g.startCost(lambda, 0)
	from := make([][]int32, 0, edges)
	best, bestK := inf, 0
	for k := 1; k <= edges; k++ {
		ly.arg = make([]int32, n)
		for b := range ly.cur {
			ly.cur[b] = inf
		}
		if k == 1 {
			ly.fill(1, n-1, 0, 0)
		} else {
			ly.fill(k, n-1, k-1, n-2)
		}
		from = append(from, ly.arg)
		if ly.cur[n-1] < best {
			best, bestK = ly.cur[n-1], k
		}
		ly.prev, ly.cur = ly.cur, ly.prev
	}
	if bestK == 0 {
		return nil
	}
	path := make([]int, bestK+1)
	path[bestK] = n - 1
	for k := bestK; k >= 1; k-- {
		path[k-1] = int(from[k-1][path[k]])
	}
	return path
}

// capLayer is one layer of cappedPath's programme: the best cost with
// k edges to each candidate (cur) from the best with k − 1 (prev), and
// each one's best predecessor (arg). pr holds λ·(total − F(a)), the
// requests still asked of the items pending at a, once for all layers.
type capLayer struct {
	g             *grid
	lambda        float64
	prev, cur, pr []float64
	arg           []int32
}

func newCapLayer(g *grid, lambda float64) *capLayer {
	n := len(g.t)
	ly := &capLayer{g: g, lambda: lambda, prev: make([]float64, n), cur: make([]float64, n), pr: make([]float64, n)}
	for a := range ly.pr {
		ly.prev[a] = math.Inf(1)
		ly.pr[a] = lambda * (g.total - g.f[a])
	}
	return ly
}

// fill sets cur and arg for the candidates lo..hi, whose best
// predecessors lie in optLo..optHi (they move right with the candidate:
// the lag is a Monge array), by divide and conquer. The cost of a path
// through a to b adds, in this order, prev[a], lag(a, b), pr[a] and b's
// ask cost; the mean lag's terms are written out (the same operations
// as grid.lag) in the scan that dominates the limit's time.
func (ly *capLayer) fill(lo, hi, optLo, optHi int) {
	g := ly.g
	prev, pr, t, f, ii := ly.prev, ly.pr, g.t, g.f, g.i
	for lo <= hi {
		mid := (lo + hi) / 2
		bv, ba := math.Inf(1), optLo
		ask := g.askCost(mid, ly.lambda, 0)
		top := min(optHi, mid-1)
		if g.obj == RMS {
			for a := optLo; a <= top; a++ {
				if v := prev[a] + g.lag(a, mid) + pr[a] + ask; v < bv {
					bv, ba = v, a
				}
			}
		} else {
			tb, ib := t[mid], ii[mid]
			for a := optLo; a <= top; a++ {
				if v := prev[a] + (ib - ii[a] - (tb-t[a])*f[a]) + pr[a] + ask; v < bv {
					bv, ba = v, a
				}
			}
		}
		ly.cur[mid], ly.arg[mid] = bv, int32(ba)
		ly.fill(lo, mid-1, optLo, ba)
		lo, optLo = mid+1, ba
	}
}

// hindsightCapped is the limit at price lambda per request (0 for a
// budget that counts asks) with at most maxAsks asks: the exact optimum
// (bound false), or, where the programme would be too large, the
// Lagrangian bound: the mix of the two schedules either side of the cap
// on the lower convex hull of (asks, priced lag), which no schedule with
// at most maxAsks asks beats but which is no schedule itself (bound
// true).
func hindsightCapped(l law, cands []float64, first float64, free bool, obj Objective, lambda float64, maxAsks int, cells float64) (mixed, bool, error) {
	g, skip := limitGrid(l, obj, cands, first, free, math.Inf(1))
	ts := g.t
	asksOf := func(path []int) []float64 { return g.ages(path[skip:]) }
	if path := g.solve(lambda, 0); path != nil && len(path)-skip <= maxAsks {
		a := asksOf(path)
		return mixed{a: a, b: a, w: 1, l: l}, false, nil // the cap does not bind
	}
	if float64(maxAsks)*float64(len(ts)) <= cells {
		if path := g.cappedPath(lambda, maxAsks); path != nil {
			a := asksOf(path)
			return mixed{a: a, b: a, w: 1, l: l}, false, nil
		}
	}
	// The bound: a price μ per ask, bracketing the cap as bracketHull
	// brackets a cost, on (asks, lag + λ·requests).
	at := func(mu float64) ([]float64, sums) {
		path := g.solve(lambda, mu)
		a := asksOf(path)
		s := evaluate(l, a)
		s.lag, s.lag2 = s.lag+lambda*s.requests, s.lag2+lambda*s.requests
		s.requests = float64(len(a))
		return a, s
	}
	m, err := bracketHull(l, obj, at, float64(maxAsks))
	return m, true, err
}
