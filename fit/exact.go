package fit

import (
	"math"
	"slices"
)

// grid is the exact optimiser's problem on a finite set of candidate ask
// ages: the first candidate is the first ask and the last is the last ask
// (the horizon), both forced. Asks between are any subset of the rest.
//
// A schedule a₀ < a₁ < … < aₙ costs
//
//	Σⱼ lag(aⱼ₋₁, aⱼ) + λ·Σⱼ asked(aⱼ₋₁, aⱼ) + μ·#{j : aⱼ ≤ countTo}
//
// where lag is ∫(aⱼ − s) dF over (aⱼ₋₁, aⱼ] (squared for RMS) and asked
// is the share of items asked at aⱼ. The cost is a sum over consecutive
// pairs, so the best subset is a shortest path through the candidates:
// a dynamic programme in O(candidates²). λ prices a request (the
// requests-per-item budget and --price), μ an ask to an item that never
// settles (the asks-by and max-attempts budgets).
type grid struct {
	obj            Objective
	t              []float64
	f, i, j, pend  []float64
	total          float64
	minGap, maxGap float64 // 0: none
	countTo        float64 // asks at ages ≤ countTo are priced μ
	// tieBreak is a tiny cost per ask (1e-9 × the horizon): where asks
	// cost nothing, as after every answer in a log has come, fewer win.
	tieBreak float64
	// freeStart makes t[0] a start that is not an ask, with nothing
	// answered by it, so the first ask may be at any candidate (see
	// newFreeGrid).
	freeStart bool
}

func newGrid(l law, obj Objective, t []float64, minGap, maxGap, countTo float64) *grid {
	g := &grid{obj: obj, t: t, total: l.total(), minGap: minGap, maxGap: maxGap, countTo: countTo, tieBreak: 1e-9 * t[len(t)-1]}
	n := len(t)
	g.f, g.i, g.j, g.pend = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for k, x := range t {
		v := l.at(x)
		g.f[k], g.i[k], g.j[k], g.pend[k] = v.f, v.i, v.j, v.pend
	}
	return g
}

// lag is the lag on (t[a], t[b]].
func (g *grid) lag(a, b int) float64 {
	d := g.t[b] - g.t[a]
	if g.obj == RMS {
		return 2*(g.t[b]*(g.i[b]-g.i[a])-(g.j[b]-g.j[a])) - g.f[a]*d*d
	}
	return g.i[b] - g.i[a] - d*g.f[a]
}

// solve returns the indices of the cheapest schedule at multipliers λ, μ.
//
// The lag is a Monge array: for a < a' < b < b',
// lag(a,b) + lag(a',b') ≤ lag(a,b') + lag(a',b) (the mixed difference is
// −(t_b' − t_b)(F(a') − F(a)) for the mean, and of the same sign for the
// square), the other terms depend on one end only and the interval
// limits cut off a staircase, so the leftmost best predecessor of b never
// comes before that of b − 1: the scan starts there. On candidates
// zoomed around a schedule that is a few candidates per ask, not all.
// Without interval limits the same property gives an O(n log n)
// programme (solveQueue), which the limit's thousands of candidates need.
func (g *grid) solve(lambda, mu float64) []int {
	if g.minGap == 0 && g.maxGap == 0 {
		return g.solveQueue(lambda, mu)
	}
	return g.solveScan(lambda, mu, true)
}

// solveScan is solve, with the monotone shortcut or without (for tests).
func (g *grid) solveScan(lambda, mu float64, monotone bool) []int {
	n := len(g.t)
	v := make([]float64, n)
	from := make([]int, n)
	v[0] = g.startCost(lambda, mu)
	lo := 0
	for b := 1; b < n; b++ {
		tb := g.t[b]
		for g.maxGap > 0 && tb-g.t[lo] > g.maxGap*(1+1e-12) {
			lo++
		}
		best, arg := math.Inf(1), -1
		start := lo
		if monotone && from[b-1] > lo {
			start = from[b-1]
		}
		for a := start; a < b; a++ {
			if g.minGap > 0 && tb-g.t[a] < g.minGap*(1-1e-12) {
				break
			}
			c := v[a] + g.lag(a, b) + lambda*(g.total-g.f[a])
			if c < best {
				best, arg = c, a
			}
		}
		v[b], from[b] = best+g.askCost(b, lambda, mu), arg
	}
	return pathOf(from)
}

// startCost is the programme's cost of the first candidate as the first
// ask: its lag and requests (0 with a free start).
func (g *grid) startCost(lambda, mu float64) float64 {
	if g.freeStart {
		return 0
	}
	t0 := g.t[0]
	v := lambda * (g.total + g.pend[0])
	if g.obj == RMS {
		v += 2 * (t0*g.i[0] - g.j[0])
	} else {
		v += g.i[0]
	}
	if t0 <= g.countTo {
		v += mu
	}
	return v
}

// askCost is the part of an ask's cost at t[b] that depends on b alone:
// the pending items asked there, the tie break and μ.
func (g *grid) askCost(b int, lambda, mu float64) float64 {
	c := lambda*g.pend[b] + g.tieBreak
	if g.t[b] <= g.countTo {
		c += mu
	}
	return c
}

// pathOf follows from back from the last candidate to the first: the
// indices of the asks, or nil when a candidate on the way has no
// feasible predecessor.
func pathOf(from []int) []int {
	n := len(from)
	var path []int
	for k := n - 1; k >= 0; k = from[k] {
		path = append(path, k)
		if k == 0 {
			break
		}
		if from[k] < 0 {
			return nil // no feasible path
		}
	}
	slices.Reverse(path)
	return path
}

// ages maps indices to ages.
func (g *grid) ages(path []int) []float64 {
	out := make([]float64, len(path))
	for k, p := range path {
		out[k] = g.t[p]
	}
	return out
}

// candidates are n ask ages on [first, end]: a third spaced evenly, a
// third geometrically from first, a third at quantiles of the answers.
func candidates(l law, first, end float64, n int) []float64 {
	pts := []float64{first, end}
	span := end - first
	k := n / 3
	for m := 1; m < k; m++ {
		x := float64(m) / float64(k)
		pts = append(pts, first+span*x)
		pts = append(pts, first+math.Min(1e-3, span)*math.Pow(span/math.Min(1e-3, span), x))
	}
	f0, f1 := l.F(first), l.F(end)
	for m := 1; m < k && f1 > f0; m++ {
		target := f0 + (f1-f0)*float64(m)/float64(k)
		lo, hi := first, end
		for range 50 {
			mid := (lo + hi) / 2
			if l.F(mid) >= target {
				hi = mid
			} else {
				lo = mid
			}
		}
		pts = append(pts, hi)
	}
	slices.Sort(pts)
	pts = slices.Compact(pts)
	i := 0
	for _, x := range pts {
		if x >= first && x <= end {
			pts[i] = x
			i++
		}
	}
	return pts[:i]
}

// refine moves each interior ask of asks to its best place between its
// neighbours (golden-section search), sweeping until nothing moves: the
// continuous optimum near the grid's. The first and last asks stay.
func refine(l law, obj Objective, asks []float64, lambda, minGap, maxGap float64) []float64 {
	a := slices.Clone(asks)
	total := l.total()
	var p, q pt
	local := func(j int, x float64) float64 {
		v := l.at(x)
		return lagPt(obj, p, v) + lagPt(obj, v, q) + lambda*(askPt(total, p, v)+askPt(total, v, q))
	}
	const phi = 0.6180339887498949
	for sweep := 0; sweep < 30; sweep++ {
		moved := 0.0
		for j := 1; j+1 < len(a); j++ {
			p, q = l.at(a[j-1]), l.at(a[j+1])
			lo, hi := (a[j-1]+a[j])/2, (a[j]+a[j+1])/2
			if minGap > 0 {
				lo, hi = max(lo, a[j-1]+minGap), min(hi, a[j+1]-minGap)
			}
			if maxGap > 0 {
				lo, hi = max(lo, a[j+1]-maxGap), min(hi, a[j-1]+maxGap)
			}
			if !(hi > lo) {
				continue
			}
			x1, x2 := hi-phi*(hi-lo), lo+phi*(hi-lo)
			f1, f2 := local(j, x1), local(j, x2)
			for range 40 {
				if f1 <= f2 {
					hi, x2, f2 = x2, x1, f1
					x1 = hi - phi*(hi-lo)
					f1 = local(j, x1)
				} else {
					lo, x1, f1 = x1, x2, f2
					x2 = lo + phi*(hi-lo)
					f2 = local(j, x2)
				}
			}
			best := (lo + hi) / 2
			if local(j, best) < local(j, a[j]) {
				moved = max(moved, math.Abs(best-a[j]))
				a[j] = best
			}
		}
		if moved < 1e-9*a[len(a)-1] {
			break
		}
	}
	return a
}
