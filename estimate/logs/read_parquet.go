package logs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/schema"
	"github.com/pollfit/pollfit/estimate"
)

// parquetBatch is how many rows are decoded at a time.
var parquetBatch int64 = 1 << 13

// Column roles in a Parquet log.
const (
	roleCreated = iota
	roleSettled
	roleDuration
	roleStatus
	roleSignal
	roleBy
)

// readParquet reads a Parquet log row group by row group, decoding only
// the needed columns straight from their pages into items. Each needed
// column has a colSource recycling its page reader and buffers, and the
// usual encodings are decoded by pageCol rather than arrow's column
// readers: int64 values are copied out of PLAIN pages, and a
// dictionary-encoded status stays as indices, its few dictionary
// entries looked up once per batch (dictCodes).
func (r *reader) readParquet(name string, f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	return r.readParquetAt(name, f, info.Size())
}

// parquetSource is what a Parquet log is read from: an open file, or
// bytes in memory (bytes.Reader, for the fuzz target).
type parquetSource interface {
	io.ReaderAt
	io.Seeker
}

// readParquetAt is readParquet of the size bytes of f.
func (r *reader) readParquetAt(name string, f parquetSource, size int64) (err error) {
	defer func() {
		if p := recover(); p != nil { // arrow panics on some corrupt files
			err = fmt.Errorf("%s: corrupt parquet file: %v", name, p)
		}
	}()
	pf, err := openParquetAt(f, size)
	if err != nil {
		return fmt.Errorf("%s: not a readable parquet file: %v", name, err)
	}
	defer pf.Close()
	sc := pf.MetaData().Schema
	header := make([]string, sc.NumColumns())
	for i := range header {
		header[i] = sc.Column(i).Path()
	}
	l, err := resolveColumns(name, header, &r.opt)
	if err != nil {
		return err
	}
	if l.mode == modeHist {
		return fmt.Errorf("%s: histograms must be CSV", name)
	}
	cols, err := parquetColumns(l, sc)
	if err != nil {
		return err
	}
	for _, p := range cols {
		p.own = &colSource{f: f, size: size, writer: pf.WriterVersion(), descr: sc.Column(p.index), buffers: pf.BufferPool()}
	}
	return r.parquetGroups(pf, cols, r.newConv(l), size)
}

// pqCol is one needed column of a Parquet log and its decoded values.
type pqCol struct {
	role, col, index int // role, layout column, parquet leaf column
	phys             parquet.Type
	unit             int64 // ns per unit of a timestamp column, 0 for epochs
	date             bool  // int32 days since 1970
	local            bool  // a timestamp not adjusted to UTC: wall-clock time
	maxDef           int16
	rdr              file.ColumnChunkReader
	pages            *pageCol   // decodes the pages instead of rdr
	own              *colSource // reusable page reader and buffers
	defs             []int16
	i64              []int64
	i32              []int32
	f64              []float64
	f32              []float32
	ba               []parquet.ByteArray
	bl               []bool
	i96              []parquet.Int96
	idx              []int32             // dictionary indices of ba while lazy
	dict             []parquet.ByteArray // their dictionary
	lazy             bool                // ba not filled yet: see materialize
	arena            []byte              // the bytes of PLAIN byte arrays
	pos, cur         int
	err              error // a decoding error, in groupByColumns
}

// parquetColumns checks the types of the needed columns.
func parquetColumns(l *layout, sc *schema.Schema) ([]*pqCol, error) {
	var cols []*pqCol
	add := func(role, col int, allowed ...parquet.Type) error {
		if col < 0 {
			return nil
		}
		c := sc.Column(col)
		p := &pqCol{role: role, col: col, index: col, phys: c.PhysicalType(), maxDef: c.MaxDefinitionLevel()}
		if c.MaxRepetitionLevel() > 0 {
			return fmt.Errorf("%s: column %s: repeated columns are not supported", l.file, l.name(col))
		}
		ok := false
		for _, t := range allowed {
			ok = ok || t == p.phys
		}
		if !ok {
			return fmt.Errorf("%s: column %s: parquet type %s does not fit a %s column", l.file, l.name(col), p.phys, roleNames[role])
		}
		switch lt := c.LogicalType().(type) {
		case *schema.TimestampLogicalType:
			p.unit, p.local = tsUnitNS(lt.TimeUnit()), !lt.IsAdjustedToUTC()
		case schema.TimestampLogicalType:
			p.unit, p.local = tsUnitNS(lt.TimeUnit()), !lt.IsAdjustedToUTC()
		case schema.DateLogicalType, *schema.DateLogicalType:
			p.date = p.phys == parquet.Types.Int32
		}
		cols = append(cols, p)
		return nil
	}
	T := parquet.Types
	times := []parquet.Type{T.Int64, T.Int32, T.Double, T.Float, T.Int96, T.ByteArray}
	for _, err := range []error{
		add(roleCreated, l.created, times...),
		add(roleSettled, l.settled, times...),
		add(roleDuration, l.duration, T.Double, T.Float, T.Int64, T.Int32, T.ByteArray),
		add(roleStatus, l.status, T.ByteArray, T.Boolean, T.Int32, T.Int64),
		add(roleSignal, l.signal, times...),
		add(roleBy, l.by, T.ByteArray, T.Boolean, T.Int32, T.Int64, T.Double, T.Float),
	} {
		if err != nil {
			return nil, err
		}
	}
	return cols, nil
}

var roleNames = []string{"created_at", "settled_at", "duration", "status", "signal", "segment"}

func tsUnitNS(u schema.TimeUnitType) int64 {
	switch u {
	case schema.TimeUnitMillis:
		return 1e6
	case schema.TimeUnitMicros:
		return 1e3
	}
	return 1
}

// read decodes the next n rows of the column.
func (p *pqCol) read(n int64) error {
	if p.pages != nil {
		return p.pages.read(p, int(n))
	}
	if cap(p.defs) < int(n) {
		p.defs = make([]int16, n)
	}
	defs := p.defs[:n]
	var rows int64
	var err error
	switch r := p.rdr.(type) {
	case *file.Int64ColumnChunkReader:
		p.i64 = grow(p.i64, n)
		rows, _, err = r.ReadBatch(n, p.i64, defs, nil)
	case *file.Int32ColumnChunkReader:
		p.i32 = grow(p.i32, n)
		rows, _, err = r.ReadBatch(n, p.i32, defs, nil)
	case *file.Float64ColumnChunkReader:
		p.f64 = grow(p.f64, n)
		rows, _, err = r.ReadBatch(n, p.f64, defs, nil)
	case *file.Float32ColumnChunkReader:
		p.f32 = grow(p.f32, n)
		rows, _, err = r.ReadBatch(n, p.f32, defs, nil)
	case *file.ByteArrayColumnChunkReader:
		p.ba = grow(p.ba, n)
		rows, _, err = r.ReadBatch(n, p.ba, defs, nil)
	case *file.BooleanColumnChunkReader:
		p.bl = grow(p.bl, n)
		rows, _, err = r.ReadBatch(n, p.bl, defs, nil)
	case *file.Int96ColumnChunkReader:
		p.i96 = grow(p.i96, n)
		rows, _, err = r.ReadBatch(n, p.i96, defs, nil)
	default:
		return fmt.Errorf("unsupported column reader %T", p.rdr)
	}
	if err != nil {
		return err
	}
	if rows != n {
		return fmt.Errorf("truncated column: %d of %d rows", rows, n)
	}
	p.pos = 0
	return nil
}

func grow[T any](s []T, n int64) []T {
	if int64(cap(s)) < n {
		return make([]T, n)
	}
	return s[:n]
}

// advance moves to row k: cur is its value's index, or -1 for a null.
func (p *pqCol) advance(k int) {
	if p.maxDef > 0 && p.defs[k] < p.maxDef {
		p.cur = -1
		return
	}
	p.cur = p.pos
	p.pos++
}

var errNotFinite = errors.New("not a finite number")

// number returns a numeric value as float64.
func (p *pqCol) number() float64 {
	switch p.phys {
	case parquet.Types.Int64:
		return float64(p.i64[p.cur])
	case parquet.Types.Int32:
		return float64(p.i32[p.cur])
	case parquet.Types.Double:
		return p.f64[p.cur]
	case parquet.Types.Float:
		return float64(p.f32[p.cur])
	}
	return math.NaN()
}

// isTime reports whether the column's values are times by their type.
func (p *pqCol) isTime() bool {
	return p.unit > 0 || p.date || p.phys == parquet.Types.Int96
}

// time returns the current value as Unix nanoseconds.
func (p *pqCol) time(tp *timeParser) (int64, error) {
	switch {
	case p.unit > 0:
		v := p.i64[p.cur]
		if v > math.MaxInt64/p.unit || v < math.MinInt64/p.unit {
			return 0, errTimeRange
		}
		if p.local && tp.loc != nil { // wall-clock time in the zone option
			return tp.inZone(v * p.unit)
		}
		return v * p.unit, nil
	case p.date && tp.loc != nil:
		return tp.inZone(int64(p.i32[p.cur]) * 86400e9)
	case p.date:
		return unixNano(timeOfDays(int64(p.i32[p.cur])))
	case p.phys == parquet.Types.Int96:
		return unixNano(p.i96[p.cur].ToTime())
	case p.phys == parquet.Types.ByteArray:
		return tp.parse(trim(p.ba[p.cur]))
	case p.phys == parquet.Types.Int64:
		return tp.epoch(strconv.AppendInt(nil, p.i64[p.cur], 10))
	case p.phys == parquet.Types.Int32:
		return tp.epoch(strconv.AppendInt(nil, int64(p.i32[p.cur]), 10))
	}
	f := p.number()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errNotFinite
	}
	return tp.epoch(strconv.AppendFloat(nil, f, 'f', -1, 64))
}

// statusText returns the status value as text for the status table.
func (p *pqCol) statusText(buf []byte) []byte {
	switch p.phys {
	case parquet.Types.ByteArray:
		return trim(p.ba[p.cur])
	case parquet.Types.Boolean:
		return strconv.AppendBool(buf, p.bl[p.cur])
	case parquet.Types.Int32:
		return strconv.AppendInt(buf, int64(p.i32[p.cur]), 10)
	}
	return strconv.AppendInt(buf, p.i64[p.cur], 10)
}

// statusCache remembers the last few statuses looked up: status
// columns repeat a few values (settled, failed, pending), mixed.
type statusCache struct {
	texts [4][]byte
	sts   [4]estimate.Status
	n     int // entries in use
	next  int // the entry to replace when all are
}

func (c *rowConv) lookupCached(sc *statusCache, s []byte) (estimate.Status, bool) {
	return sc.lookup(c.status, s)
}

// lookup is words.Lookup(s), from the cache when s was looked up lately.
func (sc *statusCache) lookup(words *estimate.StatusWords, s []byte) (estimate.Status, bool) {
	for i := range sc.n {
		if bytes.Equal(sc.texts[i], s) {
			return sc.sts[i], true
		}
	}
	st, ok := words.Lookup(s)
	if ok {
		i := sc.n
		if i == len(sc.texts) {
			i, sc.next = sc.next, (sc.next+1)%len(sc.texts)
		} else {
			sc.n++
		}
		sc.texts[i] = append(sc.texts[i][:0], s...)
		sc.sts[i] = st
	}
	return st, ok
}
