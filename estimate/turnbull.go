package estimate

import (
	"fmt"
	"math"
	"sort"
)

// TurnbullOptions tune the NPMLE's EM. The zero value is the default.
type TurnbullOptions struct {
	// Tol is the tolerance on the Kuhn–Tucker conditions at which the EM
	// stops: max_j d_j/W ≤ 1 + Tol, where d_j is the derivative of the
	// log-likelihood in the mass of Turnbull interval j and W the total
	// weight. By concavity the log-likelihood is then within W·Tol of its
	// maximum. Default 1e-10. S is then exact to about Tol where each
	// interval's derivative at the maximum is either W with a positive
	// mass or below W; where one with no mass has a derivative of exactly
	// W (a tie, as in symmetric data), the EM nears it sublinearly and S
	// is within about √Tol.
	Tol float64
	// MaxIter is a safety cap on the EM steps, not a stopping rule: the
	// EM stops by Tol, and a result that reached the cap says so
	// (Turnbull.Converged false, a warning). Default 1e6.
	MaxIter int
}

// Turnbull is the nonparametric maximum-likelihood estimate (NPMLE) of
// the survival function from interval-censored ages, Turnbull's
// self-consistent estimate.
//
// The embedded Survival makes it usable wherever a Kaplan–Meier estimate
// is. The likelihood fixes S only outside the Turnbull intervals: inside
// one, (Lo[j], Hi[j]], how its mass spreads is unknown. The Survival
// puts each interval's mass at its midpoint, as R's survfit does for
// interval-censored data (a point interval's at the point), so At,
// Quantile and Jumps agree with R; S is exact at every age outside the
// intervals. Its AtRisk, Events and Censored are the expected counts of
// the last E-step, with the censored weight that of the right-censored
// items (hi = +Inf) at their lo, and Band and StdErr are Greenwood's on
// those counts, as R reports them: they ignore the uncertainty within
// the intervals and understate it.
type Turnbull struct {
	*Survival
	// Lo, Hi and Mass are the Turnbull (innermost) intervals in
	// increasing order and the estimated probability of each: (Lo, Hi],
	// or the single age Lo when Lo == Hi. Hi is +Inf for the mass beyond
	// the last finite bound, which Never reports.
	Lo, Hi, Mass []float64
	// Iter is the number of EM steps taken; KKT is max_j d_j/W − 1 at
	// the end; Converged reports whether KKT ≤ Tol.
	Iter      int
	KKT       float64
	Converged bool
	// Warnings say what the caller should pass on, such as a cap hit.
	Warnings []string
}

// endpoint kinds, in the order they sort at one age: an exact age's left
// end (just below it), a right end (closed), a left end (open).
const (
	kindExact = iota
	kindRight
	kindLeft
)

type endpoint struct {
	v    float64
	kind int
}

func endpointLess(a, b endpoint) bool {
	if a.v != b.v {
		return a.v < b.v
	}
	return a.kind < b.kind
}

// NewTurnbull returns the NPMLE of S(t) = P(age at the final answer > t)
// from items whose age is known to lie in (lo[i], hi[i]] seconds: lo ==
// hi for an exact age, hi = +Inf for an item still pending at age lo
// (right-censored), lo = 0 for one final at or before hi. Weights w may
// be nil (1 each). It fails on slices of different lengths, on an item
// with a bound that is negative or NaN, lo > hi or lo infinite, or a
// weight that is not positive and finite, naming the item, and when no
// item is given.
func NewTurnbull(lo, hi, w []float64, opt TurnbullOptions) (*Turnbull, error) {
	if err := checkIntervals(lo, hi, w); err != nil {
		return nil, err
	}
	if opt.Tol <= 0 {
		opt.Tol = 1e-10
	}
	if opt.MaxIter <= 0 {
		opt.MaxIter = 1e6
	}
	tb := &Turnbull{}
	tb.Lo, tb.Hi = innermost(lo, hi)
	groups := coverGroups(lo, hi, w, tb.Lo, tb.Hi)
	tb.Mass, tb.Iter, tb.KKT = turnbullEM(groups, len(tb.Lo), opt)
	tb.Converged = tb.KKT <= opt.Tol
	if !tb.Converged {
		tb.Warnings = append(tb.Warnings, fmt.Sprintf(
			"turnbull: the EM reached its cap of %d steps with the Kuhn–Tucker gap at %.3g, above the tolerance %.3g: the estimate is not converged",
			opt.MaxIter, tb.KKT, opt.Tol))
	}
	tb.Survival = tb.survival(lo, hi, w, groups)
	return tb, nil
}

// checkIntervals validates NewTurnbull's input.
func checkIntervals(lo, hi, w []float64) error {
	if len(hi) != len(lo) || (w != nil && len(w) != len(lo)) {
		return fmt.Errorf("turnbull: %d lower bounds, %d upper bounds and %d weights: want one of each an item", len(lo), len(hi), len(w))
	}
	if len(lo) == 0 {
		return fmt.Errorf("turnbull: no items")
	}
	for i := range lo {
		l, h := lo[i], hi[i]
		switch {
		case !(l >= 0) || math.IsInf(l, 1):
			return fmt.Errorf("turnbull: item %d: lower bound %v: want a finite age >= 0", i, l)
		case !(h >= l):
			return fmt.Errorf("turnbull: item %d: upper bound %v below lower bound %v (want lo <= hi, hi = +Inf for pending)", i, h, l)
		}
		if w != nil && !(w[i] > 0 && !math.IsInf(w[i], 1)) {
			return fmt.Errorf("turnbull: item %d: weight %v: want a positive finite weight", i, w[i])
		}
	}
	return nil
}

// innermost returns the Turnbull intervals: the left ends immediately
// followed by a right end once all ends are sorted, an exact age's left
// end standing just below it.
func innermost(lo, hi []float64) (ilo, ihi []float64) {
	ends := make([]endpoint, 0, 2*len(lo))
	for i := range lo {
		if lo[i] == hi[i] {
			ends = append(ends, endpoint{lo[i], kindExact}, endpoint{lo[i], kindRight})
		} else {
			ends = append(ends, endpoint{lo[i], kindLeft}, endpoint{hi[i], kindRight})
		}
	}
	sort.Slice(ends, func(a, b int) bool { return endpointLess(ends[a], ends[b]) })
	for k := 0; k+1 < len(ends); k++ {
		if ends[k].kind != kindRight && ends[k+1].kind == kindRight {
			ilo, ihi = append(ilo, ends[k].v), append(ihi, ends[k+1].v)
		}
	}
	return ilo, ihi
}

// cover is a set of items that hold the same run of Turnbull intervals,
// first to last, with their total weight.
type cover struct {
	first, last int
	w           float64
	pending     bool // right-censored: hi = +Inf
}

// coverGroups finds for each item the run of Turnbull intervals it
// holds, merging items with the same run.
func coverGroups(lo, hi, w, ilo, ihi []float64) []cover {
	// An interval's left key is (Lo, exact) for a point, (Lo, left)
	// otherwise; its right key (Hi, right). An item holds the intervals
	// whose left key is at or above its own and right key at or below.
	left := func(j int) endpoint {
		if ilo[j] == ihi[j] {
			return endpoint{ilo[j], kindExact}
		}
		return endpoint{ilo[j], kindLeft}
	}
	byRun := map[cover]int{}
	var groups []cover
	for i := range lo {
		key := endpoint{lo[i], kindLeft}
		if lo[i] == hi[i] {
			key.kind = kindExact
		}
		first := sort.Search(len(ilo), func(j int) bool { return !endpointLess(left(j), key) })
		r := endpoint{hi[i], kindRight}
		last := sort.Search(len(ihi), func(j int) bool { return endpointLess(r, endpoint{ihi[j], kindRight}) }) - 1
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		run := cover{first: first, last: last, pending: math.IsInf(hi[i], 1)}
		if g, ok := byRun[run]; ok {
			groups[g].w += wi
			continue
		}
		byRun[run] = len(groups)
		run.w = wi
		groups = append(groups, run)
	}
	return groups
}
