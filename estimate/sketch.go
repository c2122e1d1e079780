package estimate

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pollfit/pollfit/internal/opterr"
	"gonum.org/v1/gonum/stat/distuv"
)

// SketchVersion is the version of the sketch file format that
// WriteSketch writes; ReadSketch also reads version 1, which has no
// segment column.
const SketchVersion = 2

// A Sketch is the fixed-size summary of a settle-time log that fits and
// replays need, in two parts: the items to fit on and the items held out
// to measure on, chosen by a hash of each row so that any engine can
// reproduce the split. Each part holds final and pending weights with
// the sum of their ages in log-spaced age bins (10000 a decade from 1 ms:
// 0.023% wide), so that replaying a bin at its mean age is exact unless
// an ask falls inside it, and off by less than the bin's width when one
// does. Sketches of the same split merge by adding: one a day, merged
// into a month. A sketch takes at most 25 MB in memory, whatever the
// size of the log (the bins its items use: sparse while they are few, in
// 4 kB pages of bins from then on); its file holds only the bins with
// items.
//
// Bins keep no creation times or signals, which wall-clock aligned asks,
// batch shapes and reset on signal need: for those, each part also keeps
// a sample of its rows, the Sample rows with the least hash (the split's
// hash, so any row is as likely to be kept), each with its creation time
// and signal and weighted by the rows it stands for. The sample too
// merges exactly, and holds every row of a part that has at most Sample
// distinct rows; beyond, a log with signals or batches is fitted and
// measured on a uniform sample by hash of Sample rows a part (see
// SketchPart.Sampled). A sketch of DefaultSample rows a part takes
// about 3 MB more once its parts hold that many rows. A SQL engine's
// sketch and a Parquet sketch file have no sample.
type Sketch struct {
	// Holdout is the share of rows hashed to the held-out part, and Seed
	// the hash's seed.
	Holdout float64
	Seed    uint64
	// Sample is the most distinct rows each part's item sample keeps;
	// 0: the sketch keeps no sample.
	Sample int
	// GroupSample is the most distinct rows the item sample of each
	// part of each value of a grouped sketch keeps, by the same hash
	// (0, the default: the values keep bins only). A value's sample is
	// then the one a sketch of that value's rows alone, of Sample
	// GroupSample, would keep. Sketch files keep no value's sample.
	GroupSample int
	// Fit and HeldOut are the parts (of all groups together, in a
	// grouped sketch).
	Fit, HeldOut SketchPart
	// By is the column a grouped sketch is split by ("" when it is
	// not), and Groups its sketch of each value of the column, in the
	// order the values came (see NewGroupedSketch).
	By       string
	Groups   []*SketchGroup
	segIndex map[string]int
	touched  float64 // what AddRun reads ahead, kept so that it is read
	// Dropped counts, by reason, the rows a SQL engine's query left out
	// of its sketch (its rows of kind dropped), which the log readers
	// would have refused or skipped (see SketchSQL); nil for none.
	// Merge adds them up; WriteSketch does not write them: whoever
	// reads a SQL sketch reports them, as the readers' skipped rows.
	Dropped map[string]float64
	// noSplit marks an empty SQL export, which names no split: it
	// merges into a sketch of any split.
	noSplit bool
}

// The sketch's age bins: bin 0 holds ages below sketchMin, bins
// 1..sketchBins cover [sketchMin, sketchMax) in sketchPerDecade
// log-spaced bins a decade, and the last bin ages from sketchMax on.
const (
	sketchMin       = 1e-3
	sketchMax       = 1e10
	sketchPerDecade = 10000
	sketchBins      = 13 * sketchPerDecade
	nSketchBins     = sketchBins + 2
	// sketchNudge is added to the scaled logarithm before rounding it
	// down, so that an age on a bin's lower edge (1 s, 10 s) falls in
	// that bin whichever engine's log10 computes it, a few units in the
	// last place off.
	sketchNudge = 1e-9
)

// sketchBin is the sketch's bin of an age in seconds.
func sketchBin(age float64) int {
	if age < sketchMin {
		return 0
	}
	if age >= sketchMax {
		return nSketchBins - 1
	}
	i := int(math.Floor(math.Log10(age/sketchMin)*sketchPerDecade+sketchNudge)) + 1
	return min(max(i, 1), sketchBins)
}

// SketchPart is one part of a sketch: its weighted counts, and the
// settled, failed and pending items by age bin. A copy of a part shares
// its bins with the original: merge a part into an empty one to have
// one of its own.
type SketchPart struct {
	// Items, Final, Pending and Failed are weighted counts.
	Items, Final, Pending, Failed float64
	settled, failed, pending      kindBins
	sample                        rowSample
	// intervals are the items known only to lie in a finite interval
	// (lo, hi], lo < hi, by the bins of lo and hi (see AddInterval).
	intervals map[[2]int]*ivStat
}

// clone is a copy of p that shares no memory with it.
func (p *SketchPart) clone() SketchPart {
	out := *p
	out.settled, out.failed, out.pending = p.settled.clone(), p.failed.clone(), p.pending.clone()
	out.sample = p.sample.clone()
	out.intervals = nil
	out.mergeIntervals(p)
	return out
}

// add adds an item of hash h whose age is in bin b, standing for w
// identical ones (none for w ≤ 0), to a sample of at most k rows.
func (p *SketchPart) add(h uint64, it Item, w float64, k, b int) {
	if !usable(it.Age, w) {
		return
	}
	if p.sample.wants(h, k) {
		p.sample.add(newSampleRow(h, it, w), k)
	}
	p.Items += w
	if !it.Status.Final() {
		p.Pending += w
		addLeast(p.pending.at(b), it.Age, w)
		return
	}
	p.Final += w
	if it.Status == Failed {
		p.Failed += w
		addLeast(p.failed.at(b), it.Age, w)
		return
	}
	addLeast(p.settled.at(b), it.Age, w)
}

// In a sketch, a bin's first age is the least age it has seen, so that
// the same rows give the same sketch in any order, and the same as a SQL
// engine's min(age).

// addLeast adds an age to a sketch's bin.
func addLeast(b *binStat, age, w float64) {
	b.add(age, w)
	b.first = min(b.first, age)
}

// mergeLeast merges sketch bin q into p.
func mergeLeast(p, q *binStat) {
	least := min(p.first, q.first)
	empty := p.w == 0
	mergeBin(p, q)
	if !empty && q.w > 0 {
		p.first = least
	}
}

// Merge adds the items of q to p, bins only: a sketch's two parts
// merged are all its items (their samples are not merged).
func (p *SketchPart) Merge(q *SketchPart) { p.merge(q, 0) }

// merge adds q to p, keeping a sample of at most k rows (none for k 0).
func (p *SketchPart) merge(q *SketchPart, k int) {
	p.sample.merge(&q.sample, k)
	p.mergeIntervals(q)
	for j, t := range p.kinds() {
		t.merge(q.kinds()[j])
	}
	p.Items += q.Items
	p.Final += q.Final
	p.Pending += q.Pending
	p.Failed += q.Failed
}

// NewSketch returns an empty sketch that holds out a share holdout of
// the rows (0 ≤ holdout < 1), by a hash seeded with seed, with samples
// of DefaultSample rows.
func NewSketch(holdout float64, seed uint64) (*Sketch, error) {
	if err := opterr.Holdout(holdout); err != nil {
		return nil, fmt.Errorf("sketch: %w", err)
	}
	return &Sketch{Holdout: holdout, Seed: seed, Sample: DefaultSample}, nil
}

// HasSample reports whether the sketch keeps an item sample.
func (s *Sketch) HasSample() bool { return s.Sample > 0 }

// Add adds an item standing for w identical rows. A single row (w = 1)
// goes to the part its hash chooses; a weighted row (a histogram bin) is
// thinned binomially, seeded by its hash, so that its share held out is
// about Holdout. In a grouped sketch, Add counts the row in no group:
// use AddBy.
func (s *Sketch) Add(it Item, w float64) {
	s.add(rowHash(s.Seed, it), it, w, fastSketchBin(it.Age), nil)
}

// add is Add for an item of hash h whose age is in bin b, and AddBy for
// group g when it is not nil (its sample of GroupSample rows).
func (s *Sketch) add(h uint64, it Item, w float64, b int, g *SketchGroup) {
	fitW, outW := s.split(h, w)
	s.Fit.add(h, it, fitW, s.Sample, b)
	s.HeldOut.add(h, it, outW, s.Sample, b)
	if g != nil {
		g.Fit.add(h, it, fitW, s.GroupSample, b)
		g.HeldOut.add(h, it, outW, s.GroupSample, b)
	}
}

// split is how much of an item of hash h standing for w rows goes to
// each part.
func (s *Sketch) split(h uint64, w float64) (fitW, outW float64) {
	return splitRow(h, w, s.Holdout, s.Seed)
}

// splitRow is split for the split of share held out and seed.
func splitRow(h uint64, w, share float64, seed uint64) (fitW, outW float64) {
	if w == 1 {
		if held(h, share) {
			return 0, 1
		}
		return 1, 0
	}
	if n := math.Floor(w); n > 0 && share > 0 && !math.IsInf(w, 0) {
		outW = distuv.Binomial{N: n, P: share, Src: rand.NewPCG(h, seed)}.Rand()
	}
	return w - outW, outW
}

// SplitRow is how much of a row standing for w rows (1 for a row of a
// log) the split of share held out and seed puts in each part, as Add
// does: for a caller that keeps the rows themselves and must split them
// as a sketch of the same log would.
func SplitRow(it Item, w, share float64, seed uint64) (fitW, outW float64) {
	return splitRow(rowHash(seed, it), w, share, seed)
}

// Merge adds the rows of t to s; both must have the same split and the
// same group column (or none), and groups merge value by value. The
// samples merge to the smaller Sample of the two (none when either has
// none), and the values' to the smaller GroupSample.
func (s *Sketch) Merge(t *Sketch) error {
	switch {
	case t.noSplit && t.Empty():
		s.addDropped(t.Dropped)
		return nil
	case s.noSplit && s.Empty():
		dropped := s.Dropped
		*s = *t
		s.Fit, s.HeldOut = t.Fit.clone(), t.HeldOut.clone()
		s.Dropped = nil
		s.addDropped(t.Dropped)
		s.addDropped(dropped)
		return nil
	}
	if s.Holdout != t.Holdout || s.Seed != t.Seed {
		return fmt.Errorf("sketch: merge a split of %g (seed %d) into one of %g (seed %d): sketches merge only with the same hold-out share and seed",
			t.Holdout, t.Seed, s.Holdout, s.Seed)
	}
	if s.By != t.By {
		return fmt.Errorf("sketch: merge a sketch %s into one %s: sketches merge only when grouped by the same column", byText(t.By), byText(s.By))
	}
	if n := len(s.Groups) + s.newValues(t); n > MaxSketchGroups && s.By != "" {
		return fmt.Errorf("sketch: merged, %d values of %s: a grouped sketch keeps at most %d", n, s.By, MaxSketchGroups)
	}
	s.GroupSample = min(s.GroupSample, t.GroupSample)
	for _, g := range t.Groups {
		d, err := s.group(g.Value)
		if err != nil {
			return err
		}
		d.Fit.merge(&g.Fit, s.GroupSample)
		d.HeldOut.merge(&g.HeldOut, s.GroupSample)
	}
	s.addDropped(t.Dropped)
	s.Sample = min(s.Sample, t.Sample)
	s.Fit.merge(&t.Fit, s.Sample)
	s.HeldOut.merge(&t.HeldOut, s.Sample)
	return nil
}

// addDropped adds counts of dropped rows to s's.
func (s *Sketch) addDropped(d map[string]float64) {
	for r, n := range d {
		if s.Dropped == nil {
			s.Dropped = map[string]float64{}
		}
		s.Dropped[r] += n
	}
}

// Empty reports whether the sketch has no items.
func (s *Sketch) Empty() bool { return s.Fit.Items+s.HeldOut.Items == 0 }

// held reports whether hash h falls in the held-out share.
func held(h uint64, share float64) bool {
	return share > 0 && h < holdThreshold(share)
}

// The split's hash works modulo the Mersenne prime hashP = 2³¹−1 with
// integers only, so that every product stays below 2⁶² and a SQL
// engine's signed 64-bit arithmetic reproduces it (see the package doc).
const (
	hashP = 1<<31 - 1
	hashM = 1103515245 // the field multiplier
	hashK = 48271      // the squaring round's multiplier
)

// holdThreshold is T = ⌈share·P⌉ (the product in float64): a row is
// held out when its hash is below T.
func holdThreshold(share float64) uint64 {
	return uint64(math.Ceil(share * hashP))
}

// rowHash is the split's hash of a row (the package doc defines it): the
// seed, then the row's status code, creation time in whole milliseconds
// and age in whole microseconds, each mixed in by hashRound, and a last
// round; the same row always hashes alike, in any engine.
func rowHash(seed uint64, it Item) uint64 {
	var created int64
	if it.Dated {
		created = floorDiv(it.Created, 1e6)
	}
	h := int64(seed % hashP)
	h = hashRound(h, int64(it.Status))
	h = hashRound(h, modP(created))
	h = hashRound(h, modP(int64(math.Round(it.Age*1e6))))
	return uint64(hashRound(h, 0))
}

// rowHashes sets hs[i] to rowHash(seed, items[i]). It hashes four rows
// at a time, round by round, so that their multiplications overlap, and
// the first round, of the seed and the status only, once per status.
func rowHashes(seed uint64, items []Item, hs []uint64) {
	var first [4]int64 // hashRound(seed, status) for the first statuses
	for st := range first {
		first[st] = hashRound(int64(seed%hashP), int64(st))
	}
	start := func(st Status) int64 {
		if int(st) < len(first) {
			return first[st]
		}
		return hashRound(int64(seed%hashP), int64(st))
	}
	j := 0
	for ; j+4 <= len(items); j += 4 {
		var h, c, a [4]int64
		for l := range 4 {
			it := &items[j+l]
			h[l], c[l], a[l] = start(it.Status), createdCode(it), ageCode(it)
		}
		for l := range 4 {
			h[l] = hashRound(h[l], c[l])
		}
		for l := range 4 {
			h[l] = hashRound(h[l], a[l])
		}
		for l := range 4 {
			hs[j+l] = uint64(hashRound(h[l], 0))
		}
	}
	for ; j < len(items); j++ {
		hs[j] = rowHash(seed, items[j])
	}
}

// createdCode is rowHash's creation-time term: whole milliseconds mod P
// (0 when unknown).
func createdCode(it *Item) int64 {
	switch {
	case !it.Dated:
		return 0
	case it.Created >= 0:
		return modMersenne(it.Created / 1e6)
	}
	return modP(floorDiv(it.Created, 1e6))
}

// ageCode is rowHash's age term: whole microseconds mod P.
func ageCode(it *Item) int64 {
	us := int64(math.Round(it.Age * 1e6))
	if us >= 0 {
		return modMersenne(us)
	}
	return modP(us)
}

// hashRound mixes x (0 ≤ x < P) into h (0 ≤ h < P): y = (h·M + x) mod P,
// then (((y·y) mod P)·K + y) mod P. No intermediate reaches 2⁶³.
func hashRound(h, x int64) int64 {
	y := modMersenne(h*hashM + x)
	return modMersenne(modMersenne(y*y)*hashK + y)
}

// modMersenne is x mod P for 0 ≤ x < 2⁶³, without a division: as
// 2³¹ ≡ 1 (mod P), folding the high bits onto the low ones keeps the
// residue.
func modMersenne(x int64) int64 {
	r := x&hashP + x>>31 // < 2³³
	r = r&hashP + r>>31  // < 2³¹ + 4
	if r >= hashP {
		r -= hashP
	}
	return r
}

// modP is x mod P in [0, P).
func modP(x int64) int64 { return (x%hashP + hashP) % hashP }

// floorDiv is ⌊a/b⌋ for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}
