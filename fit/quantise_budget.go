package fit

import "math"

// solveWithin finds the cheapest schedule of at most k clauses whose
// spending (requests per item, or priced asks when asks is set) stays
// within limit: a dynamic programme over (clauses, boundary, spending in
// bins of limit/bins, rounded up), so the budget is used as fully as the
// nice values allow rather than only at the prices a multiplier can
// reach.
func (sg *segments) solveWithin(obj Objective, k int, limit float64, asks bool, bins int) []segEdge {
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
	n, width := len(sg.b), bins+1
	size := (k + 1) * n * width
	v := make([]float64, size)
	from := make([]int32, size)
	for i := range v {
		v[i] = math.Inf(1)
	}
	idx := func(s, node, r int) int { return (s*n+node)*width + r }
	r0 := use(sg.first, sg.firstN)
	if r0 > bins {
		return nil
	}
	v[idx(0, 0, r0)] = sg.first.objective(obj) + sg.askPrice
	for s := 0; s < k; s++ {
		for e, ed := range sg.edges {
			base := idx(s, ed.from, 0)
			dr := use(ed.s, ed.count)
			c := ed.s.objective(obj) + (sg.tieBreak+sg.askPrice)*ed.asks
			for r := 0; r+dr <= bins; r++ {
				if x := v[base+r]; x+c < v[idx(s+1, ed.to, r+dr)] {
					v[idx(s+1, ed.to, r+dr)] = x + c
					from[idx(s+1, ed.to, r+dr)] = int32(e)
				}
			}
		}
	}
	bs, br := -1, -1
	for s := 1; s <= k; s++ {
		for r := 0; r <= bins; r++ {
			if x := v[idx(s, n-1, r)]; !math.IsInf(x, 1) && (bs < 0 || x < v[idx(bs, n-1, br)]) {
				bs, br = s, r
			}
		}
	}
	if bs < 0 {
		return nil
	}
	path := make([]segEdge, bs)
	for s, j, r := bs, n-1, br; s > 0; s-- {
		ed := sg.edges[from[idx(s, j, r)]]
		path[s-1] = ed
		j, r = ed.from, r-use(ed.s, ed.count)
	}
	return path
}
