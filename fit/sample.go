package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"gonum.org/v1/gonum/stat/distuv"
)

// Sample is a log to fit and measure schedules on: items, each standing
// for Weights[i] identical items (a histogram bin's count). Nil Weights:
// every item counts once.
type Sample struct {
	Items   []estimate.Item
	Weights []float64
	// Scale is set when the items are a uniform sample of a larger log
	// (a sketch's item sample beyond its size): the rows each sampled
	// row stands for, which Weights already include. The bootstrap then
	// resamples the sampled rows (Poisson of Weight/Scale, times Scale),
	// so that its intervals reflect how many rows were sampled. 0 or 1:
	// the items are the whole log.
	Scale float64
}

// ItemSample is the sample of a plain log: every item counts once.
func ItemSample(items []estimate.Item) Sample { return Sample{Items: items} }

// Len is the number of items (histogram bins), whatever their weights.
func (s Sample) Len() int { return len(s.Items) }

// Weight is the number of identical items item i stands for.
func (s Sample) Weight(i int) float64 {
	if s.Weights == nil {
		return 1
	}
	return s.Weights[i]
}

// Total is the sum of the weights: the number of items the sample
// stands for.
func (s Sample) Total() float64 {
	if s.Weights == nil {
		return float64(len(s.Items))
	}
	var t float64
	for _, w := range s.Weights {
		t += w
	}
	return t
}

// AnsweredBy is the share of the sample's items with a final answer at
// age t seconds or earlier: what an ask at t sees answered (0 for an
// empty sample).
func (s Sample) AnsweredBy(t float64) float64 {
	var by, all float64
	for i, it := range s.Items {
		w := s.Weight(i)
		all += w
		if it.Status.Final() && it.Age <= t {
			by += w
		}
	}
	if all == 0 {
		return 0
	}
	return by / all
}

// Weighted reports whether the sample carries weights.
func (s Sample) Weighted() bool { return s.Weights != nil }

// HasSignals reports whether any item has a signal.
func (s Sample) HasSignals() bool {
	for _, it := range s.Items {
		if it.HasSignal() {
			return true
		}
	}
	return false
}

// check reports weights that do not match the items or are negative or
// not finite.
func (s Sample) check() error {
	if s.Weights == nil {
		return nil
	}
	if len(s.Weights) != len(s.Items) {
		return fmt.Errorf("sample: %d weights for %d items", len(s.Weights), len(s.Items))
	}
	for i, w := range s.Weights {
		if !(w >= 0) || math.IsInf(w, 1) {
			return fmt.Errorf("sample: item %d has weight %v: want a finite number ≥ 0", i+1, w)
		}
	}
	return nil
}

// largestAgeSample is the largest age of any item of positive weight,
// final or pending.
func largestAgeSample(smp Sample) time.Duration {
	var m time.Duration
	for i, it := range smp.Items {
		if smp.Weight(i) > 0 {
			m = max(m, nanos(it.Age))
		}
	}
	return m
}

// SplitSample is Split for a sample. An unweighted sample is split
// exactly as Split splits its items (the same random stream). A weighted
// one is thinned item by item: of an integer weight n, Binomial(n, frac)
// go to the held-out set and the rest to the fitting set; a fractional
// part f goes to the held-out set with chance frac, else to the fitting
// set. Items whose weight comes to 0 are dropped. The same seed gives the
// same split; frac 0 holds nothing out.
func SplitSample(smp Sample, frac float64, seed uint64) (fitOn, heldOut Sample) {
	if !smp.Weighted() {
		a, b := Split(smp.Items, frac, seed)
		return ItemSample(a), ItemSample(b)
	}
	if frac <= 0 {
		return smp, Sample{Weights: []float64{}, Scale: smp.Scale}
	}
	fitOn.Scale, heldOut.Scale = smp.Scale, smp.Scale
	src := rand.NewPCG(seed, 0x401d0a7)
	r := rand.New(src)
	// A row of weight 2 or more most often lands on both sides.
	n := smp.Len()
	fitOn.Items, heldOut.Items = make([]estimate.Item, 0, n), make([]estimate.Item, 0, n)
	fitOn.Weights, heldOut.Weights = make([]float64, 0, n), make([]float64, 0, n)
	for i, it := range smp.Items {
		w := smp.Weights[i]
		n := math.Floor(w)
		h := binomial(src, n, frac)
		if f := w - n; f > 0 && r.Float64() < frac {
			h += f
		}
		if w-h > 0 {
			fitOn.Items, fitOn.Weights = append(fitOn.Items, it), append(fitOn.Weights, w-h)
		}
		if h > 0 {
			heldOut.Items, heldOut.Weights = append(heldOut.Items, it), append(heldOut.Weights, h)
		}
	}
	return fitOn, heldOut
}

// binomial draws from Binomial(n, p) for a whole number n ≥ 0, from
// src.
func binomial(src rand.Source, n, p float64) float64 {
	switch {
	case n == 0 || p <= 0:
		return 0
	case p >= 1:
		return n
	}
	return distuv.Binomial{N: n, P: p, Src: src}.Rand()
}

// JoinSamples is the samples' items in one sample, in order, weighted
// when any of them is (an unweighted one's items weigh 1 each).
func JoinSamples(smps ...Sample) Sample {
	out := Sample{Items: []estimate.Item{}}
	weighted := false
	for _, s := range smps {
		out.Items = append(out.Items, s.Items...)
		weighted = weighted || s.Weighted()
	}
	if weighted {
		out.Weights = make([]float64, 0, out.Len())
		for _, s := range smps {
			for i := range s.Items {
				out.Weights = append(out.Weights, s.Weight(i))
			}
		}
	}
	return out
}
