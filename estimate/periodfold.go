package estimate

import (
	"math"
	"math/cmplx"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// phaseFolder folds the accumulator's time-of-day histogram at candidate
// periods.
type phaseFolder struct {
	// bins are the 100 ms bins of the day that hold weight, in order,
	// and ws their weights: a day's histogram of a few thousand answers
	// is mostly empty bins, and the fold of the day and the parts' sums
	// add its bins in order, which the empty ones leave as they are.
	bins  []int32
	ws    []float64
	n     float64 // total weight
	unit  float64 // timestamp resolution used, seconds (≥ 0.1)
	off   float64 // position of an event in its 100 ms bin, seconds
	folds map[float64][]float64
	// lines maps j to Z = 2|Σ w e^{iθ}|²/N at frequency j per day, as
	// computed by the H-tests (χ² with 2 degrees of freedom under the null).
	lines map[int]float64
}

func newPhaseFolder(a *Accumulator) *phaseFolder {
	pf := &phaseFolder{n: a.phaseW, unit: 0.1, off: 0.05, folds: map[float64][]float64{}, lines: map[int]float64{}}
	pf.bins, pf.ws = a.phaseUsed()
	if r := a.TimestampResolution(); r > 0 {
		pf.unit, pf.off = r, 0
	}
	return pf
}

// candidates returns the divisors of a day in [lo, hi] that are whole
// multiples of the timestamp unit and allow at least one harmonic.
func (pf *phaseFolder) candidates(lo, hi float64) []float64 {
	var c []float64
	for d := 1; d <= daySeconds; d++ {
		P := float64(d)
		if daySeconds%d != 0 || P < lo || P > hi {
			continue
		}
		if math.Mod(P*10, pf.unit*10) != 0 || pf.harmonics(P) < 1 {
			continue
		}
		c = append(c, P)
	}
	return c
}

// harmonics is the number of harmonics usable at period P: at most 20,
// and below the Nyquist limit of the timestamp unit, k ≤ P/(2·unit).
func (pf *phaseFolder) harmonics(P float64) int {
	return min(maxHarmonics, int(math.Floor(P/(2*pf.unit)+1e-9)))
}

// fold returns the weight by 100 ms bin of the phase modulo P.
func (pf *phaseFolder) fold(P float64) []float64 {
	if f, ok := pf.folds[P]; ok {
		return f
	}
	// Fold the smallest fold already made at a multiple of P, or the
	// day (every candidate divides a day).
	var src []float64
	for Q, g := range pf.folds {
		if Q > P && (src == nil || len(g) < len(src)) && math.Mod(Q, P) == 0 {
			src = g
		}
	}
	nP := int(math.Round(P * 10))
	// Added to, so written first (see written).
	f := written(nP)
	if src == nil {
		for i, b := range pf.bins {
			f[int(b)%nP] += pf.ws[i]
		}
	}
	for off := 0; off < len(src); off += nP { // len(src) is a multiple of nP
		for j, v := range src[off : off+nP] {
			f[j] += v
		}
	}
	pf.folds[P] = f
	return f
}

// hTest returns the H-test p-value at period P (uncorrected): with
// Z²_m = (2/N) Σ_{k≤m} |Σ w e^{ikθ}|², H = max_m Z²_m − 4m + 4 and
// P(H > h) ≈ exp(−0.4 h) (de Jager & Büsching 2010), conservative when
// fewer than 20 harmonics are allowed.
func (pf *phaseFolder) hTest(P float64, sums []complex128) float64 {
	m := pf.harmonics(P)
	z2, H := 0.0, math.Inf(-1)
	base := int(math.Round(daySeconds / P))
	for k := 1; k <= m; k++ {
		a := cmplx.Abs(sums[k])
		pf.lines[k*base] = 2 * a * a / pf.n
		z2 += 2 * a * a / pf.n
		H = max(H, z2-4*float64(k)+4)
	}
	return math.Min(1, math.Exp(-0.4*H))
}

// allPowerSums are the power sums of each candidate (powerSums, to its
// harmonics), on as many goroutines as there are cores: each only reads
// its fold, made already, so the sums are the ones made in turn.
func (pf *phaseFolder) allPowerSums(cands []float64) [][]complex128 {
	sums := make([][]complex128, len(cands))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(cands)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(cands); i = int(next.Add(1) - 1) {
				sums[i] = pf.powerSums(cands[i], pf.harmonics(cands[i]))
			}
		})
	}
	wg.Wait()
	return sums
}

// powerSums returns Σ w e^{ikθ} over the bins of the fold at P (weight
// w, phase θ), for k = 1..m (index 0 unused).
func (pf *phaseFolder) powerSums(P float64, m int) []complex128 {
	f := pf.fold(P)
	sums := make([]complex128, m+1)
	// The powers of each bin's phasor are a chain of multiplications:
	// four bins' chains run side by side. Each sum still takes its bins
	// in order, so the sums are what one bin at a time gives.
	var zs, ws [4]complex128
	n := 0
	for b, w := range f {
		if w == 0 {
			continue
		}
		zs[n], ws[n] = cmplx.Rect(1, 2*math.Pi*(float64(b)*0.1+pf.off)/P), complex(w, 0)
		if n++; n == 4 {
			addPowers4(sums, zs, ws)
			n = 0
		}
	}
	for i := range n {
		zk := ws[i]
		for k := 1; k <= m; k++ {
			zk *= zs[i]
			sums[k] += zk
		}
	}
	return sums
}

// addPowers4 adds w_i z_i^k to sums[k] for k ≥ 1, for i = 0..3 in turn.
func addPowers4(sums []complex128, z, w [4]complex128) {
	z0, z1, z2, z3 := z[0], z[1], z[2], z[3]
	p0, p1, p2, p3 := w[0], w[1], w[2], w[3]
	for k := 1; k < len(sums); k++ {
		p0, p1, p2, p3 = p0*z0, p1*z1, p2*z2, p3*z3
		s := sums[k]
		s += p0
		s += p1
		s += p2
		s += p3
		sums[k] = s
	}
}

// coarse returns the fold at P merged into at most maxBins equal bins of
// whole timestamp units, and the bin width in seconds.
func (pf *phaseFolder) coarse(P float64, maxBins int) ([]float64, float64) {
	f := pf.fold(P)
	units := int(math.Round(P / pf.unit))
	B := 1
	for d := 1; d <= units && d <= maxBins; d++ {
		if units%d == 0 {
			B = d
		}
	}
	out := make([]float64, B)
	for i, w := range f {
		out[i*B/len(f)] += w
	}
	return out, P / float64(B)
}

// batch estimates the share of weight above a uniform background in the
// fold at P (background: the median of up to 200 bins; minus the excess
// pure Poisson noise would show, B·√bg/√(2π)), the circular mean phase
// of that excess and its concentration, the mean resultant length
// (1 for a point, 0 for an even spread; noise excess discounted).
func (pf *phaseFolder) batch(P float64) (share, phase, conc float64) {
	c, width := pf.coarse(P, 200)
	bg := median(c)
	var excess float64
	var z complex128
	for i, v := range c {
		if e := v - bg; e > 0 {
			excess += e
			z += cmplx.Rect(e, 2*math.Pi*(float64(i)+0.5)*width/P)
		}
	}
	excess -= float64(len(c)) * math.Sqrt(bg) / math.Sqrt(2*math.Pi)
	if excess <= 0 {
		return 0, 0, 0
	}
	phase = math.Mod(cmplx.Phase(z)/(2*math.Pi)*P+P, P)
	return excess / pf.n, phase, min(1, cmplx.Abs(z)/excess)
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

// everyBoundary reports whether the batch at period P shows all day. A
// batch process answers after every boundary, so each part of the day
// with traffic has more of its answers in the batch's arc of phases than
// the arc's length predicts, by at least a third of the overall batch
// share. The parts are runs of whole periods, as short as possible while
// expecting at least 50 answers and 10 batch answers each. The parts
// showing the batch must carry 70% of the traffic and be at least three:
// a burst of traffic in a few hours of each day, which folded at a period
// of 45 minutes can look like a batch, shows its excess only in the
// periods at its edges. With fewer than three parts there is no telling.
func (pf *phaseFolder) everyBoundary(P, share float64) bool {
	nSeg := int(math.Round(daySeconds / P))
	minPer := max(50, 10/share)
	g := 1
	for d := 1; d <= nSeg; d++ {
		if nSeg%d == 0 && pf.n/float64(d) >= minPer {
			g = d
		}
	}
	if g < 3 {
		return true
	}
	c, _ := pf.coarse(P, 200)
	bg := median(c)
	arc := make([]bool, len(c))
	w := 0.0
	for i, v := range c {
		if v > bg+2*math.Sqrt(max(bg, 1)) {
			arc[i] = true
			w += 1 / float64(len(c))
		}
	}
	inArc, tot := pf.partSums(P, arc, g)
	shown, parts := 0.0, 0
	for k := range g {
		if tot[k] > 0 && inArc[k]/tot[k]-w >= share/3 {
			shown += tot[k]
			parts++
		}
	}
	return shown >= 0.7*pf.n && parts >= 3
}

// partSums splits the day into g parts of whole periods P and returns
// the weight of each part in the arc (the fold's bins in the coarse bins
// marked in arc) and in all.
func (pf *phaseFolder) partSums(P float64, arc []bool, g int) (inArc, tot []float64) {
	nP := int(math.Round(P * 10))
	inFold := make([]float64, nP) // 1 for the bins of the fold in the arc
	for j := range inFold {
		if arc[j*len(arc)/nP] {
			inFold[j] = 1
		}
	}
	inArc, tot = make([]float64, g), make([]float64, g)
	per := nPhaseBins / g // whole periods: g divides the day's periods
	for i, b := range pf.bins {
		v, k := pf.ws[i], int(b)/per
		tot[k] += v
		inArc[k] += v * inFold[int(b)%nP] // no branch: adding v·0 changes no sum
	}
	return inArc, tot
}
