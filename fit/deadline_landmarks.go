package fit

import (
	"math"
	"slices"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// DeadlineLandmarks are the ages that bracket each deadline, for the
// quantiser's boundaries (Options.Landmarks): the spike's start and end
// at two and three spreads from its age, rounded outwards to what the
// spread justifies (see landmarkUnit), so that a clause can end just
// before the spike and a burst of short intervals end just after it:
// "5s until 55s, 1s until 1m3s" for a timeout at 60 s ± 1.5 s. A spike
// narrower than its window counts as spread over the window.
func DeadlineLandmarks(ds []estimate.Deadline) []time.Duration {
	var out []time.Duration
	for _, d := range ds {
		sd := max(d.Spread, d.Width/6)
		if !(sd > 0) {
			continue
		}
		u := landmarkUnit(sd).Seconds()
		for _, k := range []float64{2, 3} {
			lo := math.Floor((d.Age-k*sd)/u+1e-9) * u
			hi := math.Ceil((d.Age+k*sd)/u-1e-9) * u
			if lo > 0 {
				out = append(out, nanos(lo))
			}
			out = append(out, nanos(hi))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// landmarkUnit is the coarsest of 10 ms, 100 ms, 1 s, 10 s and 1 min no
// wider than two spreads (10 ms at the least): whole seconds for a spike
// spread by half a second or more.
func landmarkUnit(spread float64) time.Duration {
	u := 10 * time.Millisecond
	for _, c := range []time.Duration{100 * time.Millisecond, time.Second, 10 * time.Second, time.Minute} {
		if c.Seconds() <= 2*spread {
			u = c
		}
	}
	return u
}

// spreadBursts are the bursts tried over a spread spike: asks every
// one, one and a half or two spreads (rounded to the landmark unit), from
// its age or a spread before it, until past two and a half spreads after
// it; none for an exact atom.
func spreadBursts(d estimate.Deadline) [][]time.Duration {
	sd := d.Spread
	if !(sd > 0) || 6*sd < d.Width {
		return nil
	}
	u := landmarkUnit(sd).Seconds()
	up := func(x float64) float64 { return math.Ceil(x/u-1e-9) * u }
	var out [][]time.Duration
	for _, step := range []float64{1, 1.5, 2} {
		st := max(u, math.Round(step*sd/u)*u)
		for _, from := range []float64{d.Age, d.Age - sd} {
			var burst []time.Duration
			for a := up(from); len(burst) < maxBurstAsks; a += st {
				burst = append(burst, nanos(a))
				if a >= d.Age+2.5*sd {
					break
				}
			}
			out = addCandidate(out, burst)
		}
	}
	return out
}

// maxBurstAsks is the most asks a burst over a spread spike makes.
const maxBurstAsks = 8

// tryLandmarks keeps in out the fit with the deadlines' landmarks (see
// withLandmarks) when it beats the plain fit, and makes it the plain fit
// that bursts must beat.
func (sh *shaper) tryLandmarks(ds []estimate.Deadline, out *Shape) {
	lr := sh.withLandmarks(ds)
	if lr == nil {
		return
	}
	if m, err := sh.replay(lr.Schedule); err == nil && sh.better(lr.Schedule, m) {
		out.Schedule, out.Shaped, out.Paid = lr.Schedule, m, true
		sh.res, sh.plain = &Result{Schedule: lr.Schedule, Horizon: sh.horizon}, m
	}
}

// withLandmarks fits the items again with the deadlines' landmarks among
// the boundaries, at the plain fit's horizon, and returns the fit with
// them kept in sh's options for the grafts after it; nil when the fit
// fails.
func (sh *shaper) withLandmarks(ds []estimate.Deadline) *Result {
	lm := DeadlineLandmarks(ds)
	if len(lm) == 0 {
		return nil
	}
	sh.opt.Landmarks = append(slices.Clone(sh.opt.Landmarks), lm...)
	o, _ := sh.budgetLess(0, 0)
	res, err := FitSample(sh.smp, o)
	if err != nil {
		return nil
	}
	return res
}

// optimumBursts are the bursts the exact optimum (asks, in seconds)
// suggests for a spike (one narrower than its window counts as spread
// over it): its asks over the spike, and all its asks up to the spike's
// end, each rounded up to the landmark unit over the spike and to whole
// seconds before it, alone, with one more ask at the next whole 10 s, or
// with the optimum's asks on to 1.5 or 2 times the spike's age (see
// optimumTail).
func optimumBursts(asks []float64, d estimate.Deadline) [][]time.Duration {
	sd := max(d.Spread, d.Width/6)
	if !(sd > 0) || len(asks) == 0 {
		return nil
	}
	u := landmarkUnit(sd).Seconds()
	var over, upTo []time.Duration
	for _, a := range asks {
		switch {
		case a > d.Hi():
		case a >= d.Lo():
			x := nanos(math.Ceil(a/u-1e-9) * u)
			over, upTo = append(over, x), append(upTo, x)
		default:
			upTo = append(upTo, nanos(math.Ceil(a-1e-9)))
		}
	}
	cands := [][]time.Duration{over, upTo}
	if len(upTo) > 0 { // handing over at the next whole 10 s
		last := upTo[len(upTo)-1]
		cands = append(cands, append(slices.Clone(upTo), (last/(10*time.Second)+1)*10*time.Second))
	}
	for _, f := range []float64{1.5, 2} {
		cands = append(cands, slices.Concat(upTo, optimumTail(asks, d.Hi(), f*d.Age)))
	}
	var out [][]time.Duration
	for _, b := range cands {
		if b = slices.Compact(b); len(b) > 0 && len(b) <= 4*maxBurstAsks {
			out = addCandidate(out, b)
		}
	}
	return out
}

// optimumTail is the optimum's asks in (from, to], rounded up to whole
// 10 s, so that a prefix through them hands over to clauses of nice
// intervals on a nice grid.
func optimumTail(asks []float64, from, to float64) []time.Duration {
	var out []time.Duration
	for _, a := range asks {
		if a > from && a <= to {
			out = append(out, nanos(10*math.Ceil(a/10-1e-9)))
		}
	}
	return out
}
