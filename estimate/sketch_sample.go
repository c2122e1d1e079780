package estimate

import (
	"cmp"
	"slices"
)

// DefaultSample is the most rows a part's item sample keeps, unless the
// sketch says otherwise: 2¹⁵ rows of 40 bytes, 1.3 MB a part (1.5 MB
// while it fills), so that the 4 sinks of a parallel read, two parts
// each, hold about 12 MB of samples, and a read of a log without signals
// or batches pays little for a sample it does not use.
const DefaultSample = 1 << 15

// MaxSample is the most rows an item sample may keep, as --sample or a
// sketch file's sample= field asks: 2²⁰ rows of 40 bytes, 42 MB a part.
// Memory follows the rows a sample holds, never the size asked.
const MaxSample = 1 << 20

// The item sample. Bins keep ages and statuses; what they cannot keep,
// creation times and signals, a part keeps for a sample of its rows:
// the bottom k of the rows by the key (the split's hash, then the row's
// fields), distinct rows each with the number of times it was added (its
// multiplicity, a weight). The least keys of a union are the least keys
// among the parts' least keys, with the multiplicities of the same row
// added, so samples merge exactly: the sample of a month is the one of
// its days merged, and the same rows give the same sample in any order.
// As the hash is uniform over the distinct rows, the sample is a uniform
// sample of them; while a part has at most k distinct rows it is all of
// them.

// sampleRow is one distinct row of a sample: what Item holds, with the
// split's hash and the multiplicity n. Created and signal are 0 unless
// dated and signalled, so that equal rows compare equal.
type sampleRow struct {
	age, signal float64
	created     int64
	n           float64
	h           uint32
	status      Status
	dated       bool
	signalled   bool
}

// newSampleRow is the sample row of an item of hash h added w times.
func newSampleRow(h uint64, it Item, w float64) sampleRow {
	r := sampleRow{age: it.Age, n: w, h: uint32(h), status: it.Status}
	if it.Dated {
		r.created, r.dated = it.Created, true
	}
	if it.Signalled {
		r.signal, r.signalled = it.Signal, true
	}
	return r
}

// item is the row as an Item.
func (r sampleRow) item() Item {
	return Item{Age: r.age, Created: r.created, Signal: r.signal, Status: r.status, Dated: r.dated, Signalled: r.signalled}
}

// compareRows orders rows by their key: the hash, then the fields.
func compareRows(a, b sampleRow) int {
	if c := cmp.Compare(a.h, b.h); c != 0 {
		return c
	}
	if c := cmp.Compare(a.status, b.status); c != 0 {
		return c
	}
	if c := cmp.Compare(a.age, b.age); c != 0 {
		return c
	}
	if c := cmp.Compare(b2i(a.dated), b2i(b.dated)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.created, b.created); c != 0 {
		return c
	}
	if c := cmp.Compare(b2i(a.signalled), b2i(b.signalled)); c != 0 {
		return c
	}
	return cmp.Compare(a.signal, b.signal)
}

// rowSample is a part's item sample: rows[:sorted] distinct and in key
// order, the rows added since after them; it holds at most slack(k).
type rowSample struct {
	k      int // the most distinct rows kept; 0 until the first row
	rows   []sampleRow
	sorted int
	// capped: a row was dropped, so the sample stands for more rows
	// than it holds, and rows keyed above the cut's are not kept.
	capped bool
	cut    sampleRow
	// scratch holds the new rows while they merge into the sorted ones,
	// and keys sorts them.
	scratch []sampleRow
	keys    []uint64
}

// slack is the most rows a sample of k holds before it compacts: an
// eighth more, so that a compaction sorts only the few rows added since
// the last and merges them into the rest in one sweep.
func slack(k int) int { return k + max(k/8, 1) }

// add adds a row to a sample of at most k distinct rows.
// wants reports whether a row of hash h may enter a sample of k rows:
// rows keyed above the cut never do, whatever their other fields, when
// their hash alone is above the cut's. A cheap test before the row is
// built.
func (s *rowSample) wants(h uint64, k int) bool {
	return k > 0 && (!s.capped || uint32(h) <= s.cut.h)
}

func (s *rowSample) add(r sampleRow, k int) {
	if k <= 0 || s.capped && compareRows(r, s.cut) > 0 {
		return
	}
	s.k = k
	if len(s.rows) == cap(s.rows) {
		s.grow(k)
	}
	s.rows = append(s.rows, r)
	if len(s.rows)-s.sorted >= slack(k)-k {
		s.compact(k)
	}
}

// clone is a copy of s that shares no memory with it.
func (s *rowSample) clone() rowSample {
	c := rowSample{k: s.k, rows: slices.Clone(s.rows), sorted: s.sorted, capped: s.capped, cut: s.cut}
	return c
}

// grow makes room for more rows: twice as many, or all of slack(k) once
// that is less than four times as many, so that little memory is left
// behind as the sample fills.
func (s *rowSample) grow(k int) {
	c := max(2*cap(s.rows), 64)
	if 4*c >= slack(k) {
		c = slack(k)
	}
	grown := make([]sampleRow, len(s.rows), max(c, len(s.rows)+1))
	copy(grown, s.rows)
	s.rows = grown
}

// compact sorts the rows added since the last compaction, merges them
// into the sorted ones, adds up equal rows and keeps the k least.
func (s *rowSample) compact(k int) {
	s.sortTail()
	out := s.rows
	if mergeBack(s.rows, s.sorted, s.scratch) {
		out = s.rows[:0]
		for _, r := range s.rows {
			if n := len(out); n > 0 && compareRows(out[n-1], r) == 0 {
				out[n-1].n += r.n
				continue
			}
			out = append(out, r)
		}
	}
	s.k = k
	if len(out) > k {
		s.capped, s.cut = true, out[k-1]
		out = out[:k]
	}
	s.rows, s.sorted = out, len(out)
}

// sortTail copies the rows added since the last compaction to scratch,
// in key order: sorted by hash as integers (hash and index in one
// word), then each run of one hash by the whole key.
func (s *rowSample) sortTail() {
	tail := s.rows[s.sorted:]
	if cap(s.keys) < len(tail) { // exactly: a tail is at most slack(k) − k
		s.keys, s.scratch = make([]uint64, 0, len(tail)), make([]sampleRow, 0, len(tail))
	}
	s.keys = s.keys[:0]
	for i, r := range tail {
		s.keys = append(s.keys, uint64(r.h)<<32|uint64(i))
	}
	slices.Sort(s.keys)
	s.scratch = s.scratch[:0]
	for _, key := range s.keys {
		s.scratch = append(s.scratch, tail[uint32(key)])
	}
	for i := 0; i < len(s.scratch); {
		j := i + 1
		for j < len(s.scratch) && s.scratch[j].h == s.scratch[i].h {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(s.scratch[i:j], compareRows)
		}
		i = j
	}
}

// mergeBack merges the sorted rows[:a] and the sorted b into
// rows[:a+len(b)], from the back, and reports whether some rows have the
// same hash (and so may be equal).
func mergeBack(rows []sampleRow, a int, b []sampleRow) (ties bool) {
	for j := 1; j < len(b) && !ties; j++ {
		ties = b[j-1].h == b[j].h
	}
	i, j := a-1, len(b)-1
	for w := a + len(b) - 1; j >= 0; w-- {
		x, y := &rows[max(i, 0)], &b[j]
		after := i >= 0 && x.h > y.h
		if i >= 0 && x.h == y.h {
			ties = true
			after = compareRows(*x, *y) > 0
		}
		if after {
			rows[w], i = *x, i-1
		} else {
			rows[w], j = *y, j-1
		}
	}
	return ties
}

// merge adds the rows of q into a sample of at most k rows, merging the
// two sorted samples into the spare buffer in one sweep.
func (s *rowSample) merge(q *rowSample, k int) {
	if k <= 0 {
		*s = rowSample{}
		return
	}
	for _, x := range []*rowSample{s, q} {
		if x.k > 0 {
			x.compact(x.k)
		}
	}
	if q.capped && (!s.capped || compareRows(q.cut, s.cut) < 0) {
		s.cut = q.cut // the lesser cut: rows above it may be missing
	}
	s.capped = s.capped || q.capped
	out := s.scratch[:0]
	if n := min(len(s.rows)+len(q.rows), k); cap(out) < n {
		out = make([]sampleRow, 0, n) // the rows there are, never k
	}
	a, b := s.rows, q.rows
	for len(a)+len(b) > 0 {
		var r sampleRow
		if len(b) == 0 || len(a) > 0 && compareRows(a[0], b[0]) <= 0 {
			r, a = a[0], a[1:]
		} else {
			r, b = b[0], b[1:]
		}
		if n := len(out); n > 0 && compareRows(out[n-1], r) == 0 {
			out[n-1].n += r.n
			continue
		}
		if len(out) == k { // a (k+1)-th distinct row: dropped
			s.capped, s.cut = true, out[k-1]
			break
		}
		out = append(out, r)
	}
	s.k, s.rows, s.scratch, s.sorted = k, out, s.rows[:0], len(out)
}

// total is the sum of the rows' multiplicities: the rows the sample
// holds.
func (s *rowSample) total() float64 {
	var t float64
	for _, r := range s.rows {
		t += r.n
	}
	return t
}

// Sampled is the part's item sample: its distinct rows in the order of
// their keys, each weighted by the rows it stands for, so that the
// weights add up to Items. While the sample holds every row of the part
// (exact, scale 1), a row's weight is the number of times it was added;
// beyond k distinct rows, that times scale, Items over the rows the
// sample holds. A part of a sketch without a sample (Sketch.HasSample)
// has none.
func (p *SketchPart) Sampled() (items []Item, weights []float64, scale float64) {
	s := &p.sample
	if s.k > 0 {
		s.compact(s.k)
	}
	scale = 1.0
	if t := s.total(); s.capped && t > 0 {
		scale = p.Items / t
	}
	items, weights = make([]Item, 0, len(s.rows)), make([]float64, 0, len(s.rows))
	for _, r := range s.rows {
		items = append(items, r.item())
		weights = append(weights, r.n*scale)
	}
	return items, weights, scale
}

// SamplePeriodicity is Periodicity of the settle times of day of the
// item sample: every row of a log up to the sample's size, a uniform
// sample by hash beyond, each row counted as often as it came (not as
// the rows it stands for, which would overstate the test's evidence).
// It is nil for a sketch without a sample. Folding the sample, not every
// row, keeps the batch probe out of a read pass.
func (s *Sketch) SamplePeriodicity(opt PeriodOptions) *Period {
	if !s.HasSample() {
		return nil
	}
	acc := &Accumulator{}
	for _, part := range []*SketchPart{&s.Fit, &s.HeldOut} {
		items, ws, scale := part.Sampled()
		for i, it := range items {
			acc.AddPhase(it, ws[i]/scale)
		}
	}
	return Periodicity(acc, opt)
}
