package fit

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/pollfit/pollfit/estimate"
)

// The queue programme finds the full scan's optimum on random laws
// (logs with ties, censoring and a free start, and a smooth model), for
// both objectives and prices from cheap to dear.
func TestQueueMatchesFullScan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 60; trial++ {
		var l law
		var cands []float64
		if trial%4 == 3 {
			l = newDistLaw(distuv.LogNormal{Mu: math.Log(3), Sigma: 1}, 100)
			cands = candidates(l, 0, 100, 300)
		} else {
			items := make([]estimate.Item, 50+r.IntN(400))
			for i := range items {
				// Ages on a coarse grid, so that ties are common.
				items[i] = estimate.Item{Age: math.Round(r.ExpFloat64()*20*4) / 4, Status: estimate.Settled}
				if r.Float64() < 0.1 {
					items[i].Status = estimate.Pending
				}
			}
			il := newItemLaw(items)
			l = il
			cands, _ = itemCandidates(il, 100)
		}
		obj := Objective(trial % 2)
		g := newGrid(l, obj, cands, 0, 0, 50*float64(trial%3))
		if trial%5 == 1 {
			g.freeStart = true
			g.f[0], g.i[0], g.j[0], g.pend[0] = 0, 0, 0, 0
		}
		lambda, mu := math.Exp(r.Float64()*10-6), r.Float64()
		queue, full := g.solveQueue(lambda, mu), g.solveScan(lambda, mu, false)
		cq, cs := g.pathCost(queue, lambda, mu), g.pathCost(full, lambda, mu)
		if g.freeStart {
			cq, cs = cq-g.pathCost(queue[:1], lambda, mu), cs-g.pathCost(full[:1], lambda, mu)
		}
		if math.Abs(cq-cs) > 1e-9*math.Abs(cs) {
			t.Errorf("trial %d (%d candidates, λ %.3g): queue cost %.12g, full scan %.12g", trial, len(cands), lambda, cq, cs)
		}
		if !slices.Equal(queue, full) {
			t.Logf("trial %d: same cost, different path (%d vs %d asks)", trial, len(queue), len(full))
		}
	}
}
