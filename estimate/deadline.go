package estimate

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mathext"
)

// A Deadline is a spike in the settle-time distribution at a fixed age,
// typically a timeout that makes failures land together: an exact atom,
// or spread by client timers, queues and retries up to a few per cent of
// its age.
type Deadline struct {
	// Age is the age of the spike in seconds: the age of the largest jump
	// when that holds most of it (a timeout at exactly 60 s reads 60),
	// else the mean age of its answers above the background.
	Age float64
	// Spread is the standard deviation in seconds of the spike's ages
	// (above the background): about 0 for an exact atom.
	Spread float64
	// Share is the estimated share of all items answered in the spike,
	// above the background around it (a Kaplan–Meier probability, so
	// censoring is accounted for).
	Share float64
	// Width is the width in seconds of the window centred on Age that
	// holds the spike: the detection window of a spike narrower than it
	// can tell, else Age ± 3 Spread (99.7% of a normal spike).
	Width float64
}

// Lo is the start of the spike's window, Age − Width/2.
func (d Deadline) Lo() float64 { return d.Age - d.Width/2 }

// Hi is the end of the spike's window, Age + Width/2.
func (d Deadline) Hi() float64 { return d.Age + d.Width/2 }

// DeadlineOptions tunes Deadlines. The zero value gives the defaults.
type DeadlineOptions struct {
	// MinShare is the smallest share of items a spike must hold above its
	// background to count. Default 0.01.
	MinShare float64
	// RelWidth is the half-width of the spike window relative to its age.
	// Default 0.01: a spike at 60 s is measured over 59.4–60.6 s. On ages
	// rounded to whole seconds or minutes the window is at least one
	// rounding step wide.
	RelWidth float64
	// MaxRelSpread is the largest spread (standard deviation) a spike may
	// have, relative to its age. Default 0.055: a timeout spread by ±3 s
	// at 60 s is one, a narrow mode of lognormal σ 0.06 is not.
	MaxRelSpread float64
	// MaxRelWidth is the widest the window may be, relative to the age,
	// once widened to the rounding of the ages: at 7 s, ages in whole
	// seconds cannot tell a timeout from a mode narrower than a second.
	// Default 0.05, so deadlines on whole-second ages are sought from
	// 10 s on.
	MaxRelWidth float64
	// FlankRel is the width of the flanks on each side of the window,
	// relative to the age, over which the background is measured.
	// Default 0.2, and at least ten half-widths.
	FlankRel float64
	// MinRatio is how many times more mass than the background predicts
	// the window must hold. Default 5: a broad mode, however tall, spreads
	// its mass into the flanks and stays well below this.
	MinRatio float64
	// Alpha bounds the chance that the window's count of final answers is
	// a fluke of the background (Poisson), over all candidate ages
	// together. Default 0.001: three answers at one age in a log of 150
	// are not a deadline.
	Alpha float64
}

func (o DeadlineOptions) withDefaults() DeadlineOptions {
	if o.MinShare <= 0 {
		o.MinShare = 0.01
	}
	if o.RelWidth <= 0 {
		o.RelWidth = 0.01
	}
	if o.MaxRelWidth <= 0 {
		o.MaxRelWidth = 0.05
	}
	if o.MaxRelSpread <= 0 {
		o.MaxRelSpread = 0.055
	}
	if o.FlankRel <= 0 {
		o.FlankRel = 0.2
	}
	if o.MinRatio <= 0 {
		o.MinRatio = 5
	}
	if o.Alpha <= 0 {
		o.Alpha = 1e-3
	}
	return o
}

// Deadlines finds spikes in the distribution of final ages: ages where a
// window holds at least MinRatio times the mass that the denser of its
// two flanks predicts, at least MinShare of all items above that, and
// more final answers than a Poisson background allows (Alpha, over all
// candidate ages, and half as much again for the wider windows). Exact
// atoms are sought in a narrow window (±RelWidth of the age) with flanks
// next to it, spread spikes in windows of ±2.5% and ±5% of the age with
// flanks one half-width away. Each spike found is then measured: its
// mean age, spread and share above a background interpolated between
// flanks beyond ±3 spreads, the window's cut of a normal spike's tails
// corrected for; one spread wider than MaxRelSpread of its age is a
// mode, not a deadline. It returns them by increasing age.
//
// A deadline must be narrow relative to its age, so a broad mode is not
// one, and stand out from both sides, so the steep edge of a mode is not
// one either. The window is never narrower than the rounding of the ages
// (Survival.Resolution), so ages rounded to whole seconds do not make
// every second a spike, nor than the gaps to the neighbouring ages when
// those are heavily tied (histogram bins, items checked every few
// seconds); no deadline is sought where that makes it wider than
// MaxRelWidth of the age.
func Deadlines(s *Survival, opt DeadlineOptions) []Deadline {
	opt = opt.withDefaults()
	t, m, ev := s.jumps()
	if len(t) == 0 {
		return nil
	}
	j := newJumps(t, m, ev)
	alpha := opt.Alpha / float64(len(t)) // Bonferroni over the candidates
	tied := tieGrid(t, ev) > 0
	var found []candidate
	// The windows' ends grow with c (unless tied widths shrink them), so
	// each attempt's are found walking on from the last (spikeBounds).
	var first spikeBounds
	var wide [2]spikeBounds
	for i, c := range t {
		if c <= 0 {
			continue
		}
		hw := max(opt.RelWidth*c, s.Resolution/2)
		if tied { // the ages are a grid: as wide as the gaps around c
			if i > 0 {
				hw = max(hw, (c-t[i-1])/2)
			}
			if i+1 < len(t) {
				hw = max(hw, (t[i+1]-c)/2)
			}
		}
		if hw > opt.MaxRelWidth*c { // rounding hides whether it is narrow
			continue
		}
		if d, ok := j.spike(c, hw, 0, opt, alpha, &first); ok {
			found = append(found, candidate{d, hw})
			continue
		}
		for k, rel := range []float64{0.025, 0.05} {
			if w := rel * c; w > hw {
				if d, ok := j.spike(c, w, w, opt, alpha/2, &wide[k]); ok {
					found = append(found, candidate{d, hw})
					break
				}
			}
		}
	}
	return j.measure(mergeDeadlines(found), opt)
}

// jumps are the Kaplan–Meier jumps of a survival curve with their prefix
// sums, for the masses and events in windows of ages.
type jumps struct {
	t, m, ev    []float64
	cum, cumEv  []float64
	cumT, cumT2 []float64 // prefix sums of m·t and m·t²
}

func newJumps(t, m, ev []float64) *jumps {
	j := &jumps{t: t, m: m, ev: ev, cum: prefixSums(m), cumEv: prefixSums(ev)}
	mt, mt2 := make([]float64, len(t)), make([]float64, len(t))
	for i, ti := range t {
		mt[i], mt2[i] = m[i]*ti, m[i]*ti*ti
	}
	j.cumT, j.cumT2 = prefixSums(mt), prefixSums(mt2)
	return j
}

// span returns the indices [i, k) of the jumps at ages in [lo, hi].
func (j *jumps) span(lo, hi float64) (int, int) {
	var a, b bound
	return j.spanFrom(lo, hi, &a, &b)
}

// spanFrom is span, its window's ends found by a and b. The first age
// above hi is the first at or above the next float (the ages are
// finite).
func (j *jumps) spanFrom(lo, hi float64, a, b *bound) (int, int) {
	i := a.at(j.t, lo)
	return i, max(i, b.at(j.t, math.Nextafter(hi, math.Inf(1))))
}

// mass returns the mass and the events at ages in [lo, hi].
func (j *jumps) mass(lo, hi float64) (float64, float64) {
	var a, b bound
	return j.massFrom(lo, hi, &a, &b)
}

// massFrom is mass, its window's ends found by a and b.
func (j *jumps) massFrom(lo, hi float64, a, b *bound) (float64, float64) {
	i, k := j.spanFrom(lo, hi, a, b)
	return j.cum[k] - j.cum[i], j.cumEv[k] - j.cumEv[i]
}

// bound finds the least index i of the sorted ages t with t[i] ≥ x
// (len(t) for none), for x from a sequence that mostly grows: walking on
// from its last answer while x does not fall, bisecting when it does.
// A sequence that grows costs O(len(t)) in all, not a bisection each.
type bound struct {
	x    float64
	i    int
	used bool
}

func (b *bound) at(t []float64, x float64) int {
	if !b.used || x < b.x {
		b.i, _ = slices.BinarySearch(t, x)
	} else {
		for b.i < len(t) && t[b.i] < x {
			b.i++
		}
	}
	b.x, b.used = x, true
	return b.i
}

// spikeBounds are the ends of one kind of spike's windows: the core and
// the two flanks.
type spikeBounds struct{ core, left, right [2]bound }

// spike tests the window c ± hw against flanks gap beyond its ends and
// returns the deadline it makes, if any; sb finds the windows' ends.
func (j *jumps) spike(c, hw, gap float64, opt DeadlineOptions, alpha float64, sb *spikeBounds) (Deadline, bool) {
	fl := max(opt.FlankRel*c, 10*hw)
	core, coreEv := j.massFrom(c-hw, c+hw, &sb.core[0], &sb.core[1])
	if core < opt.MinShare {
		return Deadline{}, false
	}
	// The background is the denser flank: a spike must stand out from
	// both sides, so the edge of a mode is not one.
	lo := max(0, c-hw-gap-fl)
	eps := 1e-9 * c // flanks exclude the window's closed ends
	left, leftEv := j.massFrom(lo, c-hw-gap-eps, &sb.left[0], &sb.left[1])
	right, rightEv := j.massFrom(c+hw+gap+eps, c+hw+gap+fl, &sb.right[0], &sb.right[1])
	lr, rr := 2*hw/max(c-hw-gap-lo, 1e-300), 2*hw/fl
	expect, lambda := right*rr, (rightEv+1)*rr
	if c-hw-gap-lo >= fl/2 && left*lr > expect { // a cut-off left flank is too short to judge
		expect, lambda = left*lr, (leftEv+1)*lr
	}
	if excess := core - expect; excess < opt.MinShare || core < opt.MinRatio*expect {
		return Deadline{}, false
	}
	// As many answers in the window by chance? (Poisson, with the
	// flank's count plus one as the background.)
	if poissonTail(coreEv, lambda) >= alpha {
		return Deadline{}, false
	}
	return Deadline{Age: c, Share: core - expect, Width: 2 * hw}, true
}

// poissonTail returns P(X ≥ k) for X Poisson with mean lambda, the
// regularised lower incomplete gamma function P(k, λ) (continuous in k,
// for weighted counts); 1 when the arguments are out of its domain.
func poissonTail(k, lambda float64) float64 {
	if !(k > 0 && lambda > 0) || math.IsInf(k, 0) || math.IsInf(lambda, 0) {
		return 1
	}
	return mathext.GammaIncReg(k, lambda)
}

func prefixSums(x []float64) []float64 {
	c := make([]float64, len(x)+1)
	for i, v := range x {
		c[i+1] = c[i] + v
	}
	return c
}
