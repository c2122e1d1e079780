package fit

import (
	"math"
	"testing"
	"time"
)

// coldBracket is the stuck cap's bracket as the search found it before
// it started from the last search's: the prices 10⁻⁹ × the horizon × 4ᵏ
// from k = 0 up to the first that keeps the cap (ok false: none up to
// 10⁹). The bisection after it takes the bracket alone, so a search
// that finds this k and solution finds what the search from 0 did.
func coldBracket(p *problem, sg *clauseSet) (int, []segEdge, bool) {
	for k := 0; p.stuckPrice(k) <= 1e9; k++ {
		if path, _, ok := p.keepsCap(sg, p.stuckPrice(k)); ok {
			return k, path, true
		}
	}
	return 0, nil, false
}

// The stuck cap's search finds the bracket of the search from k = 0
// whatever bracket it starts from (a graft's last round's, a fit's at
// another budget, one far below or above), at budgets and caps where
// the cap binds hard, barely or not at all.
func TestStuckBracketFromAnyStart(t *testing.T) {
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
			wantK, want, wantOK := coldBracket(p, mk())
			if wantOK && wantK > 0 {
				bound++
			}
			for _, from := range []int{0, 3, 9, 12, 14, 20, 30, wantK} {
				sg := mk()
				sg.stuckK = from
				k, got, _, ok := p.stuckBracket(sg)
				if ok != wantOK || k != wantK || !samePath(got, want) {
					t.Errorf("budget %g cap %d from k %d: k %d (ok %v) %s, the search from 0 k %d (ok %v) %s", b, stuck, from, k, ok, pathText(sg, got), wantK, wantOK, pathText(sg, want))
				}
				if ok && sg.stuckK != k {
					t.Errorf("budget %g cap %d from k %d: the set keeps k %d, found %d", b, stuck, from, sg.stuckK, k)
				}
			}
		}
	}
	if bound == 0 {
		t.Fatal("the cap never bound above the first price: the test tries nothing")
	}
}
