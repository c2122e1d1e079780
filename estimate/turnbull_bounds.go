package estimate

import "sort"

// Bounds returns the least and the greatest S(t) over every way of
// spreading each Turnbull interval's mass within it: equal outside the
// intervals, where the likelihood fixes S, and for t inside (Lo[j],
// Hi[j]) the values S takes at the interval's two ends.
func (tb *Turnbull) Bounds(t float64) (lo, hi float64) {
	// j: the first interval not wholly at or below t.
	j := sort.Search(len(tb.Hi), func(j int) bool { return tb.Hi[j] > t })
	below := 0.0
	for _, m := range tb.Mass[:j] {
		below += m
	}
	if j < len(tb.Lo) && tb.Lo[j] < t {
		return max(0, 1-below-tb.Mass[j]), max(0, 1-below)
	}
	return max(0, 1-below), max(0, 1-below)
}
