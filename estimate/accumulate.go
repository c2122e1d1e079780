package estimate

import (
	"math"
)

// The accumulator's age histogram: bin 0 holds ages below histMin, bins
// 1..histBins cover [histMin, histMax) in histPerDecade log-spaced bins a
// decade, and the last bin holds ages from histMax on. 1 ms to 10¹⁰ s
// (three centuries) covers payments and, for checking, lifetimes.
const (
	histMin       = 1e-3
	histMax       = 1e10
	histPerDecade = 1000
	histBins      = 13 * histPerDecade
	nAgeBins      = histBins + 2
)

// The phase histogram: settle timestamps modulo one day in 100 ms bins.
const (
	daySeconds   = 86400
	phaseBinNS   = int64(100e6)
	dayNS        = int64(daySeconds) * int64(1e9)
	nPhaseBins   = int(dayNS / phaseBinNS)
	granularTolN = int64(1000) // 1 µs: float ages round-trip through ns
)

// usable reports whether an item of age age standing for w rows can be
// counted: both finite, the age ≥ 0 and the weight > 0. The accumulator
// and the sketch drop the rest.
func usable(age, w float64) bool {
	return age >= 0 && age <= math.MaxFloat64 && w > 0 && w <= math.MaxFloat64 // false for NaN
}

// ageBin returns the histogram bin of an age in seconds.
func ageBin(age float64) int {
	if age < histMin {
		return 0
	}
	if age >= histMax {
		return nAgeBins - 1
	}
	i := int(math.Log10(age/histMin)*histPerDecade) + 1
	return min(max(i, 1), histBins)
}

// binStat is one side (final or censored) of one age bin.
type binStat struct {
	w, sum float64 // total weight and weighted sum of ages
	first  float64 // the first age seen in the bin
	mixed  bool    // whether the bin has seen an age other than first
}

func (b *binStat) add(age, w float64) {
	if b.w == 0 {
		b.first = age
	} else if age != b.first {
		b.mixed = true
	}
	b.w += w
	b.sum += w * age
}

// age is the bin's representative age: the common age when every item in
// the bin had the same one, the weighted mean otherwise.
func (b *binStat) age() float64 {
	if !b.mixed {
		return b.first
	}
	return b.sum / b.w
}

// Accumulator reduces a stream of items to what the estimators need, in
// memory that does not grow with the number of items: about 0.8 MB for
// the age histograms plus up to 7 MB for the phase histogram of the
// items with a known creation time that have settled (tens of kB for a
// few thousand). Its zero value is empty and ready to
// use. Counts are weighted: Add counts an item once, AddWeighted w times.
type Accumulator struct {
	final, censored [nAgeBins]binStat
	failed          [nAgeBins]float64 // the failed part of final

	// Items, Final, Pending, Settled and Failed are weighted counts.
	Items, Final, Pending, Settled, Failed float64
	// Dropped counts items ignored for a negative, NaN or infinite age or
	// a weight that is not positive and finite.
	Dropped int64

	ageFrac  bool // some final age is not a whole second
	ageNotMn bool // some final age is not a whole minute

	phase     []float64         // final-answer weight by settle time of day
	phaseBins map[int32]float64 // the same, sparse, until phase is made
	phaseW    float64
	tsFrac    bool // some settle timestamp is not a whole second
	tsNotMin  bool // some settle timestamp is not a whole minute
	tsNot100m bool // some settle timestamp is not a multiple of 100 ms
}

// written returns n zeros, in memory already written. A large slice comes
// in pages fresh from the operating system, and adding to a page first
// reads it, which maps the shared page of zeros; the write that follows
// then faults again and flushes every CPU's TLB. Writing first faults
// once.
func written(n int) []float64 {
	s := make([]float64, n)
	clear(s)
	return s
}

// Add adds one item.
func (a *Accumulator) Add(it Item) { a.AddWeighted(it, 1) }

// AddRun adds each of items, items[i] standing for ws[i] identical ones.
// It is the one way items are added.
func (a *Accumulator) AddRun(items []Item, ws []float64) {
	ageTable.once.Do(ageTable.build)
	search := ageTable.search
	ws = ws[:len(items)]
	for i := range items {
		it, w := &items[i], ws[i]
		age := it.Age
		if !usable(age, w) {
			a.Dropped++
			continue
		}
		a.Items += w
		b, out := ageTable.outside(age)
		if !out {
			b = search.find(age)
		}
		if !it.Status.Final() {
			a.Pending += w
			a.censored[b].add(age, w)
			continue
		}
		a.Final += w
		if it.Status == Failed {
			a.Failed += w
			a.failed[b] += w
		} else {
			a.Settled += w
		}
		a.final[b].add(age, w)
		if !a.ageFrac {
			a.ageFlags(age)
		}
		if it.Dated && age <= maxPhaseAge {
			a.foldPhase(settlePhase(it.Created, age), w)
		}
	}
}

// AddWeighted adds an item standing for w identical items, as histogram
// inputs do.
func (a *Accumulator) AddWeighted(it Item, w float64) {
	a.AddRun([]Item{it}, []float64{w})
}

// Dated is the weight of the final items with a creation time: those
// whose settle time of day Periodicity folds.
func (a *Accumulator) Dated() float64 { return a.phaseW }

// AddPhase folds only the settle time of day of a final item with a
// creation time, which is all Periodicity and TimestampResolution read:
// a pass that bins the ages elsewhere (into a Sketch) probes for batches
// at a fraction of AddWeighted's cost. The item is skipped where
// AddWeighted would drop it.
func (a *Accumulator) AddPhase(it Item, w float64) {
	if !usable(it.Age, w) || !it.Status.Final() || !it.HasCreated() || it.Age > maxPhaseAge {
		return
	}
	a.foldPhase(settlePhase(it.Created, it.Age), w)
}

// maxPhaseAge is the greatest age in seconds whose settle time of day is
// folded: beyond any sensible age, it keeps the ns arithmetic exact.
const maxPhaseAge = 1e9

// settlePhase is the time of day in ns, in [0, dayNS), at which an item
// created at created (Unix ns) settled at age seconds, 0 ≤ age ≤
// maxPhaseAge.
func settlePhase(created int64, age float64) int64 {
	ph := (created + roundNonNeg(age*1e9)) % dayNS
	if ph < 0 {
		ph += dayNS
	}
	return ph
}

// roundNonNeg is int64(math.Round(x)) for 0 ≤ x < 2⁶³, in fewer steps:
// x less its whole part is exact.
func roundNonNeg(x float64) int64 {
	r := int64(x)
	if x-float64(r) >= 0.5 {
		r++
	}
	return r
}

// addPhase adds w final items settled ph ns into their day (ph in [0,
// dayNS)) to the dense phase histogram. Inlined, with the rare
// work out of line: a call in AddRun's loop would save and restore its
// counts on every item.
func (a *Accumulator) addPhase(ph int64, w float64) {
	a.phase[uint64(ph)/uint64(phaseBinNS)] += w
	if !a.tsNot100m {
		a.phaseFlags(ph)
	}
}

// phaseFlags notes a settle time ph ns into the day that is not a whole
// 100 ms, second or minute. Once tsNot100m is set, so are the others: off
// 100 ms is off a second and a minute.
func (a *Accumulator) phaseFlags(ph int64) {
	a.tsNot100m = !nearMultiple(ph, phaseBinNS)
	a.tsFrac = a.tsFrac || !nearMultiple(ph, 1e9)
	a.tsNotMin = a.tsNotMin || !nearMultiple(ph, 60e9)
}

// ageFlags notes a final age that is not a whole second or minute. Once
// ageFrac is set, so is ageNotMn: a fraction of a second is no whole
// minute.
func (a *Accumulator) ageFlags(age float64) {
	a.ageFrac = age != math.Trunc(age)
	a.ageNotMn = a.ageNotMn || math.Mod(age, 60) != 0
}

// nearMultiple reports whether x (≥ 0) is within granularTolN of a
// multiple of m.
func nearMultiple(x, m int64) bool {
	r := x % m
	return r <= granularTolN || m-r <= granularTolN
}

// Merge adds the contents of b to a, so that several goroutines can each
// fill their own accumulator.
func (a *Accumulator) Merge(b *Accumulator) {
	for i := range a.final {
		mergeBin(&a.final[i], &b.final[i])
		mergeBin(&a.censored[i], &b.censored[i])
		a.failed[i] += b.failed[i]
	}
	a.Items += b.Items
	a.Final += b.Final
	a.Pending += b.Pending
	a.Settled += b.Settled
	a.Failed += b.Failed
	a.Dropped += b.Dropped
	a.ageFrac = a.ageFrac || b.ageFrac
	a.ageNotMn = a.ageNotMn || b.ageNotMn
	a.mergePhase(b)
	a.tsFrac = a.tsFrac || b.tsFrac
	a.tsNotMin = a.tsNotMin || b.tsNotMin
	a.tsNot100m = a.tsNot100m || b.tsNot100m
}

func mergeBin(a, b *binStat) {
	if b.w == 0 {
		return
	}
	if a.w == 0 {
		*a = *b
		return
	}
	a.mixed = a.mixed || b.mixed || a.first != b.first
	a.w += b.w
	a.sum += b.sum
}

// FailedShare is the share of the final answers at ages in [lo, hi]
// that are failures, NaN when there are none. Ages count by histogram
// bin (a thousand a decade: 0.23% of the age), a bin by where its mean
// age falls.
func (a *Accumulator) FailedShare(lo, hi float64) float64 {
	var fin, failed float64
	for i := range a.final {
		if b := &a.final[i]; b.w > 0 && b.age() >= lo && b.age() <= hi {
			fin += b.w
			failed += a.failed[i]
		}
	}
	if fin == 0 {
		return math.NaN()
	}
	return failed / fin
}

// AgeResolution is the granularity of the final ages in seconds: 60 when
// every final age is a whole number of minutes, 1 when every one is a
// whole number of seconds, 0 otherwise (or when there are none).
func (a *Accumulator) AgeResolution() float64 {
	switch {
	case a.Final == 0 || a.ageFrac:
		return 0
	case !a.ageNotMn:
		return 60
	}
	return 1
}

// TimestampResolution is the granularity of the wall-clock settle times
// of final items with a known creation time: 60 (whole minutes), 1 (whole
// seconds), 0.1 (multiples of 100 ms) or 0 (finer, or none known).
func (a *Accumulator) TimestampResolution() float64 {
	switch {
	case a.phaseW == 0 || a.tsNot100m:
		return 0
	case a.tsFrac:
		return 0.1
	case a.tsNotMin:
		return 1
	}
	return 60
}

// Survival returns the Kaplan–Meier estimate from the accumulated
// histogram. Each bin contributes its final items at their common age, or
// their mean age when they differ (bins are 0.23% wide), and likewise its
// censored items.
func (a *Accumulator) Survival() *Survival {
	var t, w []float64
	var final []bool
	for i := range a.final {
		if f := &a.final[i]; f.w > 0 {
			t, final, w = append(t, f.age()), append(final, true), append(w, f.w)
		}
		if c := &a.censored[i]; c.w > 0 {
			t, final, w = append(t, c.age()), append(final, false), append(w, c.w)
		}
	}
	s := KaplanMeier(t, final, w)
	s.Resolution = max(a.AgeResolution(), a.tieGrid())
	return s
}

// tieGrid is the package's tieGrid on the bins whose final items all
// share one age, when those bins hold most of the final weight (a bin of
// mixed ages says nothing about ties).
func (a *Accumulator) tieGrid() float64 {
	var t, d []float64
	single := 0.0
	for i := range a.final {
		if f := &a.final[i]; f.w > 0 && !f.mixed {
			t, d = append(t, f.first), append(d, f.w)
			single += f.w
		}
	}
	if single < a.Final/2 {
		return 0
	}
	return tieGrid(t, d)
}
