package fit

import (
	"math/rand/v2"

	"github.com/pollfit/pollfit/estimate"
)

// Split divides items at random into a set to fit on and a held-out set
// of about frac of them, to measure a fitted schedule on items it has not
// seen. The same seed gives the same split; frac 0 holds nothing out.
// The order of the items within each set is kept.
func Split(items []estimate.Item, frac float64, seed uint64) (fitOn, heldOut []estimate.Item) {
	if frac <= 0 {
		return items, nil
	}
	r := rand.New(rand.NewPCG(seed, 0x401d0a7))
	for _, it := range items {
		if r.Float64() < frac {
			heldOut = append(heldOut, it)
		} else {
			fitOn = append(fitOn, it)
		}
	}
	return fitOn, heldOut
}
