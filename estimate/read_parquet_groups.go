package estimate

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/apache/arrow/go/v17/parquet/file"
)

// parquetGroups decodes the row groups of pf and merges their batches in
// file order: with several cores, the columns of each row group decode in
// parallel (groupByColumns), or for a single column the row groups do.
func (r *reader) parquetGroups(pf *file.Reader, cols []*pqCol, c *rowConv, size int64) error {
	groups := pf.NumRowGroups()
	bases := make([]int64, groups+1)
	for g := range groups {
		bases[g+1] = bases[g] + pf.MetaData().RowGroup(g).NumRows()
	}
	total := bases[groups]
	progress := func(g int) {
		if total > 0 {
			r.progress(size * (bases[g+1] - bases[g]) / total)
		}
	}
	if runtime.GOMAXPROCS(0) >= 2 && len(cols) >= 2 {
		for g := range groups {
			if err := r.groupByColumns(pf, g, cols, c, bases[g]); err != nil {
				return err
			}
			progress(g)
		}
		return nil
	}
	workers := min(runtime.GOMAXPROCS(0), 4, groups)
	if workers < 2 {
		b := &batch{}
		for g := range groups {
			var err error
			c.decodeGroup(pf, g, cols, bases[g], func(d *batch) bool {
				err = r.merge(d)
				d.reset()
				return err == nil
			}, b)
			if err != nil {
				return err
			}
			progress(g)
		}
		return nil
	}
	outs := make([]chan *batch, groups)
	next := make(chan int, groups)
	for g := range groups {
		outs[g] = make(chan *batch, 4)
		next <- g
	}
	close(next)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wc, wcols := c.clone(), cloneCols(cols)
			for g := range next {
				wc.decodeGroup(pf, g, wcols, bases[g], func(b *batch) bool {
					select {
					case outs[g] <- b:
						return true
					case <-stop:
						return false
					}
				}, nil)
				close(outs[g])
			}
		}()
	}
	defer wg.Wait()
	for g := range groups {
		for b := range outs[g] {
			err := r.merge(b)
			batchPool.Put(b)
			if err != nil {
				close(stop)
				return err
			}
		}
		progress(g)
	}
	return nil
}

func cloneCols(cols []*pqCol) []*pqCol {
	out := make([]*pqCol, len(cols))
	for i, p := range cols {
		q := *p // the column's description, without its reader and buffers
		q.rdr, q.err, q.pos, q.cur = nil, nil, 0, 0
		q.defs, q.i64, q.i32, q.f64, q.f32, q.ba, q.bl, q.i96 = nil, nil, nil, nil, nil, nil, nil, nil
		out[i] = &q
	}
	return out
}

// decodeGroup decodes row group g in batches handed to emit, which
// reports whether to go on. With reuse nil each batch comes from
// batchPool; otherwise reuse is emitted again and again. A failure is
// emitted as a batch with err set.
func (c *rowConv) decodeGroup(pf *file.Reader, g int, cols []*pqCol, rowBase int64, emit func(*batch) bool, reuse *batch) {
	get := func() *batch {
		if reuse != nil {
			reuse.reset()
			return reuse
		}
		b := batchPool.Get().(*batch)
		b.reset()
		return b
	}
	fail := func(err error) { b := get(); b.err = err; emit(b) }
	defer func() {
		if p := recover(); p != nil { // arrow panics on some corrupt files
			fail(fmt.Errorf("%s: corrupt parquet file: row group %d: %v", c.l.file, g, p))
		}
	}()
	rg := pf.RowGroup(g)
	for _, p := range cols {
		var err error
		if p.rdr, err = rg.Column(p.index); err != nil {
			fail(fmt.Errorf("%s: row group %d: column %s: %v", c.l.file, g, c.l.name(p.col), err))
			return
		}
	}
	left := rg.NumRows()
	for left > 0 {
		n := min(left, parquetBatch)
		for _, p := range cols {
			if err := p.read(n); err != nil {
				fail(fmt.Errorf("%s: row group %d: column %s: %v", c.l.file, g, c.l.name(p.col), err))
				return
			}
		}
		b := get()
		c.parquetRows(cols, int(n), rowBase, b)
		bad := b.err != nil // b belongs to the consumer once emitted
		if !emit(b) || bad {
			return
		}
		left -= n
		rowBase += n
	}
}
