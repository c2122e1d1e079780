package estimate

// A run of rows is added in two sweeps. The first hashes each row and
// finds its age bin, and reads the bin it will add to; the second adds
// the rows. A row's bin is a few loads from tables and bins of several
// megabytes, mostly cache misses: in the first sweep's short, branch-free
// iterations the processor has many of them under way at once, and the
// second finds the bins in the cache.

// runChunk is the most rows a sweep covers: their bins stay in the cache
// between the sweeps.
const runChunk = 512

// AddRun is Add for each of items in turn, items[i] standing for ws[i]
// rows, faster.
func (s *Sketch) AddRun(items []Item, ws []float64) {
	var hs [runChunk]uint64
	var bins [runChunk]int32
	for len(items) > 0 {
		n := min(len(items), runChunk)
		s.touch(items[:n], hs[:n], bins[:n])
		for j := range n {
			s.add(hs[j], items[j], ws[j], int(bins[j]), nil)
		}
		items, ws = items[n:], ws[n:]
	}
}

// touch sets each row's hash and bin, and reads the settled bin it will
// likely add to. The hashes, arithmetic only, come first; the loop that
// finds and reads the bins is then short enough for many rows' loads to
// be under way at once.
func (s *Sketch) touch(items []Item, hs []uint64, bins []int32) {
	rowHashes(s.Seed, items, hs)
	var sum float64
	for j := range items {
		b := fastSketchBin(items[j].Age)
		bins[j] = int32(b)
		p := &s.Fit
		if held(hs[j], s.Holdout) {
			p = &s.HeldOut
		}
		sum += p.settled.weight(b)
	}
	s.touched += sum
}
