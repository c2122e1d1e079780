package estimate

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
)

// Dist is a smoothed settle-time distribution, made by Density. It has
// three parts that together hold probability 1: a smooth density (PDF),
// atoms at deadlines (sharp spikes kept apart, see DensityOptions), and
// Never, the share with no final answer within the observed ages.
//
// Its methods read a precomputed grid by interpolation, in constant time
// and without allocating; CDF is non-decreasing and never above
// 1 − Never.
type Dist struct {
	x0, dx float64   // grid: log-age x0 + i·dx
	fx     []float64 // density per unit of log age at the grid points
	cx     []float64 // smooth mass at or below each grid point
	atoms  []Deadline
	never  float64
	mass   float64 // total smooth mass

	bandwidth float64
	method    string

	// Warnings are statistical caveats met while estimating, such as a
	// bandwidth fallback.
	Warnings []string
}

// finish turns the smoothed masses per grid step in fx into a density
// integrating (by the trapezoid rule) to the smooth mass, and fills cx.
func (d *Dist) finish() {
	for i := range d.fx {
		d.fx[i] /= d.dx
	}
	d.cx = make([]float64, len(d.fx))
	for i := 1; i < len(d.fx); i++ {
		d.cx[i] = d.cx[i-1] + (d.fx[i-1]+d.fx[i])/2*d.dx
	}
	if tot := d.cx[len(d.cx)-1]; tot > 0 {
		for i := range d.fx {
			d.fx[i] *= d.mass / tot
			d.cx[i] *= d.mass / tot
		}
	}
}

// locate returns the grid interval i and the fraction f of the way from
// point i to i+1 of log-age x, with ok false outside the grid.
func (d *Dist) locate(x float64) (i int, f float64, ok bool) {
	u := (x - d.x0) / d.dx
	if !(u >= 0) || u > float64(len(d.fx)-1) {
		return 0, 0, false
	}
	i = min(int(u), len(d.fx)-2)
	return i, u - float64(i), true
}

// PDF returns the density of the smooth part at age t (per second).
func (d *Dist) PDF(t float64) float64 {
	if !(t > 0) || len(d.fx) < 2 {
		return 0
	}
	x := math.Log(t)
	i, f, ok := d.locate(x)
	if !ok {
		return 0
	}
	return (d.fx[i]*(1-f) + d.fx[i+1]*f) / t
}

// CDF returns the probability of a final answer by age t: the smooth
// part, the exact atoms at ages ≤ t and the spread deadlines' normal
// mass by t, never the Never part.
func (d *Dist) CDF(t float64) float64 {
	c := d.atomMass(t)
	if !(t > 0) || len(d.cx) < 2 {
		return c
	}
	x := math.Log(t)
	if i, f, ok := d.locate(x); ok {
		return c + d.cx[i]*(1-f) + d.cx[i+1]*f
	}
	if x > d.x0 {
		return c + d.mass
	}
	return c
}

// atomMass is the mass of the deadlines by age t: an exact atom's all at
// once at its age, a spread one's as a normal law of its spread.
func (d *Dist) atomMass(t float64) float64 {
	c := 0.0
	for _, a := range d.atoms {
		switch {
		case a.Spread > 0 && 6*a.Spread >= a.Width:
			c += a.Share * (1 + math.Erf((t-a.Age)/(a.Spread*math.Sqrt2))) / 2
		case a.Age <= t:
			c += a.Share
		}
	}
	return c
}

// Survival returns 1 − CDF(t), which tends to Never.
func (d *Dist) Survival(t float64) float64 { return max(0, 1-d.CDF(t)) }

// Hazard returns PDF(t)/Survival(t), the rate of final answers at age t
// among items still waiting (of the smooth part; atoms are instants).
func (d *Dist) Hazard(t float64) float64 {
	p := d.PDF(t)
	if p == 0 {
		return 0
	}
	return p / d.Survival(t)
}

// Smooth reports whether the distribution has a density everywhere,
// PDF = CDF′: false when deadlines are kept as atoms, where CDF jumps.
func (d *Dist) Smooth() bool { return len(d.atoms) == 0 }

// Quantile returns the smallest age t with CDF(t) ≥ p: 0 for p ≤ 0,
// +Inf when p exceeds 1 − Never.
func (d *Dist) Quantile(p float64) float64 {
	if !(p > 0) {
		return 0
	}
	lo, hi := minDensityAge/2, 1.0
	if len(d.fx) > 0 {
		lo, hi = math.Exp(d.x0), math.Exp(d.x0+float64(len(d.fx)-1)*d.dx)
	}
	for _, a := range d.atoms {
		lo, hi = min(lo, a.Age), max(hi, a.Age)
	}
	if d.CDF(hi) < p {
		return math.Inf(1)
	}
	if d.CDF(lo) >= p {
		return lo
	}
	for range 200 { // bisection in log age
		m := math.Sqrt(lo * hi)
		if m == lo || m == hi {
			break
		}
		if d.CDF(m) >= p {
			hi = m
		} else {
			lo = m
		}
	}
	return hi
}

// Never returns the share of items with no final answer within the
// observed ages: the Kaplan–Meier S at the end of the data.
func (d *Dist) Never() float64 { return d.never }

// Atoms returns the deadlines kept apart from the smooth density, by
// increasing age; their shares are the CDF's jumps.
func (d *Dist) Atoms() []Deadline { return append([]Deadline(nil), d.atoms...) }

// Bandwidth returns the kernel's standard deviation on the natural-log
// age axis and the method that chose it: "isj", "silverman", "fixed",
// "default", or "resolution" when the ages' resolution floored the
// bandwidth ISJ or Silverman chose (see ResolutionFactor).
func (d *Dist) Bandwidth() (float64, string) { return d.bandwidth, d.method }

// Grid returns the grid the estimate is kept on: ages t (seconds,
// log-spaced), density f, survival S and hazard h at each.
func (d *Dist) Grid() (t, f, S, h []float64) {
	n := len(d.fx)
	t, f, S, h = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range t {
		t[i] = math.Exp(d.x0 + float64(i)*d.dx)
		f[i] = d.fx[i] / t[i]
		S[i] = max(0, 1-d.cx[i]-d.atomMass(t[i]))
		if f[i] > 0 {
			h[i] = f[i] / S[i]
		}
	}
	return t, f, S, h
}

// Modes returns the ages of the density's modes on the log-age axis, by
// decreasing height. A local maximum counts when it is prominent — on
// each side the density falls to at most 80% of its height before rising
// above it — and the mass between those two low points is at least
// minMass: wiggles of the estimate are not modes.
func (d *Dist) Modes(minMass float64) []float64 {
	type mode struct{ t, h float64 }
	var ms []mode
	n := len(d.fx)
	for i := 1; i+1 < n; i++ {
		h := d.fx[i]
		if !(h > d.fx[i-1] && h >= d.fx[i+1]) {
			continue
		}
		l, r := d.valley(i, -1), d.valley(i, +1)
		if max(d.fx[l], d.fx[r]) <= 0.8*h && d.cx[r]-d.cx[l] >= minMass {
			ms = append(ms, mode{math.Exp(d.x0 + float64(i)*d.dx), h})
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].h > ms[j].h })
	out := make([]float64, len(ms))
	for i, m := range ms {
		out[i] = m.t
	}
	return out
}

// valley walks from grid point i in direction dir until the density
// rises above fx[i] or the grid ends, and returns the lowest point on
// the way.
func (d *Dist) valley(i, dir int) int {
	low := i
	for j := i + dir; j >= 0 && j < len(d.fx) && d.fx[j] <= d.fx[i]; j += dir {
		if d.fx[j] < d.fx[low] {
			low = j
		}
	}
	return low
}

// WriteGrid writes the grid as CSV with the header t,f,S,hazard: age in
// seconds, density per second, survival and hazard per second.
func (d *Dist) WriteGrid(w io.Writer) error {
	t, f, S, h := d.Grid()
	bw := bufio.NewWriter(w)
	bw.WriteString("t,f,S,hazard\n")
	for i := range t {
		fmt.Fprintf(bw, "%.6g,%.6g,%.6g,%.6g\n", t[i], f[i], S[i], h[i])
	}
	return bw.Flush()
}
