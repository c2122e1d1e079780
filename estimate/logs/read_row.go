package logs

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/pollfit/pollfit/estimate"
)

// noTime marks an empty timestamp, in Unix nanoseconds, while a row is
// parsed; an item of unknown creation time has Dated false.
const noTime int64 = math.MinInt64

// batch is what a run of rows turns into.
type batch struct {
	items    []estimate.Item
	weights  []float64       // histogram weights, parallel to items; nil otherwise
	segs     []int32         // provisional segment ids, parallel to items (EachBy)
	deferred []estimate.Item // pending items waiting for the default ObservedAt
	oldest   pendingRow      // the earliest created of deferred, for deliverDeferred's error
	rows     int64
	maxTime  int64 // latest timestamp, noTime if none
	skipped  map[string]int64
	err      error // the first bad row, when not skipping

	// refs counts the goroutines that still read the batch: the one that
	// merges it, and sinks handed runs of its items in place (fanout).
	refs atomic.Int32
}

var batchPool = sync.Pool{New: func() any { return &batch{maxTime: noTime, oldest: pendingRow{created: math.MaxInt64}} }}

// getBatch returns an empty batch from batchPool, held once.
func getBatch() *batch {
	b := batchPool.Get().(*batch)
	b.reset()
	b.refs.Store(1)
	return b
}

// hold adds a reader of b; each hold and getBatch is matched by a release
// (merge releases the batch it takes).
func (b *batch) hold() { b.refs.Add(1) }

// release drops a reader of b: the last returns it to batchPool.
func (b *batch) release() {
	if b.refs.Add(-1) == 0 {
		batchPool.Put(b)
	}
}

func (b *batch) reset() {
	b.items, b.deferred, b.segs = b.items[:0], b.deferred[:0], b.segs[:0]
	b.weights = nil
	b.rows, b.maxTime, b.err = 0, noTime, nil
	b.oldest = pendingRow{created: math.MaxInt64}
	clear(b.skipped)
}

// pendingRow is where a deferred pending item was read: its file, and
// its line (0 when unknown, as in a Parquet file's fast path).
type pendingRow struct {
	created int64
	file    string
	line    int
}

// deferPending keeps a pending item for the default ObservedAt,
// remembering the row of the earliest created.
func (b *batch) deferPending(it estimate.Item, file string, line int) {
	b.deferred = append(b.deferred, it)
	if it.Created < b.oldest.created {
		b.oldest = pendingRow{created: it.Created, file: file, line: line}
	}
}

// add appends a zero item to b.items and returns it, to be filled in
// place: an item built elsewhere and copied in is read back in 16-byte
// moves that wait for the smaller stores that built it (the zero is
// stored directly).
func (b *batch) add() *estimate.Item {
	b.items = append(b.items, estimate.Item{})
	return &b.items[len(b.items)-1]
}

func (b *batch) seen(t int64) {
	if t != noTime && (b.maxTime == noTime || t > b.maxTime) {
		b.maxTime = t
	}
}

// rowVals are the values of one row, parsed but not yet checked.
type rowVals struct {
	created, settled int64   // noTime when empty
	dur              float64 // NaN when empty
	status           estimate.Status
	hasStatus        bool    // false when there is no status or it is empty
	sigTime          int64   // noTime when the signal is not a timestamp
	sigAge           float64 // NaN when no age-valued signal
	seg              int32   // provisional segment id (EachBy)
}

func (v *rowVals) reset() {
	// Field by field: a composite literal is built on the stack and copied
	// in 16-byte moves that cannot forward from its 8-byte NaN stores, a
	// stall on every row.
	v.created, v.settled, v.dur = noTime, noTime, math.NaN()
	v.status, v.hasStatus = 0, false
	v.sigTime, v.sigAge, v.seg = noTime, math.NaN(), 0
}

// rowConv turns rows of one file into items. Each worker has its own.
type rowConv struct {
	l        *layout
	tp       timeParser
	status   *estimate.StatusWords
	skipBad  bool
	fixedObs bool
	observed int64
	maxLine  int // the longest CSV record
	v        rowVals
	fast     fastBufs
	by       *segTable        // the By column's values, or nil
	segCache map[string]int32 // this worker's view of by
}

func (r *reader) newConv(l *layout) *rowConv {
	return &rowConv{l: l, tp: *r.tp, status: r.status, skipBad: r.opt.SkipBad,
		fixedObs: r.fixedObs, observed: r.observed, maxLine: r.opt.maxLine(), by: r.by}
}

func (c *rowConv) clone() *rowConv {
	d := &new(paddedConv).c
	*d = *c
	d.fast, d.segCache = fastBufs{}, nil
	return d
}

// paddedConv keeps workers' rowConvs on separate cache lines.
type paddedConv struct {
	_ [256]byte
	c rowConv
	_ [256]byte
}

// fail records a bad row: the error, or a count when skipping. It
// returns false so callers can write "return c.fail(...)".
func (c *rowConv) fail(b *batch, line, col int, reason, format string, args ...any) bool {
	if c.skipBad {
		if b.skipped == nil {
			b.skipped = map[string]int64{}
		}
		b.skipped[reason]++
		return false
	}
	if b.err == nil {
		b.err = &RowError{File: c.l.file, Line: line, Col: col + 1, Column: c.l.name(col),
			Msg: fmt.Sprintf(format, clipArgs(args)...), reason: reason}
	}
	return false
}

// build checks the values in c.v and adds the item to b.
func (c *rowConv) build(b *batch, line int) bool {
	v := &c.v
	it := b.add() // filled in place; taken back if the row is bad or deferred
	it.Created, it.Dated, it.Status = v.created, v.created != noTime, estimate.Settled
	if v.hasStatus {
		it.Status = v.status
	}
	var pendingAtObs, ok bool
	if c.l.mode == modeTimes {
		pendingAtObs, ok = c.timesAge(b, line, it)
	} else {
		pendingAtObs, ok = c.durationAge(b, line, it)
	}
	if ok {
		b.seen(v.created)
		ok = c.l.signal < 0 || c.signalAge(b, line, it)
	}
	if ok && pendingAtObs {
		if !c.fixedObs {
			if c.by != nil {
				it.Age = float64(v.seg) // until the age is known (deliverDeferred)
			}
			b.deferPending(*it, c.l.file, line)
			b.items = b.items[:len(b.items)-1]
			return true
		}
		ok = c.observedAge(b, line, it)
	}
	if !ok {
		b.items = b.items[:len(b.items)-1]
		return false
	}
	if c.by != nil {
		b.segs = append(b.segs, v.seg)
	}
	return true
}

// timesAge sets the age of a row with created and settled times;
// pending reports a pending row, aged at the observed-at time.
func (c *rowConv) timesAge(b *batch, line int, it *estimate.Item) (pending, ok bool) {
	v, l := &c.v, c.l
	switch {
	case v.created == noTime:
		return false, c.fail(b, line, l.created, skipMissing, "empty %s", l.name(l.created))
	case v.settled != noTime:
		if v.settled < v.created {
			return false, c.fail(b, line, l.settled, skipOrder, "%s before %s", l.name(l.settled), l.name(l.created))
		}
		age, ok := ageBetween(v.created, v.settled)
		if !ok {
			return false, c.fail(b, line, l.settled, skipAge, "%s", tooOld(l.name(l.settled)+" − "+l.name(l.created), secondsBetween(v.created, v.settled)))
		}
		it.Age = age
		b.seen(v.settled)
	case v.hasStatus && v.status.Final():
		return false, c.fail(b, line, l.settled, skipMissing, "empty %s for a final status (%s)", l.name(l.settled), v.status)
	default:
		it.Status = estimate.Pending
		return true, true
	}
	return false, true
}

// durationAge is timesAge for a row with a duration.
func (c *rowConv) durationAge(b *batch, line int, it *estimate.Item) (pending, ok bool) {
	v, l := &c.v, c.l
	switch {
	case v.dur > maxAgeSeconds:
		return false, c.fail(b, line, l.duration, skipAge, "%s", tooOld("duration", v.dur))
	case !math.IsNaN(v.dur):
		it.Age = v.dur
		if v.created != noTime {
			b.seen(addSeconds(v.created, v.dur))
		}
	case v.hasStatus && v.status.Final():
		return false, c.fail(b, line, l.duration, skipMissing, "empty %s for a final status (%s)", l.name(l.duration), v.status)
	case v.created == noTime:
		return false, c.fail(b, line, l.duration, skipMissing, "empty %s", l.name(l.duration))
	default:
		it.Status = estimate.Pending
		return true, true
	}
	return false, true
}

// signalAge sets the item's signal age from a timestamp or an age.
func (c *rowConv) signalAge(b *batch, line int, it *estimate.Item) bool {
	v, l := &c.v, c.l
	switch {
	case v.sigTime != noTime:
		if v.created == noTime {
			return c.fail(b, line, l.signal, skipSignal, "a signal timestamp needs %s", orDefault(l.name(l.created), "created_at"))
		}
		if v.sigTime < v.created {
			return c.fail(b, line, l.signal, skipSignalOrder, "%s before %s", l.name(l.signal), l.name(l.created))
		}
		sig, ok := ageBetween(v.created, v.sigTime)
		if !ok {
			return c.fail(b, line, l.signal, skipAge, "%s", tooOld("signal age", secondsBetween(v.created, v.sigTime)))
		}
		it.Signal, it.Signalled = sig, true
		b.seen(v.sigTime)
	case v.sigAge > maxAgeSeconds:
		return c.fail(b, line, l.signal, skipAge, "%s", tooOld("signal age", v.sigAge))
	case !math.IsNaN(v.sigAge):
		it.Signal, it.Signalled = v.sigAge, true
	}
	return true
}

// observedAge ages a pending item at the fixed observed-at time.
func (c *rowConv) observedAge(b *batch, line int, it *estimate.Item) bool {
	v, l := &c.v, c.l
	if c.observed < v.created {
		return c.fail(b, line, l.created, skipObserved, "%s after the observed-at time", l.name(l.created))
	}
	age, ok := ageBetween(v.created, c.observed)
	if !ok {
		return c.fail(b, line, l.created, skipAge, "%s", tooOld("pending age at the observed-at time", secondsBetween(v.created, c.observed)))
	}
	it.Age = age
	return true
}
