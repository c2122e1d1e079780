package logs

import (
	"context"
	"sync"

	"github.com/pollfit/pollfit/estimate"
)

// Sinks is the number of goroutines EachParallel hands items to. It is
// fixed, not the number of cores, so that the same input gives each
// sink the same items in the same order on any machine: reductions that
// sum floating-point ages then come out bit for bit alike.
const Sinks = 2

// fanChunk is how many items go to a sink at a time.
const fanChunk = 4096

// EachParallel is EachWeighted with the reduction spread over Sinks
// goroutines: newSink is called once for each, in order, and the items
// go to the sinks in runs of a few thousand, run k to sink k mod Sinks,
// so each sink sees its items in input order: a sink is called with a
// run of items and their weights (a histogram's counts, 1 for a log's
// rows), which it must neither change nor keep. A sink is called from
// its own goroutine only; when EachParallel returns, every sink has seen
// all its items and the caller merges what they reduced. Errors and
// Stats are EachWeighted's.
func EachParallel(ctx context.Context, paths []string, opt Options, newSink func() func(items []estimate.Item, ws []float64)) (Stats, error) {
	f := newFanout(newSink)
	st, err := eachRuns(ctx, paths, opt, f.add, f.addBatch)
	f.close()
	return st, err
}

// itemRun is a run of items with their weights: in a buffer of the
// fanout's own, or, when owner is not nil, in place in a batch.
type itemRun struct {
	items []estimate.Item
	ws    []float64
	owner *batch
}

// ones are the weights of a run of a batch without weights.
var ones = func() []float64 {
	w := make([]float64, fanChunk)
	for i := range w {
		w[i] = 1
	}
	return w
}()

// fanout deals runs of items out to the sinks' goroutines.
type fanout struct {
	cur  *itemRun
	next int // the sink the current run goes to
	work [Sinks]chan *itemRun
	free chan *itemRun
	wg   sync.WaitGroup
}

func newFanout(newSink func() func([]estimate.Item, []float64)) *fanout {
	f := &fanout{free: make(chan *itemRun, 4*Sinks)}
	f.cur = f.run()
	for i := range f.work {
		f.work[i] = make(chan *itemRun, 2)
		sink := newSink()
		f.wg.Add(1)
		go f.drain(f.work[i], sink)
	}
	return f
}

// run is an empty run, reused when one is free.
func (f *fanout) run() *itemRun {
	select {
	case r := <-f.free:
		return r
	default:
		return &itemRun{items: make([]estimate.Item, 0, fanChunk), ws: make([]float64, 0, fanChunk)}
	}
}

// add takes one item, from the reader's goroutine.
func (f *fanout) add(it estimate.Item, w float64) {
	f.cur.items = append(f.cur.items, it)
	f.cur.ws = append(f.cur.ws, w)
	if len(f.cur.items) == fanChunk {
		f.send()
	}
}

// addBatch takes a batch's items at once, from the reader's goroutine: as
// add each. The runs that lie whole in the batch go to their sinks in
// place, the batch held until they are done; the items before and after
// them are copied into the fanout's own runs. The runs are the ones add
// makes, so each sink sees the same items in the same runs.
func (f *fanout) addBatch(b *batch) {
	items, ws := b.items, b.weights
	if len(f.cur.items) > 0 {
		n := min(len(items), fanChunk-len(f.cur.items))
		f.addRun(items[:n], ws)
		items, ws = items[n:], rest(ws, n)
	}
	for len(items) >= fanChunk {
		b.hold()
		f.work[f.next] <- &itemRun{items: items[:fanChunk], ws: weights(ws, fanChunk), owner: b}
		f.next = (f.next + 1) % Sinks
		items, ws = items[fanChunk:], rest(ws, fanChunk)
	}
	f.addRun(items, ws)
}

// weights is the first n ≤ fanChunk of ws, or n ones for nil ws (every
// item of weight 1).
func weights(ws []float64, n int) []float64 {
	if ws == nil {
		return ones[:n]
	}
	return ws[:n]
}

// rest is ws less its first n, nil for nil ws.
func rest(ws []float64, n int) []float64 {
	if ws == nil {
		return nil
	}
	return ws[n:]
}

// addRun copies items into the current run (ws nil: each of weight 1),
// sending each run it fills.
func (f *fanout) addRun(items []estimate.Item, ws []float64) {
	for len(items) > 0 {
		c := f.cur
		n := min(len(items), fanChunk-len(c.items))
		c.items = append(c.items, items[:n]...)
		c.ws = append(c.ws, weights(ws, n)...)
		items, ws = items[n:], rest(ws, n)
		if len(c.items) == fanChunk {
			f.send()
		}
	}
}

// send hands the current run to its sink.
func (f *fanout) send() {
	f.work[f.next] <- f.cur
	f.next = (f.next + 1) % Sinks
	f.cur = f.run()
}

// drain feeds the runs of one channel to its sink.
func (f *fanout) drain(in chan *itemRun, sink func([]estimate.Item, []float64)) {
	defer f.wg.Done()
	for r := range in {
		sink(r.items, r.ws)
		if r.owner != nil {
			r.owner.release()
			continue
		}
		r.items, r.ws = r.items[:0], r.ws[:0]
		select {
		case f.free <- r:
		default:
		}
	}
}

// close sends what is left and waits for the sinks to finish.
func (f *fanout) close() {
	if len(f.cur.items) > 0 {
		f.send()
	}
	for _, c := range f.work {
		close(c)
	}
	f.wg.Wait()
}
