package estimate

import (
	"fmt"

	"sync"

	"github.com/apache/arrow/go/v17/parquet/file"
)

// colBuffers is how many batches of one column are in flight.
const colBuffers = 3

// groupByColumns reads row group g decoding each needed column in its own
// goroutine, batch by batch, while the calling goroutine turns the
// batches into items and merges them: the columns of one row group
// decode in parallel and the items still come in file order.
func (r *reader) groupByColumns(pf *file.Reader, g int, cols []*pqCol, c *rowConv, rowBase int64) error {
	rg := pf.RowGroup(g)
	nrows := rg.NumRows()
	stop := make(chan struct{})
	var once sync.Once
	halt := func() { once.Do(func() { close(stop) }) }
	var wg sync.WaitGroup
	defer wg.Wait()
	defer halt()
	outs := make([]chan *pqCol, len(cols))
	frees := make([]chan *pqCol, len(cols))
	for i, p := range cols {
		rdr, err := rg.Column(p.index)
		if err != nil {
			return fmt.Errorf("%s: row group %d: column %s: %v", c.l.file, g, c.l.name(p.col), err)
		}
		outs[i], frees[i] = make(chan *pqCol, colBuffers), make(chan *pqCol, colBuffers)
		for range colBuffers {
			frees[i] <- cloneCols(cols[i : i+1])[0]
		}
		wg.Add(1)
		go decodeColumn(&wg, rdr, nrows, outs[i], frees[i], stop)
	}
	cur := make([]*pqCol, len(cols))
	b := &batch{}
	for left := nrows; left > 0; {
		n := min(left, parquetBatch)
		for i := range cols {
			q, ok := <-outs[i]
			if !ok {
				return fmt.Errorf("%s: row group %d: column %s: decoding stopped", c.l.file, g, c.l.name(cols[i].col))
			}
			if q.err != nil {
				return fmt.Errorf("%s: row group %d: column %s: %v", c.l.file, g, c.l.name(cols[i].col), q.err)
			}
			cur[i] = q
		}
		b.reset()
		c.parquetRows(cur, int(n), rowBase, b)
		for i, q := range cur {
			frees[i] <- q // never blocks: colBuffers slots for colBuffers buffers
		}
		if err := r.merge(b); err != nil {
			return err
		}
		left -= n
		rowBase += n
	}
	return nil
}

// decodeColumn reads nrows of one column chunk in batches into buffers
// taken from free and sent to out, until done or stopped.
func decodeColumn(wg *sync.WaitGroup, rdr file.ColumnChunkReader, nrows int64, out, free chan *pqCol, stop chan struct{}) {
	defer wg.Done()
	defer close(out)
	send := func(q *pqCol) bool {
		select {
		case out <- q:
			return true
		case <-stop:
			return false
		}
	}
	defer func() {
		if p := recover(); p != nil { // arrow panics on some corrupt files
			send(&pqCol{err: fmt.Errorf("corrupt parquet file: %v", p)})
		}
	}()
	for left := nrows; left > 0; {
		n := min(left, parquetBatch)
		var q *pqCol
		select {
		case q = <-free:
		case <-stop:
			return
		}
		q.rdr = rdr
		q.err = q.read(n)
		if !send(q) || q.err != nil {
			return
		}
		left -= n
	}
}
