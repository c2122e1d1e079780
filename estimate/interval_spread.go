package estimate

import (
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultSpreadNodes is the number of items Spread makes of one
// interval by default.
const DefaultSpreadNodes = 8

// Spread turns the set into weighted items that the fitting and replay
// code takes like any log's. An exact age (Lo == Hi) stays one final
// item, and an interval still pending at Lo (Hi = +Inf) one pending
// item of age Lo. A finite interval (Lo, Hi] of weight W becomes nodes
// final items, each of weight W/nodes, at the quantiles (k + ½)/nodes,
// k = 0 … nodes−1, of d's law restricted to the interval (of the
// uniform law in age where d has no mass there): the mean of any
// figure over them is a midpoint rule for its expected value under d
// within the interval. Every node lies in (Lo, Hi], so a schedule that
// asks at the interval's ends, as the poller that logged it did, sees
// every node at the same ask and counts the same asks as it did.
// nodes < 1 means DefaultSpreadNodes. spread is the weight of the
// finite intervals that were spread (the items whose figures are
// expected, not exact).
func (s *IntervalSet) Spread(d *Dist, nodes int) (items []Item, w []float64, spread float64) {
	if nodes < 1 {
		nodes = DefaultSpreadNodes
	}
	for _, iv := range s.Intervals() {
		switch {
		case math.IsInf(iv.Hi, 1):
			items, w = append(items, Item{Age: iv.Lo, Status: Pending}), append(w, iv.W)
		case iv.Lo == iv.Hi:
			items, w = append(items, Item{Age: iv.Hi, Status: Settled}), append(w, iv.W)
		default:
			spread += iv.W
			for _, t := range spreadNodes(d, iv.Lo, iv.Hi, nodes) {
				items, w = append(items, Item{Age: t, Status: Settled}), append(w, iv.W/float64(nodes))
			}
		}
	}
	return items, w, spread
}

// spreadNodes are the nodes quantiles of d within (lo, hi], in
// increasing order, all in (lo, hi].
func spreadNodes(d *Dist, lo, hi float64, nodes int) []float64 {
	out := make([]float64, nodes)
	var cLo, cHi float64
	if d != nil {
		cLo, cHi = d.CDF(lo), d.CDF(hi)
	}
	if !(cHi-cLo > 1e-12) { // no mass of d here: uniform in age
		for k := range out {
			out[k] = lo + (float64(k)+0.5)/float64(nodes)*(hi-lo)
		}
		return out
	}
	a := lo
	for k := range out {
		target := cLo + (float64(k)+0.5)/float64(nodes)*(cHi-cLo)
		// Bisection on age: the smallest t in (a, hi] with CDF(t) ≥
		// target, to hi's precision.
		l, h := a, hi
		for range 60 {
			m := l + (h-l)/2
			if m <= l || m >= h {
				break
			}
			if d.CDF(m) >= target {
				h = m
			} else {
				l = m
			}
		}
		out[k], a = h, l
	}
	return out
}

// Split divides the set by a seeded random split of its items into a
// fitting and a held-out set: of an interval's whole weight n,
// Binomial(n, frac) items go to the held-out set and the rest to the
// fitting set; a fractional part f goes to the held-out set with chance
// frac. The same seed gives the same split; frac ≤ 0 holds nothing out.
func (s *IntervalSet) Split(frac float64, seed uint64) (fitOn, heldOut *IntervalSet) {
	fitOn, heldOut = &IntervalSet{}, &IntervalSet{}
	src := rand.NewPCG(seed, 0x1e7a15)
	r := rand.New(src)
	for _, iv := range s.Intervals() {
		n := math.Floor(iv.W)
		h := 0.0
		switch {
		case frac >= 1:
			h = iv.W
		case frac > 0:
			if n > 0 {
				h = distuv.Binomial{N: n, P: frac, Src: src}.Rand()
			}
			if f := iv.W - n; f > 0 && r.Float64() < frac {
				h += f
			}
		}
		if iv.W-h > 0 {
			fitOn.add(Interval{Lo: iv.Lo, Hi: iv.Hi, W: iv.W - h})
		}
		if h > 0 {
			heldOut.add(Interval{Lo: iv.Lo, Hi: iv.Hi, W: h})
		}
	}
	return fitOn, heldOut
}

// SpreadDensity is the density Spread spreads the set's intervals by:
// the Density of its Turnbull estimate tb (opt as for Density), with a
// bandwidth of at least IntervalBandwidth. ISJ picks the bandwidth from
// the spread mass, whose steps at the asks' ages it takes for shape; a
// kernel as wide as a typical interval smooths across them, so a
// schedule fitted to the density is not drawn to the old asks.
func (s *IntervalSet) SpreadDensity(tb *Turnbull, opt DensityOptions) *Dist {
	d := tb.Density(opt)
	if opt.Bandwidth > 0 {
		return d
	}
	if b, _ := d.Bandwidth(); b < s.IntervalBandwidth() {
		opt.Bandwidth = s.IntervalBandwidth()
		d = tb.Density(opt)
	}
	return d
}

// IntervalBandwidth is the spread on the log-age axis of a typical
// interval: w/√12, the standard deviation of a uniform law over w, the
// weighted median of log(Hi/Lo) over the finite intervals with Lo > 0
// (0 when there are none).
func (s *IntervalSet) IntervalBandwidth() float64 {
	type lw struct{ w, weight float64 }
	var ws []lw
	total := 0.0
	for k, w := range s.w {
		if k[0] > 0 && k[1] > k[0] && !math.IsInf(k[1], 1) {
			ws = append(ws, lw{math.Log(k[1] / k[0]), w})
			total += w
		}
	}
	if total == 0 {
		return 0
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].w < ws[j].w })
	acc := 0.0
	for _, v := range ws {
		if acc += v.weight; acc >= total/2 {
			return v.w / math.Sqrt(12)
		}
	}
	return ws[len(ws)-1].w / math.Sqrt(12)
}
