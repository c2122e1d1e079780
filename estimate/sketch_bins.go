package estimate

import (
	"maps"
	"math"
	"slices"
)

// A sketch part keeps each kind of item (settled, failed, pending) in a
// kindBins: sparse while few of its bins are used, in pages of bins
// from then on. A value of a column of many values, of a few thousand
// rows, so costs a few hundred kB rather than the 12.5 MB of every bin,
// and a big part the pages its ages touch.
const (
	// sparseBins is how many bins a kindBins keeps sparse (about 48
	// bytes a bin) before it turns dense.
	sparseBins = 1 << 14
	pageShift  = 7 // a page is 128 bins of 32 bytes: 4 kB
	pageBins   = 1 << pageShift
	nPages     = (nSketchBins + pageBins - 1) / pageBins
	// chunkShift sizes the chunks of a sparse table's bins: 256 a
	// chunk, so that growing it copies nothing.
	chunkShift = 8
	chunkBins  = 1 << chunkShift
)

// kindBins is the age bins of one kind of a sketch part. Its zero value
// is empty.
type kindBins struct {
	pages [][]binStat     // dense: nPages pages, nil until used
	slot  map[int32]int32 // sparse: a bin's index in used and bins
	used  [][]binStat     // sparse: the bins used, in chunks
	bins  []int32         // sparse: the bin of each of used
}

// at is bin b, made if it was not there; the pointer holds until the
// next call to at.
func (t *kindBins) at(b int) *binStat {
	if t.pages != nil {
		return t.page(b)
	}
	if i, ok := t.slot[int32(b)]; ok {
		return &t.used[i>>chunkShift][i&(chunkBins-1)]
	}
	if len(t.bins) >= sparseBins {
		t.densify()
		return t.page(b)
	}
	i := len(t.bins)
	if t.slot == nil {
		t.slot = make(map[int32]int32)
	}
	if i&(chunkBins-1) == 0 {
		t.used = append(t.used, make([]binStat, chunkBins))
	}
	t.slot[int32(b)] = int32(i)
	t.bins = append(t.bins, int32(b))
	return &t.used[i>>chunkShift][i&(chunkBins-1)]
}

// page is the dense bin b, making its page if it was not there.
func (t *kindBins) page(b int) *binStat {
	pg := t.pages[b>>pageShift]
	if pg == nil {
		pg = make([]binStat, pageBins)
		t.pages[b>>pageShift] = pg
	}
	return &pg[b&(pageBins-1)]
}

// densify makes t dense.
func (t *kindBins) densify() {
	t.pages = make([][]binStat, nPages)
	for i, b := range t.bins {
		*t.page(int(b)) = t.used[i>>chunkShift][i&(chunkBins-1)]
	}
	t.slot, t.used, t.bins = nil, nil, nil
}

// weight is the weight of bin b, read without making the bin (the
// sketch reads it ahead of adding to it, so that the load is under
// way; a sparse table does not, and reads 0).
func (t *kindBins) weight(b int) float64 {
	if t.pages == nil {
		return 0
	}
	if pg := t.pages[b>>pageShift]; pg != nil {
		return pg[b&(pageBins-1)].w
	}
	return 0
}

// get is bin b, empty when t has not made it.
func (t *kindBins) get(b int) binStat {
	if t.pages != nil {
		if pg := t.pages[b>>pageShift]; pg != nil {
			return pg[b&(pageBins-1)]
		}
		return binStat{}
	}
	if i, ok := t.slot[int32(b)]; ok {
		return t.used[i>>chunkShift][i&(chunkBins-1)]
	}
	return binStat{}
}

// nonEmpty are the bins that hold items, in increasing order.
func (t *kindBins) nonEmpty() []int32 {
	var out []int32
	if t.pages != nil {
		for p, pg := range t.pages {
			for i := range pg {
				if pg[i].w != 0 {
					out = append(out, int32(p<<pageShift+i))
				}
			}
		}
		return out
	}
	for _, b := range t.bins {
		if t.get(int(b)).w != 0 {
			out = append(out, b)
		}
	}
	slices.Sort(out)
	return out
}

// merge adds q's bins to t.
func (t *kindBins) merge(q *kindBins) {
	for _, b := range q.nonEmpty() {
		k := q.get(int(b))
		mergeLeast(t.at(int(b)), &k)
	}
}

// clone is a copy of t that shares no memory with it.
func (t *kindBins) clone() kindBins {
	out := kindBins{slot: maps.Clone(t.slot), bins: slices.Clone(t.bins)}
	for _, c := range t.used {
		out.used = append(out.used, slices.Clone(c))
	}
	if t.pages != nil {
		out.pages = make([][]binStat, nPages)
		for i, pg := range t.pages {
			out.pages[i] = slices.Clone(pg)
		}
	}
	return out
}

// kinds are the part's bins of each kind, in the sketch file's order.
func (p *SketchPart) kinds() [3]*kindBins {
	return [3]*kindBins{&p.settled, &p.failed, &p.pending}
}

// kindStatuses are the kinds' statuses, in the same order.
var kindStatuses = [3]Status{Settled, Failed, Pending}

// binLists are the bins that hold items of each kind (nonEmpty), in
// the order of kinds.
func (p *SketchPart) binLists() [3][]int32 {
	var lists [3][]int32
	for j, t := range p.kinds() {
		lists[j] = t.nonEmpty()
	}
	return lists
}

// eachBin calls fn with each bin that holds items, in increasing order,
// and its kinds (empty where it has none), until fn returns an error.
func (p *SketchPart) eachBin(fn func(b int, k [3]binStat) error) error {
	return p.walkBins(p.binLists(), fn)
}

// walkBins is eachBin over the part's binLists.
func (p *SketchPart) walkBins(lists [3][]int32, fn func(b int, k [3]binStat) error) error {
	ks := p.kinds()
	var next [3]int
	for {
		b := int32(math.MaxInt32)
		for j, l := range lists {
			if next[j] < len(l) {
				b = min(b, l[next[j]])
			}
		}
		if b == math.MaxInt32 {
			return nil
		}
		var k [3]binStat
		for j, l := range lists {
			if next[j] < len(l) && l[next[j]] == b {
				k[j] = ks[j].get(int(b))
				next[j]++
			}
		}
		if err := fn(int(b), k); err != nil {
			return err
		}
	}
}
