package estimate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// minDensityAge is the smallest age the log-time axis reaches: final
// ages below it (an answer at age 0) count as answered at it.
const minDensityAge = histMin

// DensityOptions tunes Density. The zero value gives the defaults.
type DensityOptions struct {
	// Bandwidth is the kernel's standard deviation on the natural-log age
	// axis (0.1 ≈ ±10% of the age). Zero selects it from the data with
	// Botev's improved Sheather–Jones method, falling back to Silverman's
	// rule (with a warning) when that fails, and floors it at the ages'
	// resolution (see ResolutionFactor).
	Bandwidth float64
	// GridSize is the smallest number of grid points; the grid is made
	// finer when the bandwidth is small, up to 65536. Default 2048.
	GridSize int
	// SmoothDeadlines smooths the spikes that Deadlines finds like the
	// rest of the mass. By default they are kept apart as atoms: the CDF
	// jumps at them and the PDF is the density of the remaining part.
	SmoothDeadlines bool
	// Deadline tunes the spike detection (see Deadlines).
	Deadline DeadlineOptions
}

// Density estimates the density of the settle-time distribution from a
// Kaplan–Meier estimate. It smooths the Kaplan–Meier jumps (so censoring
// is accounted for) with a Gaussian kernel on the log-age axis, by
// binning onto a regular grid and convolving with an FFT, and maps the
// result back to ages with the Jacobian 1/t. Ages rounded to whole
// seconds or minutes (s.Resolution) are spread over their rounding
// interval first, heavily tied ages over the cells halfway to their
// neighbours. Deadlines are kept apart as atoms unless
// opt.SmoothDeadlines. The mass the data leave unanswered, S at the end of the
// data, stays apart as Never: the density integrates to 1 − Never minus
// the deadline atoms.
func Density(s *Survival, opt DensityOptions) *Dist {
	return NewSmoother(s, opt).Density(opt.Bandwidth)
}

// removeAtoms takes each deadline's share out of the jumps in its window,
// in proportion to their masses, and returns the new masses.
func removeAtoms(t, m []float64, atoms []Deadline) []float64 {
	out := append([]float64(nil), m...)
	for _, a := range atoms {
		in := 0.0
		for i, ti := range t {
			if math.Abs(ti-a.Age) <= a.Width/2 {
				in += out[i]
			}
		}
		if in <= 0 {
			continue
		}
		keep := max(0, 1-a.Share/in)
		for i, ti := range t {
			if math.Abs(ti-a.Age) <= a.Width/2 {
				out[i] *= keep
			}
		}
	}
	return out
}

// nISJ is the number of cells of ISJ's grid.
const nISJ = 1 << 12

// chooseBandwidth returns the bandwidth on the log-age axis, the method
// that chose it and a warning when ISJ failed. A bandwidth chosen from
// the data is floored at resolutionFloor(pts, nEff) (method
// "resolution" when the floor binds).
func chooseBandwidth(pts []logPoint, nEff, fixed float64) (h float64, method, warn string) {
	if fixed > 0 {
		return fixed, "fixed", ""
	}
	h, method, warn = dataBandwidth(pts, nEff)
	if _, width := isjGrid(pts); width > 0 {
		if floor := resolutionFloor(pts, nEff, width/nISJ); h < floor {
			return floor, "resolution", warn
		}
	}
	return h, method, warn
}

// isjGrid is where ISJ's grid of nISJ cells starts and how wide it is:
// the points' range on the log-age axis and a tenth of it more each
// side (a width of 0 when the points are at one age).
func isjGrid(pts []logPoint) (lo, width float64) {
	xlo, xhi := pointsRange(pts)
	span := xhi - xlo
	if !(span > 0) {
		return xlo, 0
	}
	lo, hi := xlo-span/10, xhi+span/10
	return lo, hi - lo
}

// dataBandwidth is the bandwidth ISJ chooses, or Silverman's rule when
// ISJ fails, with the method and ISJ's warning.
func dataBandwidth(pts []logPoint, nEff float64) (h float64, method, warn string) {
	x, w := make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		x[i], w[i] = (p.lo+p.hi)/2, p.w
	}
	if lo, width := isjGrid(pts); width > 0 {
		hist := binPoints(pts, lo, width/nISJ, nISJ)
		if h, ok := isjBandwidth(hist, width, nEff); ok && h > 0 {
			return h, "isj", ""
		}
		warn = fmt.Sprintf("density: the improved Sheather–Jones bandwidth did not converge on %.0f effective observations; using Silverman's rule", nEff)
	}
	if h = silverman(x, w, nEff); h > 0 {
		return h, "silverman", warn
	}
	// A single distinct age: any width is a guess; 5% of the age.
	return 0.05, "default", "density: all final answers at one age; using a 5% kernel"
}

// smoothOnGrid convolves binned masses with a Gaussian kernel of standard
// deviation sd grid steps (truncated at 5 sd) by FFT, returning the
// smoothed masses per grid step.
func smoothOnGrid(mass []float64, sd float64) []float64 {
	n := len(mass)
	half := int(math.Ceil(5 * sd))
	if sd < 0.2 || half < 1 {
		return append([]float64(nil), mass...)
	}
	ker := make([]float64, 2*half+1)
	ks := 0.0
	for k := -half; k <= half; k++ {
		v := math.Exp(-0.5 * float64(k*k) / (sd * sd))
		ker[k+half] = v
		ks += v
	}
	L := 1
	for L < n+2*half+1 {
		L <<= 1
	}
	a, b := make([]float64, L), make([]float64, L)
	copy(a, mass)
	for i, v := range ker {
		b[i] = v / ks
	}
	fft := fourier.NewFFT(L)
	ca, cb := fft.Coefficients(nil, a), fft.Coefficients(nil, b)
	for i := range ca {
		ca[i] *= cb[i]
	}
	out := fft.Sequence(nil, ca)
	res := make([]float64, n)
	for i := range res {
		res[i] = max(0, out[i+half]/float64(L))
	}
	return res
}
