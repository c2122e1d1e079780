package fit

import (
	"slices"
	"time"
)

// Prefix clauses. The quantiser's clauses of constant interval start at
// the first ask; the optimum often wants an irregular start instead (ask
// at once, again at 3 s for the answers that come at once, then settle
// into a rhythm), which the language writes as a leading "at" clause:
// "at 0s 3s 10s, 5s until 1m, ...". A prefix is one such clause: the
// first ask, up to maxPrefixAsks nice ages, and a boundary where the
// clauses of constant interval take over. It counts as one of the K
// clauses and enters the programme as one more edge from the first ask.

// maxPrefixAsks is the most asks a prefix adds between the first ask and
// its boundary; maxPrefixAges is how many of the earliest nice ages they
// are chosen from.
const (
	maxPrefixAsks = 2
	maxPrefixAges = 12
)

// addPrefixes adds the prefix edges over the nice ages vals.
func (sg *clauseSet) addPrefixes(w *walker, vals []time.Duration) {
	ages := sg.prefixAges(w, vals)
	index := map[time.Duration]int{}
	for k, b := range sg.b {
		index[b] = k
	}
	end := len(sg.b) - 1
	for _, b := range ages {
		to, ok := index[b]
		if !ok || (to == end && !(b == w.horizon && !sg.forever)) {
			continue
		}
		var inner []time.Duration
		for _, a := range ages {
			if a < b {
				inner = append(inner, a)
			}
		}
		subsets(inner, maxPrefixAsks, func(sub []time.Duration) {
			at := append(slices.Clone(sub), b)
			sg.addPrefix(w, at, to)
		})
	}
}

// prefixAges are the ages a prefix may ask at, from the nice ages vals.
func (sg *clauseSet) prefixAges(w *walker, vals []time.Duration) []time.Duration {
	// The ages where the early answers come: from where 0.1% of them
	// have come to where 80% have, thinned evenly to maxPrefixAges.
	first := sg.b[0]
	top := w.at(w.horizon).f
	var ages []time.Duration
	for _, v := range vals {
		if f := w.at(v).f; v > first && v <= w.horizon && f >= 0.001*top && f <= 0.8*top {
			ages = append(ages, v)
		}
	}
	slices.Sort(ages)
	ages = slices.Compact(ages)
	if n := len(ages); n > maxPrefixAges {
		thin := make([]time.Duration, maxPrefixAges)
		for k := range thin {
			thin[k] = ages[k*(n-1)/(maxPrefixAges-1)]
		}
		ages = thin
	}
	return ages
}

// subsets calls f with every increasing subset of xs of at most k
// elements, the empty one included.
func subsets(xs []time.Duration, k int, f func([]time.Duration)) {
	var rec func(start int, cur []time.Duration)
	rec = func(start int, cur []time.Duration) {
		f(cur)
		if len(cur) == k {
			return
		}
		for i := start; i < len(xs); i++ {
			rec(i+1, append(cur, xs[i]))
		}
	}
	rec(0, nil)
}

// addPrefix adds the edge that asks at the ages at after the first ask
// and ends on boundary to, unless it breaks the interval limits or
// spends more than the budget alone.
func (sg *clauseSet) addPrefix(w *walker, at []time.Duration, to int) {
	var acc sums
	var count, asks float64
	p := w.at(sg.b[0])
	prev := sg.b[0]
	for _, a := range at {
		if gap := a - prev; gap < w.minGap || (w.maxGap > 0 && gap > w.maxGap) {
			return
		}
		v := w.at(a)
		count += w.ask(&acc, p, v)
		asks++
		p, prev = v, a
	}
	if w.overspent(acc, count) {
		return
	}
	acc.detected = p.f
	sg.edges = append(sg.edges, segEdge{from: 0, to: to, s: acc, count: count, asks: asks, last: at[len(at)-1], at: at})
}
