package estimate

import "math"

// Smoother prepares the Turnbull estimate for Density. Each Turnbull
// interval's mass is first spread uniformly in age over the interval
// (the data say only that the answers came somewhere in it; uniform is
// the assumption, and the kernel then smooths across the bounds, so a
// schedule can be fitted between the old asks), an exact age's mass
// kept at the age; the kernel is Density's, on the log-age axis, its
// bandwidth chosen by ISJ on the spread mass unless given. The mass
// beyond the last finite bound stays apart as Never. No deadlines are
// kept apart as atoms: intervals cannot show a spike narrower than
// themselves.
func (tb *Turnbull) Smoother(opt DensityOptions) *Smoother {
	if opt.GridSize <= 0 {
		opt.GridSize = 2048
	}
	sm := &Smoother{opt: opt, never: tb.Never()}
	_, m, ev := tb.jumps()
	sm.nEff = effectiveN(m, ev)
	for j, w := range tb.Mass {
		if !(w > 0) || math.IsInf(tb.Hi[j], 1) {
			continue
		}
		lo := max(tb.Lo[j], minDensityAge)
		hi := max(tb.Hi[j], lo)
		sm.pts = append(sm.pts, logPoint{math.Log(lo), math.Log(hi), w})
	}
	return sm
}

// Density is Smoother(opt).Density(opt.Bandwidth).
func (tb *Turnbull) Density(opt DensityOptions) *Dist {
	return tb.Smoother(opt).Density(opt.Bandwidth)
}
