package fit

import (
	"math"
	"testing"
	"time"
)

// coldCapStuck is the stuck cap's search as it was before it started
// from the last search's bracket: the prices 10⁻⁹ × the horizon × 4ᵏ
// from k = 0 up to the first that keeps the cap, then the bisection. It
// is the reference capStuck must match from any start.
func coldCapStuck(p *problem, sg *clauseSet) []segEdge {
	sg.askPrice = 0
	path, _, err := p.quantisedAt(sg)
	cap := float64(p.opt.StuckAsks)
	if err != nil || p.withinStuck(int(stuckAsks(path))) {
		return path
	}
	var best []segEdge
	bestObj := math.Inf(1)
	try := func(price float64) bool {
		sg.askPrice = price
		path, _, err := p.quantisedAt(sg)
		if err != nil || stuckAsks(path) > cap {
			return false
		}
		s, _ := sg.total(path)
		if obj := s.objective(p.opt.Objective); obj < bestObj {
			best, bestObj = path, obj
		}
		return true
	}
	hi := 1e-9 * math.Max(p.end, 1)
	for !try(hi) {
		if hi *= 4; hi > 1e9 {
			return nil
		}
	}
	lo := hi / 4
	for range 30 {
		mid := math.Sqrt(lo * hi)
		if try(mid) {
			hi = mid
		} else {
			lo = mid
		}
		if hi/lo < 1.01 {
			break
		}
	}
	sg.askPrice = 0
	return best
}

// The stuck cap's search finds the schedule of the search from k = 0
// whatever bracket it starts from (a graft's last round's, a fit's at
// another budget, one far below or above), at budgets and caps where
// the cap binds hard, barely or not at all.
func TestCapStuckFromAnyBracket(t *testing.T) {
	m := mustModel(t, "0.5*lognormal(median=3s, sigma=0.6) + 0.45*lognormal(median=25s, sigma=0.5) + 0.05*never")
	bound := 0
	for _, b := range []float64{4, 8, 13, 30} {
		for _, stuck := range []int{6, 10, 16, 25, 60} {
			p, err := distProblem(m, Options{Budget: Budget{RequestsPerItem: b}, Horizon: 5 * time.Minute, StuckAsks: stuck})
			if err != nil {
				t.Fatal(err)
			}
			mk := func() *clauseSet {
				return p.newClauses(time.Duration(math.Round(p.first*1e3))*time.Millisecond, time.Duration(p.minGap*1e9), time.Duration(p.maxGap*1e9))
			}
			want := coldCapStuck(p, mk())
			var k int
			for _, from := range []int{0, 3, 9, 12, 14, 20, 30, -1} {
				sg := mk()
				if sg.stuckK = from; from < 0 {
					sg.stuckK = k // its own bracket, found from 0 below
				}
				got, _, err := p.capStuck(sg)
				if (err == nil) != (want != nil) {
					t.Fatalf("budget %g cap %d from k %d: error %v, the search from 0 finds %s", b, stuck, from, err, pathText(sg, want))
				}
				if !samePath(got, want) {
					t.Errorf("budget %g cap %d from k %d: %s, the search from 0 %s", b, stuck, from, pathText(sg, got), pathText(sg, want))
				}
				if from == 0 {
					k = sg.stuckK
				}
				if from < 0 && p.capped && k > 0 {
					bound++
				}
			}
		}
	}
	if bound == 0 {
		t.Fatal("the cap never bound: the test tries nothing")
	}
}
