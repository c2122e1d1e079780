package estimate

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mathext"
)

// A Deadline is a sharp spike in the settle-time distribution at a fixed
// age, typically a timeout that makes failures land together.
type Deadline struct {
	// Age is the mean age of the final answers in the spike, in seconds.
	Age float64
	// Share is the estimated share of all items answered in the spike,
	// above the background around it (a Kaplan–Meier probability, so
	// censoring is accounted for).
	Share float64
	// Width is the width in seconds of the window the spike was measured
	// in, centred on Age.
	Width float64
}

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

// Deadlines finds sharp spikes in the distribution of final ages: ages
// where a narrow window (±RelWidth of the age) holds at least MinRatio
// times the mass that the denser of its two flanks predicts, at least
// MinShare of all items above that, and more final answers than a
// Poisson background allows (Alpha, over all candidate ages). It returns
// them by increasing age.
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
	cum, cumEv := prefixSums(m), prefixSums(ev)
	// mass returns the mass and the events at ages in [lo, hi].
	mass := func(lo, hi float64) (float64, float64) {
		i := sort.SearchFloat64s(t, lo)
		j := sort.Search(len(t), func(k int) bool { return t[k] > hi })
		return cum[j] - cum[i], cumEv[j] - cumEv[i]
	}
	alpha := opt.Alpha / float64(len(t)) // Bonferroni over the candidates
	tied := tieGrid(t, ev) > 0
	var found []Deadline
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
		fl := max(opt.FlankRel*c, 10*hw)
		core, coreEv := mass(c-hw, c+hw)
		if core < opt.MinShare {
			continue
		}
		// The background is the denser flank: a spike must stand out from
		// both sides, so the edge of a mode is not one.
		lo := max(0, c-hw-fl)
		eps := 1e-9 * c // flanks exclude the window's closed ends
		left, leftEv := mass(lo, c-hw-eps)
		right, rightEv := mass(c+hw+eps, c+hw+fl)
		lr, rr := 2*hw/max(c-hw-lo, 1e-300), 2*hw/fl
		expect, lambda := right*rr, (rightEv+1)*rr
		if c-hw-lo >= fl/2 && left*lr > expect { // a cut-off left flank is too short to judge
			expect, lambda = left*lr, (leftEv+1)*lr
		}
		if excess := core - expect; excess < opt.MinShare || core < opt.MinRatio*expect {
			continue
		}
		// As many answers in the window by chance? (Poisson, with the
		// flank's count plus one as the background.)
		if poissonTail(coreEv, lambda) < alpha {
			found = append(found, Deadline{Age: c, Share: core - expect, Width: 2 * hw})
		}
	}
	return mergeDeadlines(found, t, m)
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

// mergeDeadlines keeps, among overlapping candidate windows, the one with
// the largest share, and sets each kept deadline's age: the age of the
// largest jump in its window when that holds at least half the window's
// mass (a timeout at exactly 60 s reads 60), the mean age of the window's
// mass otherwise (jittered timeouts).
func mergeDeadlines(found []Deadline, t, m []float64) []Deadline {
	sort.SliceStable(found, func(i, j int) bool { return found[i].Share > found[j].Share })
	var kept []Deadline
	for _, d := range found {
		overlap := false
		for _, k := range kept {
			if math.Abs(d.Age-k.Age) < (d.Width+k.Width)/2 {
				overlap = true
				break
			}
		}
		if !overlap {
			kept = append(kept, d)
		}
	}
	for i, d := range kept {
		var sw, sm, big, bigAge float64
		for j, ti := range t {
			if math.Abs(ti-d.Age) <= d.Width/2 {
				sw += m[j] * ti
				sm += m[j]
				if m[j] > big {
					big, bigAge = m[j], ti
				}
			}
		}
		kept[i].Age = sw / sm
		if big >= sm/2 {
			kept[i].Age = bigAge
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].Age < kept[j].Age })
	return kept
}
