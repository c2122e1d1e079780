package fit

import (
	"fmt"
	"math"
	"sort"
)

// The limit's mix: the two schedules either side of a cost on the lower
// convex hull of (requests, lag), found by a handful of programmes.

// hull is the limit: schedule a (spending ca) asked of a share w of the
// items, schedule b (spending cb ≤ the cost) of the rest.
type mixed struct {
	a, b []float64
	w    float64
	l    law
	// stuckCap is the cap on asks that bound both schedules' asks, when
	// it bound the programme (0 when it did not).
	stuckCap int
}

func (x mixed) mix(a, b float64) float64 { return x.w*a + (1-x.w)*b }

// honours reports whether each schedule the mix asks of some items asks
// at most cap times (cap ≤ 0: no cap).
func (x mixed) honours(cap int) bool {
	return cap <= 0 || ((x.w == 0 || len(x.a) <= cap) && (x.w == 1 || len(x.b) <= cap))
}

// limitHull is the limit's programme on a law's candidates (schedules
// that first ask at first, or with free set at any candidate), and its
// solution at each price it was asked, made once: a frontier's budgets
// bracket their costs from the same prices (1, 4, 16, ..., 1/4), and
// each budget would otherwise solve them again. Its methods may be
// called from several goroutines at once.
type limitHull struct {
	l      law
	cands  []float64
	first  float64
	free   bool
	obj    Objective
	g      *grid
	skip   int
	solved onceMap[float64, hullVertex]
}

// hullVertex is the programme's schedule at a price, and its sums.
type hullVertex struct {
	asks []float64
	s    sums
}

func newLimitHull(l law, cands []float64, first float64, free bool, obj Objective) *limitHull {
	h := &limitHull{l: l, cands: cands, first: first, free: free, obj: obj}
	h.g, h.skip = limitGrid(l, obj, cands, first, free, -1)
	return h
}

// at finds the two hull vertices either side of cost.
func (h *limitHull) at(cost float64) (mixed, error) {
	return bracketHull(h.l, h.obj, h.solve, cost)
}

// solve is the programme's schedule at price lambda.
func (h *limitHull) solve(lambda float64) ([]float64, sums) {
	v := h.solved.get(lambda, func() hullVertex {
		path := h.g.solve(lambda, 0)
		asks := h.g.ages(path[h.skip:])
		return hullVertex{asks, evaluate(h.l, asks)}
	})
	return v.asks, v.s
}

// limitGrid is the limit's programme over the candidates: schedules
// that first ask at first, or with free set at any candidate (then the
// grid's first point is a start that is not an ask: skip it, 1, in a
// path's asks). Asks up to countTo are priced μ.
func limitGrid(l law, obj Objective, cands []float64, first float64, free bool, countTo float64) (g *grid, skip int) {
	ts := []float64{first}
	for _, c := range cands {
		if c > first || (free && c >= first) {
			ts = append(ts, c)
		}
	}
	g = newGrid(l, obj, ts, 0, 0, countTo)
	if free {
		g.freeStart, skip = true, 1
		g.f[0], g.i[0], g.j[0], g.pend[0] = 0, 0, 0, 0
	}
	return g, skip
}

// hindsightStuck is hindsight among the schedules that ask at most
// maxAsks times in all (the stuck cap): the two either side of cost on
// the lower convex hull of theirs, each found by the capped programme
// (grid.cappedPath) at a price per request. ok is false when no
// schedule asks so few times.
func hindsightStuck(l law, cands []float64, first float64, free bool, obj Objective, cost float64, maxAsks int) (mixed, bool, error) {
	g, skip := limitGrid(l, obj, cands, first, free, math.Inf(1))
	one := g.cappedPath(1, maxAsks)
	if one == nil {
		return mixed{}, false, nil
	}
	at := func(lambda float64) ([]float64, sums) {
		path := one // price 1's path, served once: bracketHull asks for it first
		if path == nil || lambda != 1 {
			path = g.cappedPath(lambda, maxAsks)
		}
		one = nil
		asks := g.ages(path[skip:])
		return asks, evaluate(l, asks)
	}
	m, err := bracketHull(l, obj, at, cost)
	m.stuckCap = maxAsks
	return m, err == nil, err
}

// bracketHull finds the two schedules of at either side of cost on the
// lower convex hull of (requests, lag) (the cheaper within it) and mixes
// them to spend cost exactly. It brackets cost with prices a factor 4
// apart, then walks the hull (Eisner and Severance's search): at the
// price where the two schedules cost the same, the programme finds a
// hull vertex strictly below the line through them, which replaces the
// one on its side of cost, or none, and they are neighbours on the hull.
// Each step finds a new vertex, so a handful of programmes do what a
// bisection of the price needs forty for.
func bracketHull(l law, obj Objective, at func(lambda float64) ([]float64, sums), cost float64) (mixed, error) {
	within := func(s sums) bool { return s.requests <= cost*(1+1e-12) }
	hi := 1.0
	b, sb := at(hi)
	for !within(sb) {
		if hi == hullProbeAfter {
			// A higher price never buys more requests: when the dearest
			// the walk would try buys too many, so does every price below
			// it, and the walk would solve them all to find that out.
			if _, top := at(hullTopPrice); !within(top) {
				return mixed{}, noHullFits(cost)
			}
		}
		if hi *= 4; hi > 1e15 {
			return mixed{}, noHullFits(cost)
		}
		b, sb = at(hi)
	}
	lo := hi / 4
	a, sa := at(lo)
	for within(sa) {
		if lo /= 4; lo < 1e-15 {
			return mixed{a: a, b: a, w: 1, l: l}, nil // every candidate fits
		}
		b, sb = a, sa
		a, sa = at(lo)
	}
	for k := 0; k < 200 && sa.requests > sb.requests; k++ {
		price := (sb.objective(obj) - sa.objective(obj)) / (sa.requests - sb.requests)
		line := sa.objective(obj) + price*sa.requests
		x, sx := at(price)
		if !(sx.objective(obj)+price*sx.requests < line-1e-12*math.Abs(line)) {
			break
		}
		if within(sx) {
			b, sb = x, sx
		} else {
			a, sa = x, sx
		}
	}
	w := 0.0
	if sa.requests > sb.requests {
		w = (cost - sb.requests) / (sa.requests - sb.requests)
	}
	return mixed{a: a, b: b, w: math.Min(math.Max(w, 0), 1), l: l}, nil
}

// hullTopPrice is the dearest price bracketHull's walk up tries (4²⁴: the
// next is over 1e15), and hullProbeAfter the price after which, still over the
// cost, it tries that one first: a cost below every schedule's (the
// report's frontier from 1.5 requests per item, where the cheapest
// limit asks first and at the give-up age) then fails in 5 programmes,
// not 25.
const (
	hullTopPrice   = 1 << 48 // 4²⁴
	hullProbeAfter = 64
)

// noHullFits is bracketHull's error for a cost no schedule spends as
// little as.
func noHullFits(cost float64) error {
	return fmt.Errorf("no schedule spends as little as %.4g requests per item", cost)
}

// prediction is the mix on its law: the share detected and the mean lag
// mixed, and the longest lag of either (its percentiles are NaN: a mix
// of two lag distributions has no closed form here); a schedule alone
// (w = 1) is its own prediction.
func (x mixed) prediction() Prediction {
	pa, pb := predict(x.l, x.a), predict(x.l, x.b)
	if x.w == 1 {
		return pa // one schedule: its percentiles too
	}
	pr := Prediction{Detected: x.mix(pa.Detected, pb.Detected), RequestsPerItem: x.mix(pa.RequestsPerItem, pb.RequestsPerItem), RMSLag: math.NaN()}
	pr.Lag = noLags()
	pr.Lag.Mean = x.mix(pa.Lag.Mean*pa.Detected, pb.Lag.Mean*pb.Detected) / pr.Detected
	pr.Lag.Max = math.Max(pa.Lag.Max, pb.Lag.Max)
	return pr
}

// lagStats are the mix's lag statistics: exact integrals on a model, the
// weighted lags of the held-out items on a log.
func (x mixed) lagStats(st *study, end float64) LagStats {
	if st.model != nil {
		return x.prediction().Lag
	}
	var lags, ws []float64
	for i, it := range st.test.Items {
		if !it.Status.Final() || it.Age > end {
			continue
		}
		w := st.test.Weight(i)
		for k, asks := range [][]float64{x.a, x.b} {
			j := sort.SearchFloat64s(asks, it.Age)
			if j == len(asks) {
				continue
			}
			share := x.w
			if k == 1 {
				share = 1 - x.w
			}
			if share > 0 {
				lags, ws = append(lags, asks[j]-it.Age), append(ws, w*share)
			}
		}
	}
	return weightedLagStats(lags, ws)
}
