package logs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
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
		rdr, pages, err := openColumn(rg, g, p)
		if err != nil {
			return fmt.Errorf("%s: row group %d: column %s: %v", c.l.file, g, c.l.name(p.col), err)
		}
		outs[i], frees[i] = make(chan *pqCol, colBuffers), make(chan *pqCol, colBuffers)
		for range colBuffers {
			frees[i] <- cloneCols(cols[i : i+1])[0]
		}
		wg.Add(1)
		go decodeColumn(&wg, rdr, pages, nrows, outs[i], frees[i], stop)
	}
	cur := make([]*pqCol, len(cols))
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
		b := getBatch()
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
func decodeColumn(wg *sync.WaitGroup, rdr file.ColumnChunkReader, pages *pageCol, nrows int64, out, free chan *pqCol, stop chan struct{}) {
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
		q.rdr, q.pages = rdr, pages
		q.err = q.read(n)
		if !send(q) || q.err != nil {
			return
		}
		left -= n
	}
}

// openColumn opens column p of row group rg: through pageCol, decoding
// the pages directly, when the chunk holds int64 or byte-array values in
// PLAIN or dictionary encodings with RLE levels (the common case, what
// WriteParquet writes); otherwise through arrow's column reader.
func openColumn(rg *file.RowGroupReader, g int, p *pqCol) (file.ColumnChunkReader, *pageCol, error) {
	if pageDecodable(rg, p) {
		pr, err := p.own.pages(rg, p.index, false)
		if pr == nil && err == nil {
			pr, err = rg.GetColumnPageReader(p.index)
		}
		if err != nil {
			return nil, nil, err
		}
		return nil, &pageCol{pr: pr, phys: p.phys, maxDef: p.maxDef}, nil
	}
	pr, err := p.own.pages(rg, p.index, true)
	if pr == nil && err == nil {
		rdr, err := rg.Column(p.index)
		return rdr, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	return file.NewColumnReader(p.own.descr, pr, memory.DefaultAllocator, p.own.buffers), nil, nil
}

func pageDecodable(rg *file.RowGroupReader, p *pqCol) bool {
	if p.phys != parquet.Types.Int64 && p.phys != parquet.Types.ByteArray {
		return false
	}
	cc, err := rg.MetaData().ColumnChunk(p.index)
	if err != nil || cc.CryptoMetadata() != nil {
		return false
	}
	E := parquet.Encodings
	for _, e := range cc.Encodings() {
		if e != E.Plain && e != E.PlainDict && e != E.RLE && e != E.RLEDict {
			return false
		}
	}
	return true
}

// pageCol decodes a column chunk of int64 or byte-array values page by
// page, into the same buffers of pqCol as arrow's ReadBatch; a batch of
// dictionary-encoded byte arrays stays as indices (pqCol.lazy) until
// pqCol.materialize.
type pageCol struct {
	pr     file.PageReader
	phys   parquet.Type
	maxDef int16
	left   int    // values, nulls included, left in the current data page
	vals   []byte // the current PLAIN page's values not yet read
	inDict bool   // the current page holds dictionary indices
	defs   hybrid
	idx    hybrid
	hasDic bool
	dictBA []parquet.ByteArray // the chunk's dictionary, owned
	dict64 []int64
}

var errDictIndex = errors.New("dictionary index out of range")

// read decodes the next n rows into p.
func (c *pageCol) read(p *pqCol, n int) error {
	if p.maxDef > 0 {
		p.defs = grow(p.defs, int64(n))
	}
	p.idx = grow(p.idx, int64(n)) // dictionary indices
	if c.phys == parquet.Types.Int64 {
		p.i64 = grow(p.i64, int64(n))
	} else {
		p.ba = grow(p.ba, int64(n))
		p.arena, p.lazy, p.dict = p.arena[:0], true, nil
	}
	done, nv := 0, 0
	for done < n {
		if c.left == 0 {
			if err := c.nextPage(); err != nil {
				if err == errChunkEnd {
					return fmt.Errorf("truncated column: %d of %d rows", done, n)
				}
				return err
			}
			continue
		}
		m := min(n-done, c.left)
		k := m
		if p.maxDef > 0 {
			d := p.defs[done : done+m]
			if hybridFill(&c.defs, d) != m {
				return errors.New("corrupt page: too few definition levels")
			}
			k = 0
			for _, v := range d {
				if v == p.maxDef {
					k++
				}
			}
		}
		if err := c.values(p, nv, k); err != nil {
			return err
		}
		done, nv, c.left = done+m, nv+k, c.left-m
	}
	p.idx = p.idx[:nv]
	p.pos = 0
	return nil
}

var errChunkEnd = errors.New("end of column chunk")

// values decodes k values into p from index at on.
func (c *pageCol) values(p *pqCol, at, k int) error {
	if c.inDict {
		ix := p.idx[at : at+k]
		if hybridFill(&c.idx, ix) != k {
			return errors.New("corrupt page: too few dictionary indices")
		}
		if c.phys == parquet.Types.Int64 {
			for i, j := range ix {
				if uint32(j) >= uint32(len(c.dict64)) {
					return errDictIndex
				}
				p.i64[at+i] = c.dict64[j]
			}
			return nil
		}
		for _, j := range ix {
			if uint32(j) >= uint32(len(c.dictBA)) {
				return errDictIndex
			}
		}
		p.dict = c.dictBA
		if !p.lazy {
			for i, j := range ix {
				p.ba[at+i] = c.dictBA[j]
			}
		}
		return nil
	}
	if c.phys == parquet.Types.Int64 {
		if len(c.vals) < 8*k {
			return fmt.Errorf("corrupt page: %d values in %d bytes", k, len(c.vals))
		}
		out := p.i64[at : at+k]
		for i := range out {
			out[i] = int64(binary.LittleEndian.Uint64(c.vals[8*i:]))
		}
		c.vals = c.vals[8*k:]
		return nil
	}
	p.materialize(at)
	vals, err := plainByteArrays(c.vals, p.ba[at:at+k], &p.arena)
	c.vals = vals
	return err
}

// plainByteArrays decodes len(out) PLAIN byte arrays from data, copying
// them into arena, and returns the rest of data.
func plainByteArrays(data []byte, out []parquet.ByteArray, arena *[]byte) ([]byte, error) {
	for i := range out {
		if len(data) < 4 {
			return nil, errors.New("corrupt page: byte array past the end")
		}
		l := binary.LittleEndian.Uint32(data)
		if uint64(l) > uint64(len(data)-4) {
			return nil, errors.New("corrupt page: byte array past the end")
		}
		start := len(*arena)
		*arena = append(*arena, data[4:4+l]...)
		out[i] = (*arena)[start:len(*arena):len(*arena)]
		data = data[4+l:]
	}
	return data, nil
}

// nextPage moves to the next data page, reading a dictionary page first.
func (c *pageCol) nextPage() error {
	for {
		if !c.pr.Next() {
			if err := c.pr.Err(); err != nil {
				return err
			}
			return errChunkEnd
		}
		var data []byte
		var enc parquet.Encoding
		switch pg := c.pr.Page().(type) {
		case *file.DictionaryPage:
			if err := c.setDict(pg); err != nil {
				return err
			}
			continue
		case *file.DataPageV1:
			data, enc = pg.Data(), parquet.Encoding(pg.Encoding())
			if c.maxDef > 0 {
				if pg.DefinitionLevelEncoding() != parquet.Encodings.RLE {
					return fmt.Errorf("unsupported definition level encoding %s", pg.DefinitionLevelEncoding())
				}
				if len(data) < 4 || uint64(binary.LittleEndian.Uint32(data)) > uint64(len(data)-4) {
					return errors.New("corrupt page: definition levels past the end")
				}
				l := 4 + int(binary.LittleEndian.Uint32(data))
				c.defs.init(data[4:l], bits.Len16(uint16(c.maxDef)))
				data = data[l:]
			}
		case *file.DataPageV2:
			data, enc = pg.Data(), parquet.Encoding(pg.Encoding())
			rl, dl := int(pg.RepetitionLevelByteLen()), int(pg.DefinitionLevelByteLen())
			if rl < 0 || dl < 0 || rl+dl > len(data) {
				return errors.New("corrupt page: levels past the end")
			}
			c.defs.init(data[rl:rl+dl], bits.Len16(uint16(c.maxDef)))
			data = data[rl+dl:]
		default:
			continue
		}
		c.left = int(c.pr.Page().NumValues())
		switch enc {
		case parquet.Encodings.Plain:
			c.vals, c.inDict = data, false
		case parquet.Encodings.PlainDict, parquet.Encodings.RLEDict:
			if !c.hasDic {
				return errors.New("corrupt column: dictionary page missing")
			}
			if len(data) < 1 || data[0] > 32 {
				return errors.New("corrupt page: bad dictionary index width")
			}
			c.idx.init(data[1:], int(data[0]))
			c.inDict = true
		default:
			return fmt.Errorf("unsupported encoding %s", enc)
		}
		return nil
	}
}

// setDict decodes a PLAIN dictionary page into memory of its own.
func (c *pageCol) setDict(pg *file.DictionaryPage) error {
	enc := parquet.Encoding(pg.Encoding())
	if enc != parquet.Encodings.Plain && enc != parquet.Encodings.PlainDict {
		return fmt.Errorf("unsupported dictionary encoding %s", enc)
	}
	n, data := int(pg.NumValues()), pg.Data()
	c.hasDic = true
	if c.phys == parquet.Types.Int64 {
		if n < 0 || len(data) < 8*n {
			return errors.New("corrupt dictionary page")
		}
		c.dict64 = make([]int64, n)
		for i := range c.dict64 {
			c.dict64[i] = int64(binary.LittleEndian.Uint64(data[8*i:]))
		}
		return nil
	}
	if n < 0 || n > len(data)/4 {
		return errors.New("corrupt dictionary page")
	}
	c.dictBA = make([]parquet.ByteArray, n)
	var arena []byte
	_, err := plainByteArrays(data, c.dictBA, &arena)
	return err
}

// materialize fills p.ba from dictionary indices for the first n values
// of a lazy batch and ends its laziness.
func (p *pqCol) materialize(n int) {
	if !p.lazy {
		return
	}
	for i, j := range p.idx[:n] {
		p.ba[i] = p.dict[j]
	}
	p.lazy = false
}
