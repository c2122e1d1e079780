package estimate

import (
	"fmt"
	"math"
	"sort"
)

// Interval is what an interval-censored log knows of one item's settle
// age: it lies in (Lo, Hi] seconds, with weight W. Lo == Hi is an exact
// age; Hi = +Inf an item still pending at age Lo (right-censored); Lo =
// 0 an item final at the first ask, at or before Hi.
type Interval struct {
	Lo, Hi, W float64
	// Created is the item's creation time in Unix nanoseconds, 0 when
	// unknown (a metric's bucket): a sketch's split hashes it
	// (Sketch.AddInterval). IntervalSet ignores it.
	Created int64
}

// IntervalSet gathers intervals, merging equal ones: a poller that asks
// every item at the same ages gives one entry an ask gap, so memory is
// flat in the number of items; with jittered asks it grows with the
// number of distinct intervals.
type IntervalSet struct {
	w                    map[[2]float64]float64
	final, pending, sumW float64
}

// Add adds an interval; it fails, naming the bounds, on one
// NewTurnbull would refuse.
func (s *IntervalSet) Add(iv Interval) error {
	if iv.W == 0 {
		iv.W = 1
	}
	if err := checkIntervals([]float64{iv.Lo}, []float64{iv.Hi}, []float64{iv.W}); err != nil {
		return fmt.Errorf("interval (%v, %v] weight %v: %v", iv.Lo, iv.Hi, iv.W, err)
	}
	s.add(iv)
	return nil
}

// add adds an interval known to be valid.
func (s *IntervalSet) add(iv Interval) {
	if s.w == nil {
		s.w = map[[2]float64]float64{}
	}
	s.w[[2]float64{iv.Lo, iv.Hi}] += iv.W
	if math.IsInf(iv.Hi, 1) {
		s.pending += iv.W
	} else {
		s.final += iv.W
	}
	s.sumW += iv.W
}

// Len is the number of distinct intervals.
func (s *IntervalSet) Len() int { return len(s.w) }

// Weights are the total weight of final items (Hi finite) and pending
// ones (Hi = +Inf).
func (s *IntervalSet) Weights() (final, pending float64) { return s.final, s.pending }

// Intervals returns the distinct intervals with their summed weights,
// in increasing order of (Lo, Hi).
func (s *IntervalSet) Intervals() []Interval {
	out := make([]Interval, 0, len(s.w))
	for k, w := range s.w {
		out = append(out, Interval{Lo: k[0], Hi: k[1], W: w})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Lo != out[j].Lo {
			return out[i].Lo < out[j].Lo
		}
		return out[i].Hi < out[j].Hi
	})
	return out
}

// Turnbull is NewTurnbull on the set.
func (s *IntervalSet) Turnbull(opt TurnbullOptions) (*Turnbull, error) {
	iv := s.Intervals()
	lo, hi, w := make([]float64, len(iv)), make([]float64, len(iv)), make([]float64, len(iv))
	for i, v := range iv {
		lo[i], hi[i], w[i] = v.Lo, v.Hi, v.W
	}
	return NewTurnbull(lo, hi, w, opt)
}

// WidestShare returns the width of the widest interval, finite ones
// only, among the narrowest that together hold a share p of the final
// weight: the answers' age is known to within it for that share. It is
// 0 when that share is exact and NaN when there is no final weight or p
// is outside (0, 1].
func (s *IntervalSet) WidestShare(p float64) float64 {
	if !(p > 0 && p <= 1) || s.final == 0 {
		return math.NaN()
	}
	type wv struct{ width, w float64 }
	var ws []wv
	for k, w := range s.w {
		if !math.IsInf(k[1], 1) {
			ws = append(ws, wv{k[1] - k[0], w})
		}
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].width < ws[j].width })
	acc := 0.0
	for _, v := range ws {
		acc += v.w
		if acc >= p*s.final*(1-1e-12) {
			return v.width
		}
	}
	return ws[len(ws)-1].width
}
