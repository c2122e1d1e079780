package fit

import (
	"slices"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// replayer holds what replaying one schedule needs, compiled once.
type replayer struct {
	tl      *schedule.Timeline
	runs    []schedule.Run // tl's progressions, for counting arithmetically
	aligned []schedule.Aligned
	reset   bool
	atZero  int64 // 1 if the timeline asks at age 0
	buf     []time.Duration
	// alBuf and firstBuf hold the aligned clauses of the item replayed
	// last (see item), firstBuf[i] room for clause i's first ages.
	alBuf    []schedule.AlignedItem
	firstBuf [][]time.Duration
	// tab lists the aligned asks of the sample replayed, item by item,
	// to the replay's horizon (nil: worked out item by item).
	tab *alignedTable
}

func newReplayer(s *schedule.Schedule) *replayer {
	r := &replayer{tl: s.Timeline(), aligned: s.Aligned, reset: s.ResetOnSignal}
	r.atZero = r.tl.Count(0)
	r.runs = r.tl.Runs()
	r.alBuf = make([]schedule.AlignedItem, len(s.Aligned))
	r.firstBuf = make([][]time.Duration, len(s.Aligned))
	for i, a := range s.Aligned {
		r.firstBuf[i] = make([]time.Duration, 0, len(a.Offsets))
	}
	return r
}

// itemAsks answers questions about the asks made to one item.
type itemAsks struct {
	*replayer
	created int64
	signal  time.Duration // < 0: none, or the schedule ignores signals
	// al are the aligned clauses for this item, in the replayer's
	// memory: good until the replayer's next item.
	al []schedule.AlignedItem
	// listed, when tabled, are the item's aligned asks to the table's
	// horizon (alignedTable), which next and count read instead of al:
	// asked only of ages up to that horizon.
	listed []time.Duration
	tabled bool
}

func (r *replayer) item(it estimate.Item) itemAsks {
	v := itemAsks{replayer: r, created: it.Created, signal: -1}
	if r.reset && it.HasSignal() && it.Signal >= 0 {
		v.signal = nanos(it.Signal)
	}
	v.al = r.alBuf[:len(r.aligned)]
	for i, a := range r.aligned {
		v.al[i] = a.ForItem(it.Created, r.firstBuf[i])
	}
	return v
}

// itemAt is item for item i of the sample the replayer's table lists.
func (r *replayer) itemAt(i int, it estimate.Item) itemAsks {
	if r.tab == nil {
		return r.item(it)
	}
	v := itemAsks{replayer: r, created: it.Created, signal: -1, listed: r.tab.item(i), tabled: true}
	if r.reset && it.HasSignal() && it.Signal >= 0 {
		v.signal = nanos(it.Signal)
	}
	return v
}

// ageCount counts age-based asks at ages ≤ x, with the restart at the
// signal: asks before the signal, one at it, then the timeline's asks
// after age 0 shifted by the signal.
func (v itemAsks) ageCount(x time.Duration) int64 {
	g := v.signal
	if g < 0 || x < g {
		return v.tl.Count(x)
	}
	return v.tl.Count(g-1) + 1 + v.tl.Count(x-g) - v.atZero
}

// ageNext is the first age-based ask at or after x.
func (v itemAsks) ageNext(x time.Duration) (time.Duration, bool) {
	g := v.signal
	if g < 0 {
		return v.tl.Next(x)
	}
	if x <= g {
		if a, ok := v.tl.Next(x); ok && a < g {
			return a, true
		}
		return g, true
	}
	a, ok := v.tl.Next(x - g)
	return g + a, ok
}

// next is the first ask of any kind at or after x.
func (v itemAsks) next(x time.Duration) (time.Duration, bool) {
	best, ok := v.ageNext(x)
	if v.tabled {
		for _, at := range v.listed {
			if at >= x {
				if !ok || at < best {
					best, ok = at, true
				}
				break
			}
		}
		return best, ok
	}
	for i := range v.al {
		if n, aok := v.al[i].Next(x); aok && (!ok || n < best) {
			best, ok = n, true
		}
	}
	return best, ok
}

// count is the number of asks at ages ≤ x, each age once.
func (v itemAsks) count(x time.Duration) int64 {
	n := v.ageCount(x)
	if len(v.aligned) == 0 || x < 0 {
		return n
	}
	if v.tabled {
		for _, at := range v.listed {
			if at > x {
				break
			}
			if b, bok := v.ageNext(at); !bok || b != at {
				n++
			}
		}
		return n
	}
	if v.alignedUpTo(x) > walkAligned {
		return n + v.alignedExtra(x)
	}
	extra := v.buf[:0]
	for i := range v.al {
		n := len(extra)
		all := v.al[i].AppendAsks(extra, x)
		for _, at := range all[n:] {
			if b, bok := v.ageNext(at); !bok || b != at {
				extra = append(extra, at) // never past all's own next: it keeps at most as many
			}
		}
	}
	if len(v.aligned) > 1 {
		slices.Sort(extra)
		extra = slices.Compact(extra)
	}
	v.buf = extra
	return n + int64(len(extra))
}

// walkAligned is the most aligned asks count lists one by one; beyond
// it, it counts them arithmetically (alignedExtra), which costs the same
// whatever the period.
var walkAligned int64 = 64

// alignedUpTo is the number of aligned asks at ages ≤ x, counting an age
// shared by two clauses twice.
func (v itemAsks) alignedUpTo(x time.Duration) int64 {
	var n int64
	for i := range v.al {
		n += v.al[i].Count(x)
		if n > walkAligned {
			break
		}
	}
	return n
}
