package estimate

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/pollfit/pollfit/internal/radix"
)

// Survival is a Kaplan–Meier estimate of the survival function
// S(t) = P(age at the final answer > t), with right-censoring.
//
// The slices are indexed by the distinct observed ages in increasing
// order, final or censored, as in R's survfit: Time[i] is the age,
// AtRisk[i] the weight still unanswered just before it, Events[i] the
// weight answered at it, Censored[i] the weight censored at it, and
// Surv[i] the estimate of S just after it. S is right-continuous: it
// drops at each age with events and is flat in between.
type Survival struct {
	Time, Surv               []float64
	AtRisk, Events, Censored []float64

	// Resolution is the granularity of the final ages in seconds: 60 when
	// they are all whole minutes, 1 when all whole seconds, or, when ages
	// are heavily tied (two or more final answers an age on average, as
	// when items are checked only every few seconds), the median gap
	// between distinct final ages if larger; 0 otherwise. Rounded ages
	// put the estimate's mass on a grid; Density spreads it back over
	// each rounding interval and Deadlines ignores the grid.
	Resolution float64

	// greenwood[i] is Σ d/(n(n−d)) over event ages ≤ Time[i].
	greenwood []float64
}

// KaplanMeier returns the Kaplan–Meier estimate of the survival function
// from ages t (seconds, ≥ 0), whether each is a final answer (otherwise
// it is a censoring age: the item was still pending then) and weights w
// (nil means 1 each). Entries with a NaN, negative or infinite age or a
// weight that is not positive and finite are ignored. At tied ages, final answers come before
// censorings, the usual convention. KaplanMeier panics if the lengths of
// t, final and a non-nil w differ.
func KaplanMeier(t []float64, final []bool, w []float64) *Survival {
	if len(final) != len(t) || (w != nil && len(w) != len(t)) {
		panic("estimate: KaplanMeier: slice lengths differ")
	}
	idx := make([]int, 0, len(t))
	total := 0.0
	for i, ti := range t {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		if ti >= 0 && wi > 0 && !math.IsInf(ti, 1) && !math.IsInf(wi, 1) {
			idx = append(idx, i)
			total += wi
		}
	}
	sortByAge(idx, t)

	s := newSurvival(distinctAges(idx, t))
	integral, minute := true, true
	atRisk, surv, gw := total, 1.0, 0.0
	for k := 0; k < len(idx); {
		ti := t[idx[k]]
		var d, c float64
		for ; k < len(idx) && t[idx[k]] == ti; k++ {
			wi := 1.0
			if w != nil {
				wi = w[idx[k]]
			}
			if final[idx[k]] {
				d += wi
			} else {
				c += wi
			}
		}
		if d > 0 {
			integral = integral && ti == math.Trunc(ti)
			minute = minute && math.Mod(ti, 60) == 0
			surv *= 1 - d/atRisk
			if atRisk > d {
				gw += d / (atRisk * (atRisk - d))
			} else {
				surv, gw = 0, math.Inf(1)
			}
		}
		s.Time = append(s.Time, ti)
		s.Surv = append(s.Surv, surv)
		s.AtRisk = append(s.AtRisk, atRisk)
		s.Events = append(s.Events, d)
		s.Censored = append(s.Censored, c)
		s.greenwood = append(s.greenwood, gw)
		atRisk -= d + c
	}
	et, _, ev := s.jumps()
	switch {
	case len(et) > 0 && minute:
		s.Resolution = 60
	case len(et) > 0 && integral:
		s.Resolution = 1
	}
	s.Resolution = max(s.Resolution, tieGrid(et, ev))
	return s
}

// tieGrid infers the grid that heavily tied ages lie on, as when items
// are only checked every few seconds: when the distinct final ages t hold
// two or more final answers d each on average, it returns the median gap
// between consecutive ones; otherwise 0.
func tieGrid(t, d []float64) float64 {
	if len(t) < 3 {
		return 0
	}
	sum := 0.0
	for _, v := range d {
		sum += v
	}
	if sum < 2*float64(len(t)) {
		return 0
	}
	gaps := make([]float64, len(t)-1)
	for i := range gaps {
		gaps[i] = t[i+1] - t[i]
	}
	return median(gaps)
}

// index returns the index of the last observed age ≤ t, or −1.
func (s *Survival) index(t float64) int {
	return sort.Search(len(s.Time), func(i int) bool { return s.Time[i] > t }) - 1
}

// At returns the estimate of S(t), the probability that an item has not
// had its final answer by age t. Beyond the last observed age it stays at
// the last value: the data say nothing more.
func (s *Survival) At(t float64) float64 {
	if i := s.index(t); i >= 0 {
		return s.Surv[i]
	}
	return 1
}

// End returns the largest observed age, final or censored (0 if none).
func (s *Survival) End() float64 {
	if len(s.Time) == 0 {
		return 0
	}
	return s.Time[len(s.Time)-1]
}

// Never returns S at the end of the data: the estimated share of items
// with no final answer within the observed ages.
func (s *Survival) Never() float64 {
	if len(s.Surv) == 0 {
		return 1
	}
	return s.Surv[len(s.Surv)-1]
}

// Jumps returns the ages at which S drops and the probability mass of
// each drop, S(t−) − S(t). The masses sum to 1 − Never().
func (s *Survival) Jumps() (t, mass []float64) {
	t, mass, _ = s.jumps()
	return t, mass
}

// jumps is Jumps with the (weighted) number of events at each age too.
func (s *Survival) jumps() (t, mass, events []float64) {
	n := 0
	for _, d := range s.Events {
		if d > 0 {
			n++
		}
	}
	t, mass, events = make([]float64, 0, n), make([]float64, 0, n), make([]float64, 0, n)
	prev := 1.0
	for i, d := range s.Events {
		if d > 0 {
			t = append(t, s.Time[i])
			mass = append(mass, prev-s.Surv[i])
			events = append(events, d)
		}
		prev = s.Surv[i]
	}
	return t, mass, events
}

// radixAges is the fewest indices radixByAge sorts.
const radixAges = 1 << 12

// radixByAge sorts idx, which must increase, by t[i] with a stable radix
// sort, the order sortByAge's comparison sort gives (a stable sort of
// increasing indices leaves ties in index order); false, leaving idx as
// it is, for an age the bits do not order (−0).
func radixByAge(idx []int, t []float64) bool {
	keys := make([]uint64, len(idx))
	for k, i := range idx {
		var ok bool
		if keys[k], ok = radix.FloatKey(t[i]); !ok || (k > 0 && i <= idx[k-1]) {
			return false
		}
	}
	radix.Sort(keys, idx)
	return true
}

// distinctAges is the number of distinct ages t[i] of idx, sorted by age.
func distinctAges(idx []int, t []float64) int {
	n := 0
	for k := range idx {
		if k == 0 || t[idx[k]] != t[idx[k-1]] {
			n++
		}
	}
	return n
}

// newSurvival is a Survival with room for n ages (none: nil slices).
func newSurvival(n int) *Survival {
	if n == 0 {
		return &Survival{}
	}
	return &Survival{Time: make([]float64, 0, n), Surv: make([]float64, 0, n), AtRisk: make([]float64, 0, n),
		Events: make([]float64, 0, n), Censored: make([]float64, 0, n), greenwood: make([]float64, 0, n)}
}

// effectiveN is Kish's effective sample size of the Kaplan–Meier masses
// spread evenly over the events at each age, (Σm)²/Σ(m²/d): the number of
// final answers when nothing is censored, fewer when censoring makes
// later answers weigh more.
func effectiveN(mass, events []float64) float64 {
	var sm, sq float64
	for i, m := range mass {
		sm += m
		if events[i] > 0 {
			sq += m * m / events[i]
		}
	}
	if sq == 0 {
		return 0
	}
	return sm * sm / sq
}

// sortByAge sorts the indices idx, increasing, by t[i], ties in index
// order (as a stable sort of idx leaves them): the order KaplanMeier
// sums tied weights in. Long lists of indices that increase, as
// KaplanMeier's do, are radix-sorted by age (radixByAge).
func sortByAge(idx []int, t []float64) {
	if len(idx) >= radixAges && radixByAge(idx, t) {
		return
	}
	type at struct {
		t float64
		i int
	}
	pairs := make([]at, len(idx))
	for k, i := range idx {
		pairs[k] = at{t[i], i}
	}
	slices.SortFunc(pairs, func(a, b at) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	for k, p := range pairs {
		idx[k] = p.i
	}
}
