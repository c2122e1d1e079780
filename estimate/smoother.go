package estimate

import "math"

// A Smoother is a Kaplan–Meier estimate made ready for Density at any
// bandwidth: it finds the deadlines kept apart and lays the jumps on the
// log-age axis once, which is most of Density's work when the bandwidth
// is given. Cross-validating a bandwidth smooths one estimate at several.
// Density(s, opt) is NewSmoother(s, opt).Density(opt.Bandwidth). A
// Smoother is not changed by its methods: they may run on several
// goroutines at once.
type Smoother struct {
	opt   DensityOptions
	never float64
	nEff  float64
	atoms []Deadline // the deadlines kept apart, nil with SmoothDeadlines
	pts   []logPoint
}

// NewSmoother prepares s for Density with the options opt but its
// Bandwidth, which each call of Smoother.Density gives.
func NewSmoother(s *Survival, opt DensityOptions) *Smoother {
	if opt.GridSize <= 0 {
		opt.GridSize = 2048
	}
	sm := &Smoother{opt: opt, never: s.Never()}
	t, m, ev := s.jumps()
	sm.nEff = effectiveN(m, ev)
	if !opt.SmoothDeadlines {
		sm.atoms = Deadlines(s, opt.Deadline)
		m = removeAtoms(t, m, sm.atoms)
	}
	sm.pts = densityPoints(t, m, ev, s.Resolution)
	return sm
}

// Deadlines are the spikes the density keeps apart as atoms, as
// Deadlines(s, opt.Deadline) finds them (none with SmoothDeadlines).
func (sm *Smoother) Deadlines() []Deadline { return append([]Deadline(nil), sm.atoms...) }

// Density is the density at the kernel's bandwidth on the log-age axis
// (see DensityOptions.Bandwidth; 0 chooses it from the data).
func (sm *Smoother) Density(bandwidth float64) *Dist {
	d := &Dist{never: sm.never, atoms: sm.Deadlines()}
	pts := sm.pts
	if len(pts) == 0 {
		return d
	}
	d.mass = 0
	for _, p := range pts {
		d.mass += p.w
	}
	h, method, warn := chooseBandwidth(pts, sm.nEff, bandwidth)
	d.bandwidth, d.method = h, method
	if warn != "" {
		d.Warnings = append(d.Warnings, warn)
	}
	xlo, xhi := pointsRange(pts)
	n := max(sm.opt.GridSize, int(math.Ceil((xhi-xlo+10*h)/(h/4)))+1)
	n = min(n, 1<<16)
	d.x0 = xlo - 5*h
	d.dx = (xhi + 5*h - d.x0) / float64(n-1)
	d.fx = smoothOnGrid(binPoints(pts, d.x0, d.dx, n), h/d.dx)
	d.finish()
	return d
}
