package fit

import (
	"errors"
	"fmt"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// Laws made once. A study fits its items at many budgets (the main fit,
// the fits at the baselines' costs and their brackets, the lag curves),
// and each fit's batch shape fits a cut of them (the items with the
// answers the aligned asks see made pending) again in every round of
// each candidate's graft. The law of a sample (its final and pending
// ages sorted, with their prefix sums) is all a fit reads of it, and it
// is the same each time the sample is: a lawCache keeps one sample's law
// and the laws of its cuts, keyed by what defines the cut, each made
// once by whichever fit asks first and then only read (the fits run in
// parallel). Every fit reads the same arrays it would have sorted
// itself, so its result is the same to the bit.

// cutKind names what a cut of the items makes pending.
type cutKind uint8

const (
	// cutNone: the items as they are.
	cutNone cutKind = iota
	// cutAligned: the answers aligned asks see, but the latest (see
	// alignedSeen): phase ≤ x[1] after a boundary of period x[0], at an
	// age ≤ x[2], all in nanoseconds.
	cutAligned
)

// lawKey says which law of a sample: the sample's own, or a cut's.
type lawKey struct {
	cut cutKind
	x   [3]int64
}

// alignedKey is the key of the cut that alignedSeen defines.
func alignedKey(period, last, until time.Duration) lawKey {
	return lawKey{cut: cutAligned, x: [3]int64{int64(period), int64(last), int64(until)}}
}

// lawCache holds the laws of one sample, smp, and of its cuts. A nil
// cache holds none: every law asked of it is made anew.
type lawCache struct {
	smp  Sample
	laws onceMap[lawKey, *itemLaw]
	// dists are the tables of the study's smoothed densities (see
	// lawCache.distLaw), and replays the replays of smp the shapes'
	// grafts make (see lawCache.replay).
	dists   onceMap[distKey, *distLaw]
	replays onceMap[replayKey, replayDone]
	// tables are the aligned asks of smp's items, by aligned clauses
	// and horizon (see alignedTable).
	tables onceMap[tableKey, *alignedTable]
}

// distKey says which tabulated density: a smoothed density of the
// study's (an *estimate.Dist, only read) on [0, end].
type distKey struct {
	d   *estimate.Dist
	end float64
}

// maxDists bounds the tables a cache keeps: a study's fits share a few
// ends (the give-up age, the horizons of asks-by fits) and densities
// (the one chosen and the bandwidths its cross-validation tries).
const maxDists = 32

func newLawCache(smp Sample) *lawCache {
	c := &lawCache{smp: smp}
	c.dists.max, c.replays.max, c.tables.max = maxDists, maxReplays, maxTables
	return c
}

// distLaw is newDistLaw(d, end): from the cache when d is a smoothed
// density (each of a study's fits at the give-up age tabulates the same
// one, at 4,000 quantiles and 16,000 points), made on the first call
// for (d, end) and then only read; made now for any other d, with a nil
// cache, or once the cache holds maxDists tables.
func (c *lawCache) distLaw(d Distribution, end float64) *distLaw {
	e, ok := d.(*estimate.Dist)
	if c == nil || !ok || e == nil {
		return newDistLaw(d, end)
	}
	return c.dists.get(distKey{e, end}, func() *distLaw { return newDistLaw(d, end) })
}

// law is the law of smp cut as key says, which cut makes: from the
// cache when c holds smp's laws (made on the first call for key), else
// made now.
func (c *lawCache) law(smp Sample, key lawKey, cut func() Sample) *itemLaw {
	if c == nil || !c.holds(smp) {
		return newSampleLaw(cut())
	}
	return c.laws.get(key, func() *itemLaw { return newSampleLaw(cut()) })
}

// holds reports whether smp is the very sample c was made for: the same
// items and weights in memory, not an equal copy, which a bootstrap's
// resample (new weights on the same items) or a subset is not.
func (c *lawCache) holds(smp Sample) bool {
	return sameSlice(smp.Items, c.smp.Items) && sameSlice(smp.Weights, c.smp.Weights)
}

// sameSlice reports whether a and b are the same slice of memory (both
// nil, or the same length from the same first element).
func sameSlice[T any](a, b []T) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0]
}

// sampleLaw is the law of smp from opt's cache (see lawCache.law).
func sampleLaw(smp Sample, opt Options) *itemLaw {
	return opt.laws.law(smp, lawKey{}, func() Sample { return smp })
}

// FitSample is Fit on a sample: each item counts with its weight, as
// ReplaySample will measure it. On an unweighted sample it is Fit.
func FitSample(smp Sample, opt Options) (*Result, error) {
	if err := smp.check(); err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	if smp.Len() == 0 {
		return nil, errors.New("fit: no items")
	}
	return fitLaw(sampleLaw(smp, opt), opt)
}

// fitLaw is FitSample on the law of a sample, made already (and only
// read).
func fitLaw(l *itemLaw, opt Options) (*Result, error) {
	p, err := newProblem(opt)
	if err != nil {
		return nil, err
	}
	end := p.opt.Horizon.Seconds()
	if end <= 0 {
		// As in Fit: cost a schedule that never stops up to the largest
		// age of any item.
		end = l.largest.Seconds()
		p.forever = true
	}
	p.setEnd(end)
	p.l = l
	return p.run()
}

// cutSample is smp with the answers seen cut short (pending at their
// age), but the latest answer, which stays so that a fit keeps the
// plain fit's horizon when it has to find one.
func cutSample(smp Sample, seen func(estimate.Item) bool) Sample {
	items := smp.Items
	latest := -1
	for i, it := range items {
		if it.Status.Final() && smp.Weight(i) > 0 && (latest < 0 || it.Age > items[latest].Age) {
			latest = i
		}
	}
	cut := Sample{Items: make([]estimate.Item, len(items)), Weights: smp.Weights, Scale: smp.Scale}
	for i, it := range items {
		if it.Status.Final() && i != latest && seen(it) {
			it.Status = estimate.Pending
		}
		cut.Items[i] = it
	}
	return cut
}
