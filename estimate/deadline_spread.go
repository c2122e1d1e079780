package estimate

import (
	"math"
	"sort"
)

// A candidate is a window that Deadlines found a spike in, with the
// half-width of the narrow window at its age (the rounding of the ages
// or the gaps between them, or RelWidth of the age).
type candidate struct {
	d      Deadline
	narrow float64
}

// mergeDeadlines keeps, among overlapping candidate windows, the one with
// the largest share.
func mergeDeadlines(found []candidate) []candidate {
	sort.SliceStable(found, func(i, j int) bool { return found[i].d.Share > found[j].d.Share })
	var kept []candidate
	for _, c := range found {
		overlap := false
		for _, k := range kept {
			if math.Abs(c.d.Age-k.d.Age) < (c.d.Width+k.d.Width)/2 {
				overlap = true
				break
			}
		}
		if !overlap {
			kept = append(kept, c)
		}
	}
	return kept
}

// measure measures each spike found (see moments) and returns the
// deadlines by increasing age, leaving out those spread wider than
// MaxRelSpread of their age and, among those that then overlap, all but
// the largest. A spike whose ±3σ fits in its narrow window is measured
// there as an exact atom: its share is the window's mass above the denser
// flank's, its age that of the largest jump in the window when that holds
// at least half the window's mass (a timeout at exactly 60 s reads 60),
// the mean age of the window's mass otherwise (jittered timeouts).
func (j *jumps) measure(found []candidate, opt DeadlineOptions) []Deadline {
	var out []candidate
	for _, c := range found {
		mu, sd, share, ok := j.moments(c.d.Age, c.d.Width/4, c.narrow)
		switch {
		case !ok || sd > opt.MaxRelSpread*mu:
			continue
		case 3*sd <= c.narrow:
			c.d = j.atom(mu, c.narrow, opt)
			c.d.Spread = sd
		default:
			c.d = Deadline{Age: mu, Spread: sd, Share: share, Width: 6 * sd}
		}
		if c.d.Share >= opt.MinShare {
			out = append(out, c)
		}
	}
	out = mergeDeadlines(out)
	ds := make([]Deadline, len(out))
	for i, c := range out {
		ds[i] = c.d
	}
	sort.Slice(ds, func(a, b int) bool { return ds[a].Age < ds[b].Age })
	return ds
}

// atom measures an exact atom in the window c ± hw (see measure).
func (j *jumps) atom(c, hw float64, opt DeadlineOptions) Deadline {
	i, k := j.span(c-hw, c+hw)
	var big, bigAge float64
	for x := i; x < k; x++ {
		if j.m[x] > big {
			big, bigAge = j.m[x], j.t[x]
		}
	}
	core := j.cum[k] - j.cum[i]
	age := (j.cumT[k] - j.cumT[i]) / core
	if big >= core/2 {
		age = bigAge
	}
	fl := max(opt.FlankRel*c, 10*hw)
	lo := max(0, c-hw-fl)
	eps := 1e-9 * c
	left, _ := j.mass(lo, c-hw-eps)
	right, _ := j.mass(c+hw+eps, c+hw+fl)
	expect := right * 2 * hw / fl
	if c-hw-lo >= fl/2 {
		expect = max(expect, left*2*hw/(c-hw-lo))
	}
	return Deadline{Age: age, Share: core - expect, Width: 2 * hw}
}

// moments measures a spike near age mu of spread about sd: the mean, the
// standard deviation and the mass of its answers above a background. The
// background's density is a straight line through the densities of the
// flanks [μ−3W, μ−W) and (μ+W, μ+3W] of the window μ ± W, W = max(3σ,
// minW), and its mass and moments in the window are taken out of the
// window's; the window cutting the tails of a normal spike is corrected
// for. It iterates from the guesses to a fixed point; ok is false when
// no mass stands above the background.
func (j *jumps) moments(mu, sd, minW float64) (mean, spread, share float64, ok bool) {
	for range 30 {
		w := max(3*sd, minW)
		e, m1, m2 := j.excess(mu, w)
		if !(e > 0) {
			return 0, 0, 0, false
		}
		k := w / max(sd, 1e-12)
		p := math.Erf(k / math.Sqrt2)                         // normal mass within ±k
		vf := 1 - 2*k*math.Exp(-k*k/2)/math.Sqrt(2*math.Pi)/p // its variance there
		next := math.Sqrt(max(0, m2-m1*m1) / vf)
		mu += m1
		share = e / p
		done := math.Abs(next-sd) <= 1e-4*max(sd, 1e-3) && math.Abs(m1) <= 1e-6*mu
		sd = next
		if done {
			break
		}
	}
	return mu, sd, share, true
}

// excess returns the mass above the background in mu ± w (see moments)
// and its first and second moments about mu, per unit of that mass.
func (j *jumps) excess(mu, w float64) (e, m1, m2 float64) {
	i, k := j.span(mu-w, mu+w)
	core := j.cum[k] - j.cum[i]
	s1 := j.cumT[k] - j.cumT[i] - mu*core
	s2 := j.cumT2[k] - j.cumT2[i] - 2*mu*(j.cumT[k]-j.cumT[i]) + mu*mu*core
	lo := max(0, mu-3*w)
	left, _ := j.mass(lo, math.Nextafter(mu-w, 0))
	right, _ := j.mass(math.Nextafter(mu+w, math.Inf(1)), mu+3*w)
	dl := left / max(mu-w-lo, 1e-300)
	if mu-w-lo <= 0 {
		dl = 0
	}
	dr := right / (2 * w)
	// The line through (μ−2W, dl) and (μ+2W, dr) over [μ−W, μ+W].
	bg := w * (dl + dr)
	b1 := (dr - dl) * w * w / 6
	b2 := (dl + dr) * w * w * w / 3
	e = core - bg
	if !(e > 0) {
		return e, 0, 0
	}
	return e, (s1 - b1) / e, (s2 - b2) / e
}
