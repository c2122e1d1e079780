package estimate

import (
	"math"
	"math/cmplx"
	"sort"

	"gonum.org/v1/gonum/dsp/fourier"
)

// isjBandwidth returns Botev's improved Sheather–Jones bandwidth (Botev,
// Grotowski and Kroese, Ann. Statist. 38(5), 2010) for data binned into
// hist (equal bins over a range of width span, any total mass), with nEff
// the effective number of observations. It reports false when the
// fixed-point equation has no root in (0, 0.1]: a known failure mode on
// small or pathological samples (see KDEpy's notes), for which the caller
// falls back to Silverman's rule.
func isjBandwidth(hist []float64, span, nEff float64) (float64, bool) {
	n := len(hist)
	tot := 0.0
	for _, v := range hist {
		tot += v
	}
	if n < 2 || tot <= 0 || span <= 0 || nEff < 2 {
		return 0, false
	}
	// The DCT-II of the normalised histogram, squared: a_k² = |V_k|² with V
	// the DFT of the histogram followed by its mirror image.
	v := make([]float64, 2*n)
	for i, x := range hist {
		v[i] = x / tot
		v[2*n-1-i] = x / tot
	}
	coef := fourier.NewFFT(2*n).Coefficients(nil, v)
	// pa[s][k-1] = (k²)^s · a_k²/4 for s = 2..7, precomputed.
	var pa [8][]float64
	for s := 2; s <= 7; s++ {
		pa[s] = make([]float64, n-1)
	}
	for k := 1; k < n; k++ {
		a := cmplx.Abs(coef[k])
		k2 := float64(k) * float64(k)
		p := k2 * k2 * a * a / 4
		for s := 2; s <= 7; s++ {
			pa[s][k-1] = p
			p *= k2
		}
	}
	g := func(t float64) float64 { return t - isjXi(t, nEff, &pa) }
	t, ok := bracketRoot(g, 1e-12, 0.1, 80)
	if !ok {
		return 0, false
	}
	return math.Sqrt(t) * span, true
}

// isjXi is the fixed-point map ξγ^[ℓ](t) of Botev et al. with ℓ = 7.
func isjXi(t, N float64, pa *[8][]float64) float64 {
	const ell = 7
	f := isjFunctional(ell, t, pa[ell])
	if !(f > 0) {
		return math.Inf(1)
	}
	for s := ell - 1; s >= 2; s-- {
		odd := 1.0
		for k := 1; k <= 2*s-1; k += 2 {
			odd *= float64(k)
		}
		k0 := odd / math.Sqrt(2*math.Pi)
		c := (1 + math.Pow(0.5, float64(s)+0.5)) / 3
		tj := math.Pow(2*c*k0/(N*f), 2/(3+2*float64(s)))
		f = isjFunctional(s, tj, pa[s])
		if !(f > 0) {
			return math.Inf(1)
		}
	}
	return math.Pow(2*N*math.Sqrt(math.Pi)*f, -0.4)
}

// isjFunctional returns the estimate of ‖f⁽ˢ⁾‖² on [0, 1] at smoothing
// time t, 2π^(2s) Σ_k k^(2s) a_k²/4 exp(−k²π²t) (the density's cosine
// coefficients are a_k, each cos² integrating to ½), with pa
// holding k^(2s) a_k²/4. The exponentials come from the recurrence
// e_k = e_(k−1)·r_k, r_k = r_(k−1)·exp(−2π²t), without calling Exp each.
func isjFunctional(s int, t float64, pa []float64) float64 {
	c := math.Pi * math.Pi * t
	e, r, q := 1.0, math.Exp(-c), math.Exp(-2*c)
	sum := 0.0
	for _, p := range pa {
		e *= r // exp(−k²c)
		r *= q
		if e == 0 {
			break
		}
		sum += p * e
	}
	return 2 * math.Pow(math.Pi, 2*float64(s)) * sum
}

// bracketRoot scans g on a log-spaced grid of steps points in [lo, hi]
// for the first change of sign from negative to non-negative and bisects
// it (in log t). It reports false when there is none.
func bracketRoot(g func(float64) float64, lo, hi float64, steps int) (float64, bool) {
	r := math.Log(hi / lo)
	prevT, prevG := lo, g(lo)
	for i := 1; i <= steps; i++ {
		t := lo * math.Exp(r*float64(i)/float64(steps))
		gt := g(t)
		if prevG < 0 && gt >= 0 {
			a, b := prevT, t
			for range 60 {
				m := math.Sqrt(a * b)
				if g(m) < 0 {
					a = m
				} else {
					b = m
				}
			}
			return math.Sqrt(a * b), true
		}
		prevT, prevG = t, gt
	}
	return 0, false
}

// silverman returns Silverman's rule-of-thumb bandwidth
// 0.9·min(sd, IQR/1.34)·n^(−1/5) for weighted points x.
func silverman(x, w []float64, nEff float64) float64 {
	var sw, mean float64
	for i, xi := range x {
		sw += w[i]
		mean += w[i] * xi
	}
	if sw <= 0 {
		return 0
	}
	mean /= sw
	var v float64
	for i, xi := range x {
		v += w[i] * (xi - mean) * (xi - mean)
	}
	sd := math.Sqrt(v / sw)
	iqr := weightedQuantile(x, w, 0.75) - weightedQuantile(x, w, 0.25)
	spread := sd
	if iqr > 0 {
		spread = min(sd, iqr/1.34)
	}
	return 0.9 * spread * math.Pow(max(nEff, 1), -0.2)
}

// weightedQuantile returns the smallest x with cumulative weight ≥ p of
// the total.
func weightedQuantile(x, w []float64, p float64) float64 {
	idx := make([]int, len(x))
	tot := 0.0
	for i := range idx {
		idx[i] = i
		tot += w[i]
	}
	sort.Slice(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	c := 0.0
	for _, i := range idx {
		c += w[i]
		if c >= p*tot {
			return x[i]
		}
	}
	return x[idx[len(idx)-1]]
}
