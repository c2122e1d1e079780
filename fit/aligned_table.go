package fit

import (
	"slices"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// The aligned asks of a sample, listed once. A shape's graft replays
// one batch shape's aligned clauses under many age-based parts (each
// round's, each budget's: a frontier's points, a group's curve, a
// baseline's fits), on the same fitting items to the same horizon; the
// aligned asks each item gets are the same every time. An alignedTable
// lists them once per (clauses, horizon), so that such a replay reads
// each item's few aligned asks instead of working them out from its
// creation time at every question (itemAsks.next and count). It holds
// only asks the walk of count would list (at most walkAligned an item,
// shared ages counted twice): a sample with an item that gets more is
// replayed without one, counting arithmetically as before.

// alignedTable is each item's aligned asks at ages ≤ horizon, in
// order, each age once: item i's are at[start[i]:start[i+1]].
type alignedTable struct {
	horizon time.Duration
	start   []int32
	at      []time.Duration
}

// maxAlignedTable bounds the asks a table keeps (8 bytes each).
const maxAlignedTable = 1 << 22

// newAlignedTable lists the aligned asks of the clauses for every item
// of smp to horizon h; nil when an item gets more than walkAligned of
// them, or the sample more than maxAlignedTable.
func newAlignedTable(aligned []schedule.Aligned, smp Sample, h time.Duration) *alignedTable {
	if len(aligned) == 0 || h < 0 {
		return nil
	}
	t := &alignedTable{horizon: h, start: make([]int32, 0, smp.Len()+1)}
	bufs := make([][]time.Duration, len(aligned))
	for i, a := range aligned {
		bufs[i] = make([]time.Duration, 0, len(a.Offsets))
	}
	for _, it := range smp.Items {
		t.start = append(t.start, int32(len(t.at)))
		n := len(t.at)
		var shared int64 // the asks with shared ages counted twice, as alignedUpTo counts
		for i, a := range aligned {
			al := a.ForItem(it.Created, bufs[i])
			if shared += al.Count(h); shared > walkAligned {
				return nil
			}
			t.at = al.AppendAsks(t.at, h)
		}
		if len(t.at) > maxAlignedTable {
			return nil
		}
		own := t.at[n:]
		slices.Sort(own)
		t.at = append(t.at[:n], slices.Compact(own)...)
	}
	t.start = append(t.start, int32(len(t.at)))
	return t
}

// item is item i's aligned asks.
func (t *alignedTable) item(i int) []time.Duration { return t.at[t.start[i]:t.start[i+1]] }

// tableKey is a table's key in a cache: the clauses' canonical text
// and the horizon.
type tableKey struct {
	clauses string
	h       time.Duration
}

// tableKeyOf is the key of schedule s's aligned clauses to horizon h.
func tableKeyOf(s *schedule.Schedule, h time.Duration) tableKey {
	bare := &schedule.Schedule{Aligned: s.Aligned}
	return tableKey{schedule.Format(bare), h}
}
