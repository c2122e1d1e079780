package logs

import (
	"fmt"
	"io"
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
	// A file of at most one batch decodes on this goroutine: there is no
	// work to overlap, only goroutines to start (a fuzz run's cost).
	small := total <= parquetBatch
	if runtime.GOMAXPROCS(0) >= 2 && len(cols) >= 2 && !small {
		for g := range groups {
			if err := r.groupByColumns(pf, g, cols, c, bases[g]); err != nil {
				return err
			}
			progress(g)
		}
		return nil
	}
	workers := min(runtime.GOMAXPROCS(0), 4, groups)
	if workers < 2 || small {
		for g := range groups {
			var err error
			c.decodeGroup(pf, g, cols, bases[g], func(d *batch) bool {
				err = r.merge(d)
				return err == nil
			})
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
				})
				close(outs[g])
			}
		}()
	}
	defer wg.Wait()
	for g := range groups {
		for b := range outs[g] {
			if err := r.merge(b); err != nil {
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
		q.rdr, q.pages, q.own, q.err, q.pos, q.cur = nil, nil, p.own.fresh(), nil, 0, 0
		q.defs, q.i64, q.i32, q.f64, q.f32, q.ba, q.bl, q.i96 = nil, nil, nil, nil, nil, nil, nil, nil
		q.idx, q.dict, q.lazy, q.arena = nil, nil, false, nil
		out[i] = &q
	}
	return out
}

// decodeGroup decodes row group g in batches from getBatch handed to
// emit, which merges each (merge releases it) and reports whether to go
// on. A failure is emitted as a batch with err set.
func (c *rowConv) decodeGroup(pf *file.Reader, g int, cols []*pqCol, rowBase int64, emit func(*batch) bool) {
	fail := func(err error) { b := getBatch(); b.err = err; emit(b) }
	defer func() {
		if p := recover(); p != nil { // arrow panics on some corrupt files
			fail(fmt.Errorf("%s: corrupt parquet file: row group %d: %v", c.l.file, g, p))
		}
	}()
	rg := pf.RowGroup(g)
	for _, p := range cols {
		var err error
		if p.rdr, p.pages, err = openColumn(rg, g, p); err != nil {
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
		b := getBatch()
		c.parquetRows(cols, int(n), rowBase, b)
		bad := b.err != nil // b belongs to the consumer once emitted
		if !emit(b) || bad {
			return
		}
		left -= n
		rowBase += n
	}
}

// chunkStream is a parquet.BufferedReader of a column chunk through a
// reused buffer.
type chunkStream struct {
	f        io.ReaderAt
	off, end int64  // the next unbuffered byte, the end of the chunk
	unc      int64  // the chunk's declared uncompressed size
	buf      []byte // the buffer
	b        []byte // its unread bytes
}

func (s *chunkStream) reset(f io.ReaderAt, off, n, unc int64) {
	s.f, s.off, s.end, s.b, s.unc = f, off, off+n, nil, unc
	if size := int(min(n, 1<<20)); len(s.buf) < size {
		s.buf = make([]byte, size)
	}
}

// fill reads more of the chunk after the unread bytes, growing the
// buffer to hold at least n.
func (s *chunkStream) fill(n int) error {
	if n > len(s.buf) {
		s.buf = append(make([]byte, 0, n), s.b...)[:n]
		s.b = s.buf[:len(s.b)]
	}
	m := copy(s.buf, s.b)
	want := int(min(int64(len(s.buf)-m), s.end-s.off))
	k, err := s.f.ReadAt(s.buf[m:m+want], s.off)
	s.off += int64(k)
	s.b = s.buf[:m+k]
	if k < want {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	return nil
}

// Peek is only ever called at a page header: it checks the header's
// sizes against the chunk (checkPage) before arrow allocates them.
func (s *chunkStream) Peek(n int) ([]byte, error) {
	if len(s.b) < n && s.off < s.end {
		if err := s.fill(n); err != nil {
			return nil, err
		}
	}
	if err := checkPage(s.b, int64(len(s.b))+s.end-s.off, s.unc); err != nil {
		return nil, err
	}
	if n > len(s.b) {
		return s.b, io.EOF
	}
	return s.b[:n], nil
}

func (s *chunkStream) Discard(n int) (int, error) {
	k := min(n, len(s.b))
	s.b = s.b[k:]
	skip := min(int64(n-k), s.end-s.off)
	s.off += skip
	if k+int(skip) < n {
		return k + int(skip), io.EOF
	}
	return n, nil
}

func (s *chunkStream) Read(p []byte) (int, error) {
	if len(s.b) == 0 {
		if s.off >= s.end {
			return 0, io.EOF
		}
		if len(p) >= len(s.buf) { // read straight into p
			want := int(min(int64(len(p)), s.end-s.off))
			k, err := s.f.ReadAt(p[:want], s.off)
			s.off += int64(k)
			if k < want {
				if err == nil || err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return k, err
			}
			return k, nil
		}
		if err := s.fill(0); err != nil {
			return 0, err
		}
	}
	n := copy(p, s.b)
	s.b = s.b[n:]
	return n, nil
}

// pagePool is a memory.Allocator recycling freed buffers.
type pagePool struct {
	mu   sync.Mutex
	free [][]byte
}

func (a *pagePool) Allocate(size int) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, b := range a.free {
		if cap(b) >= size {
			a.free = append(a.free[:i], a.free[i+1:]...)
			return b[:size]
		}
	}
	return make([]byte, size)
}

func (a *pagePool) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

func (a *pagePool) Free(b []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.free) < 4 {
		a.free = append(a.free, b)
	}
}
