package estimate

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// The sketch's interval part. An item known only to answer in (lo, hi]
// (a poller's log, a latency histogram) is kept, beside the bins of
// exact ages, by the pair of bins its ends fall in, with its weight and
// the weighted sums of its ends: an interval stands at (sum_lo/weight,
// sum_hi/weight], exactly the item's own when every item of the pair had
// the same ends (a poller asking every item at the same ages), and
// within a bin's width (0.023%) of them otherwise. Its memory grows with
// the number of distinct pairs of bins, not of items. An item pending
// at its last ask is a pending item of that age and an exact one a
// settled item, in the bins.

// ivStat is the interval part's entry of one pair of bins.
type ivStat struct{ w, sumLo, sumHi float64 }

// ErrGroupedIntervals is AddInterval's error on a grouped sketch:
// groups keep no interval part.
var ErrGroupedIntervals = errors.New("sketch: a grouped sketch (--by) keeps no interval-censored items")

// AddInterval adds an interval-censored item (see Interval) to the part
// its hash chooses, as Add does a row: a single item by the split's
// hash of its status (an interval's code is 3), creation time and ends,
// a weighted one (a histogram bucket) thinned binomially. A pending
// interval is a pending item at its lower end, an exact one a settled
// item; neither enters the item sample, which the interval part does not
// keep either. Bad bounds are an error naming them.
func (s *Sketch) AddInterval(iv Interval) error {
	if iv.W == 0 {
		iv.W = 1
	}
	if err := checkIntervals([]float64{iv.Lo}, []float64{iv.Hi}, []float64{iv.W}); err != nil {
		return fmt.Errorf("interval (%v, %v] weight %v: %v", iv.Lo, iv.Hi, iv.W, err)
	}
	if s.By != "" {
		return ErrGroupedIntervals
	}
	h := intervalHash(s.Seed, iv)
	fitW, outW := s.split(h, iv.W)
	switch {
	case math.IsInf(iv.Hi, 1):
		it := Item{Age: iv.Lo, Status: Pending}
		s.Fit.add(h, it, fitW, 0, sketchBin(iv.Lo))
		s.HeldOut.add(h, it, outW, 0, sketchBin(iv.Lo))
	case iv.Lo == iv.Hi:
		it := Item{Age: iv.Hi, Status: Settled}
		s.Fit.add(h, it, fitW, 0, sketchBin(iv.Hi))
		s.HeldOut.add(h, it, outW, 0, sketchBin(iv.Hi))
	default:
		s.Fit.addInterval(iv.Lo, iv.Hi, fitW)
		s.HeldOut.addInterval(iv.Lo, iv.Hi, outW)
	}
	return nil
}

// intervalHash is the split's hash of an interval-censored item: the
// rounds of rowHash over the code 3, its creation time in whole
// milliseconds and its ends in whole microseconds (a pending item's
// upper end as 0).
func intervalHash(seed uint64, iv Interval) uint64 {
	hi := int64(0)
	if !math.IsInf(iv.Hi, 1) {
		hi = int64(math.Round(iv.Hi * 1e6))
	}
	h := int64(seed % hashP)
	h = hashRound(h, 3)
	h = hashRound(h, modP(floorDiv(iv.Created, 1e6)))
	h = hashRound(h, modP(int64(math.Round(iv.Lo*1e6))))
	h = hashRound(h, modP(hi))
	return uint64(hashRound(h, 0))
}

// addInterval adds weight w (none for w ≤ 0) of a finite interval.
func (p *SketchPart) addInterval(lo, hi, w float64) {
	if !(w > 0) {
		return
	}
	p.addIntervalStat([2]int{sketchBin(lo), sketchBin(hi)}, ivStat{w, w * lo, w * hi})
	p.Items += w
	p.Final += w
}

func (p *SketchPart) addIntervalStat(k [2]int, v ivStat) {
	if p.intervals == nil {
		p.intervals = map[[2]int]*ivStat{}
	}
	e := p.intervals[k]
	if e == nil {
		e = &ivStat{}
		p.intervals[k] = e
	}
	e.w, e.sumLo, e.sumHi = e.w+v.w, e.sumLo+v.sumLo, e.sumHi+v.sumHi
}

// mergeIntervals adds q's interval part to p's (merge adds the counts).
func (p *SketchPart) mergeIntervals(q *SketchPart) {
	for k, v := range q.intervals {
		p.addIntervalStat(k, *v)
	}
}

// HasIntervals reports whether the part holds interval-censored items.
func (p *SketchPart) HasIntervals() bool { return len(p.intervals) > 0 }

// HasIntervals reports whether either part holds interval-censored
// items.
func (s *Sketch) HasIntervals() bool { return s.Fit.HasIntervals() || s.HeldOut.HasIntervals() }

// Intervals are the part's interval-censored items, one a pair of bins
// at its mean ends, in increasing order of the bins.
func (p *SketchPart) Intervals() []Interval {
	keys := make([][2]int, 0, len(p.intervals))
	for k := range p.intervals {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	out := make([]Interval, len(keys))
	for i, k := range keys {
		v := p.intervals[k]
		lo, hi := v.sumLo/v.w, v.sumHi/v.w
		out[i] = Interval{Lo: lo, Hi: max(hi, lo), W: v.w}
	}
	return out
}

// IntervalSet is the whole part as intervals: its bins' items exact
// ([age, age]) or pending ((age, +Inf)), and its interval part.
func (p *SketchPart) IntervalSet() (*IntervalSet, error) {
	set := &IntervalSet{}
	items, ws := p.Bins()
	for i, it := range items {
		iv := Interval{Lo: it.Age, Hi: it.Age, W: ws[i]}
		if !it.Status.Final() {
			iv.Hi = math.Inf(1)
		}
		if err := set.Add(iv); err != nil {
			return nil, err
		}
	}
	for _, iv := range p.Intervals() {
		if err := set.Add(iv); err != nil {
			return nil, err
		}
	}
	return set, nil
}
