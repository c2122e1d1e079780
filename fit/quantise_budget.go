package fit

import (
	"math"
	"slices"
)

// solveWithin finds the cheapest schedule of at most k clauses whose
// spending (requests per item, or priced asks when asks is set) stays
// within limit: a dynamic programme over (clauses, boundary, spending in
// bins of limit/bins, rounded up), so the budget is used as fully as the
// nice values allow rather than only at the prices a multiplier can
// reach.
//
// A cell (clauses, boundary, spending r) whose cost is no less than a
// cell's of the same row at a smaller spending is dominated: every way
// on from it is as cheap or cheaper from the other, which also comes
// first in the final scan. Dropping such cells before they are read
// leaves the optimum and its path as the full table's (the cell a full
// table's optimum passes through is never dominated), and leaves only a
// row's staircase of strictly falling costs to extend, so the programme
// reads a few cells per row rather than every bin.
func (sg *clauseSet) solveWithin(obj Objective, k int, limit float64, asks bool, bins int) []segEdge {
	bin := limit / float64(bins)
	if asks {
		bin, bins = 1, int(math.Floor(limit+1e-9))
	}
	use := func(s sums, n float64) int {
		x := s.requests
		if asks {
			x = n
		}
		return int(math.Ceil(x/bin - 1e-9))
	}
	r0 := use(sg.first, sg.firstN)
	if r0 > bins {
		return nil
	}
	t := sg.table(k, len(sg.b), bins+1)
	t.set(0, 0, r0, sg.first.objective(obj)+sg.askPrice, -1)
	dr := make([]int, len(sg.edges))
	cost := make([]float64, len(sg.edges))
	for e, ed := range sg.edges {
		dr[e], cost[e] = use(ed.s, ed.count), ed.s.objective(obj)+(sg.tieBreak+sg.askPrice)*ed.asks
	}
	end := len(sg.b) - 1
	for s := 0; s < k; s++ {
		t.prune(s)
		last := s == k-1 // its rows are read at the horizon only (best)
		for e, ed := range sg.edges {
			if !last || ed.to == end {
				t.extend(s, ed.from, ed.to, dr[e], cost[e], int32(e))
			}
		}
	}
	t.pruneRow(k*t.n + end)
	bs, br := t.best(end)
	if bs < 0 {
		return nil
	}
	path := make([]segEdge, bs)
	for s, j, r := bs, len(sg.b)-1, br; s > 0; s-- {
		e := t.from[t.idx(s, j, r)]
		path[s-1] = sg.edges[e]
		j, r = sg.edges[e].from, r-dr[e]
	}
	return path
}

// budgetTable is solveWithin's table: cost and edge of each cell, by
// (clauses, boundary) row, of which only the span [lo, hi] of each row
// has been written (the rest is unreached), and, once a row is pruned,
// the spendings of its undominated cells in rising order.
type budgetTable struct {
	n, width int
	v        []float64
	from     []int32
	lo, hi   []int
	live     [][]int32
}

// table gives a table for k clauses over n boundaries and width
// spendings, reusing sg's buffers between calls (capStuck solves the
// same programme at many prices).
func (sg *clauseSet) table(k, n, width int) *budgetTable {
	t := sg.scratch
	if t == nil {
		t = &budgetTable{}
		sg.scratch = t
	}
	rows, size := (k+1)*n, (k+1)*n*width
	t.n, t.width = n, width
	if cap(t.v) < size {
		t.v, t.from = make([]float64, size), make([]int32, size)
	}
	t.v, t.from = t.v[:size], t.from[:size]
	if cap(t.lo) < rows {
		t.lo, t.hi, t.live = make([]int, rows), make([]int, rows), make([][]int32, rows)
	}
	t.lo, t.hi, t.live = t.lo[:rows], t.hi[:rows], t.live[:rows]
	for i := range rows {
		t.lo[i], t.hi[i], t.live[i] = width, -1, t.live[i][:0]
	}
	return t
}

func (t *budgetTable) idx(s, node, r int) int { return (s*t.n+node)*t.width + r }

// open makes cells [a, b] of row (s, node) readable, unreached cells
// costing +Inf.
func (t *budgetTable) open(row, a, b int) {
	base := row * t.width
	lo, hi := t.lo[row], t.hi[row]
	if lo > hi {
		lo, hi = b+1, b
	}
	// The row's span grows to [min(a, lo), max(b, hi)]: clear what it
	// gains on either side.
	inf := math.Inf(1)
	if a < lo {
		clear := t.v[base+a : base+lo]
		for r := range clear {
			clear[r] = inf
		}
	}
	if hi < b {
		clear := t.v[base+hi+1 : base+b+1]
		for r := range clear {
			clear[r] = inf
		}
	}
	t.lo[row], t.hi[row] = min(lo, a), max(hi, b)
}

// set writes one cell.
func (t *budgetTable) set(s, node, r int, x float64, e int32) {
	row := s*t.n + node
	t.open(row, r, r)
	t.v[row*t.width+r], t.from[row*t.width+r] = x, e
}

// prune lists the undominated cells of each row of clauses s: those
// cheaper than every cell of the row at a smaller spending.
func (t *budgetTable) prune(s int) {
	for node := range t.n {
		t.pruneRow(s*t.n + node)
	}
}

// pruneRow lists one row's undominated cells.
func (t *budgetTable) pruneRow(row int) {
	live, lo, hi := t.live[row][:0], t.lo[row], t.hi[row]
	if lo > hi {
		t.live[row] = live
		return
	}
	m := math.Inf(1)
	base := row*t.width + lo
	for r, x := range t.v[base : base+hi-lo+1] {
		if x < m {
			m = x
			live = append(live, int32(lo+r))
		}
	}
	t.live[row] = live
}

// extend relaxes edge e (from → to, spending dr, cost c) from row
// (s, from)'s undominated cells into row (s+1, to).
func (t *budgetTable) extend(s, from, to, dr int, c float64, e int32) {
	live := t.live[s*t.n+from]
	top := t.width - 1 - dr
	if len(live) == 0 || int(live[0]) > top {
		return
	}
	// The cells that stay within the table: live rises, so a prefix.
	n, _ := slices.BinarySearch(live, int32(top)+1)
	live = live[:n]
	dst := (s+1)*t.n + to
	t.open(dst, int(live[0])+dr, int(live[n-1])+dr)
	src, db := (s*t.n+from)*t.width, dst*t.width+dr
	sv, dv, df := t.v[src:src+top+1], t.v[db:db+top+1], t.from[db:db+top+1]
	for _, r := range live {
		if x := sv[r] + c; x < dv[r] {
			dv[r], df[r] = x, e
		}
	}
}

// best is the cheapest cell ending at boundary end, the fewest clauses
// and then the least spending winning ties: (−1, −1) when none is.
func (t *budgetTable) best(end int) (int, int) {
	bs, br, bx := -1, -1, math.Inf(1)
	for s := 1; s*t.n < len(t.lo); s++ {
		row := s*t.n + end
		for _, r := range t.live[row] {
			if x := t.v[row*t.width+int(r)]; x < bx {
				bs, br, bx = s, int(r), x
			}
		}
	}
	return bs, br
}
