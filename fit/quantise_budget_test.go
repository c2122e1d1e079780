package fit

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// denseWithin is solveWithin as it was before the dominated cells were
// dropped: every cell of the (clauses, boundary, spending) table, each
// edge relaxed from every spending. It is the reference the pruned
// programme must match path for path.
func denseWithin(sg *clauseSet, obj Objective, k int, limit float64, asks bool, bins int) []segEdge {
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

func samePath(a, b []segEdge) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if a[i].from != b[i].from || a[i].to != b[i].to || a[i].every != b[i].every || a[i].last != b[i].last || a[i].tail != b[i].tail {
			return false
		}
	}
	return true
}

// TestSolveWithinMatchesDense checks the pruned programme against the
// full table on the quantiser's own problems (nice values over a
// mixture, at several budgets, clause counts and prices per ask, as
// capStuck sets them), path for path.
func TestSolveWithinMatchesDense(t *testing.T) {
	m := mustModel(t, "0.5*lognormal(median=3s, sigma=0.6) + 0.45*lognormal(median=25s, sigma=0.5) + 0.05*never")
	horizon := 5 * time.Minute
	l := newDistLaw(m, horizon.Seconds())
	sg := newClauseSet(l, 0, horizon, false, false, nil, 0, 0, horizon.Seconds(), 0)
	for _, k := range []int{1, 2, 4, 6} {
		for _, limit := range []float64{2, 5, 8, 13, 30} {
			for _, asks := range []bool{false, true} {
				for _, price := range []float64{0, 1e-4, 3e-3, 0.05} {
					sg.askPrice = price
					got := sg.solveWithin(Mean, k, limit, asks, 1000)
					want := denseWithin(sg, Mean, k, limit, asks, 1000)
					if !samePath(got, want) {
						t.Errorf("k %d limit %g asks %v price %g: pruned %s, full table %s", k, limit, asks, price, pathText(sg, got), pathText(sg, want))
					}
				}
			}
		}
	}
}

// TestSolveWithinTies checks the pruned programme against the full table
// on random problems of small whole costs and spendings, where many
// paths tie and the first found must still win.
func TestSolveWithinTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 29))
	for trial := range 300 {
		n := 3 + rng.IntN(8)
		sg := &clauseSet{b: make([]time.Duration, n)}
		for i := range sg.b {
			sg.b[i] = time.Duration(i+1) * time.Second
		}
		sg.first = sums{lag: float64(rng.IntN(3)), requests: float64(rng.IntN(3))}
		for range 4 * n {
			from := rng.IntN(n - 1)
			to := from + 1 + rng.IntN(n-1-from)
			sg.edges = append(sg.edges, segEdge{from: from, to: to, every: time.Duration(1+rng.IntN(9)) * time.Millisecond,
				s: sums{lag: float64(rng.IntN(5)), requests: float64(rng.IntN(6))}, count: float64(rng.IntN(4)), asks: float64(rng.IntN(4)),
				last: sg.b[to]})
		}
		k, limit, asks := 1+rng.IntN(5), float64(2+rng.IntN(15)), rng.IntN(2) == 0
		bins := []int{limit2bins(limit), 10, 1000}[rng.IntN(3)]
		got := sg.solveWithin(Mean, k, limit, asks, bins)
		want := denseWithin(sg, Mean, k, limit, asks, bins)
		if !samePath(got, want) {
			t.Fatalf("trial %d (k %d limit %g asks %v bins %d): pruned %v, full table %v", trial, k, limit, asks, bins, got, want)
		}
	}
}

// limit2bins is one bin per whole request, so spendings land on bin
// edges exactly.
func limit2bins(limit float64) int { return int(limit) }

func pathText(sg *clauseSet, path []segEdge) string {
	if path == nil {
		return "none"
	}
	return sg.schedule(path).String()
}
