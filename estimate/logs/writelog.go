package logs

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/schema"
)

// Row is one row of a settle-time log as the generator and the tests
// write it.
type Row struct {
	// Created is when the item was created.
	Created time.Time
	// Settled is when the final answer came; the zero time means the item
	// is still pending.
	Settled time.Time
	// Status is the status text ("settled", "failed", "pending", ...);
	// empty writes an empty field (a null in Parquet).
	Status string
	// Signal is when a signal reached the client; the zero time means
	// none did. The signal_at column is written only when some row has one.
	Signal time.Time
	// Method is a categorical value of the row, such as a payment method,
	// written as the last column, method, only when some row has one (a
	// segment to fit on its own with --by method).
	Method string
}

const csvTimeLayout = "2006-01-02T15:04:05.000Z07:00"

func rowsHaveMethod(rows []Row) bool {
	for _, r := range rows {
		if r.Method != "" {
			return true
		}
	}
	return false
}

func rowsHaveSignal(rows []Row) bool {
	for _, r := range rows {
		if !r.Signal.IsZero() {
			return true
		}
	}
	return false
}

// WriteCSV writes rows as a CSV log with the header
// created_at,settled_at,status (and signal_at when a row has a signal),
// timestamps in RFC 3339 with milliseconds in UTC, pending rows with an
// empty settled_at, and a last column method when some row has one. Each
// and Read read it back with the default options.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := NewCSVWriter(w, rowsHaveSignal(rows), rowsHaveMethod(rows))
	if err := cw.Write(rows); err != nil {
		return err
	}
	return cw.Close()
}

// CSVWriter writes a CSV log in pieces, for logs too big to hold at once.
type CSVWriter struct {
	w      *bufio.Writer
	signal bool
	method bool
	header bool
	buf    []byte
}

// NewCSVWriter returns a writer of the format of WriteCSV; withSignal
// adds the signal_at column and withMethod the method column.
func NewCSVWriter(w io.Writer, withSignal, withMethod bool) *CSVWriter {
	return &CSVWriter{w: bufio.NewWriterSize(w, 1<<16), signal: withSignal, method: withMethod}
}

// Write appends rows (the header is written before the first).
func (c *CSVWriter) Write(rows []Row) error {
	if !c.header {
		c.header = true
		h := "created_at,settled_at,status"
		if c.signal {
			h += ",signal_at"
		}
		if c.method {
			h += ",method"
		}
		if _, err := c.w.WriteString(h + "\n"); err != nil {
			return err
		}
	}
	for _, r := range rows {
		b := c.buf[:0]
		b = appendCSVTime(b, r.Created)
		b = append(b, ',')
		b = appendCSVTime(b, r.Settled)
		b = append(b, ',')
		b = appendCSVField(b, r.Status)
		if c.signal {
			b = append(b, ',')
			b = appendCSVTime(b, r.Signal)
		}
		if c.method {
			b = append(b, ',')
			b = appendCSVField(b, r.Method)
		}
		b = append(b, '\n')
		c.buf = b
		if _, err := c.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// Close writes the header if no row was written and flushes.
func (c *CSVWriter) Close() error {
	if !c.header {
		if err := c.Write(nil); err != nil {
			return err
		}
	}
	return c.w.Flush()
}

func appendCSVTime(b []byte, t time.Time) []byte {
	if t.IsZero() {
		return b
	}
	return t.UTC().AppendFormat(b, csvTimeLayout)
}

func appendCSVField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\r\n") {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}

// WriteParquet writes rows as a snappy-compressed Parquet log with the
// columns created_at (timestamp[us], UTC), settled_at (timestamp[us],
// null while pending), status (string, dictionary-encoded, null when
// empty) and, when a row has a signal, signal_at (timestamp[us], null
// when none) and, when a row has a method, method (string,
// dictionary-encoded, null when empty). Rows are split into about four row groups (at most 2^20
// rows each). Each and Read read it back with the default options.
func WriteParquet(w io.Writer, rows []Row) error {
	n := ParquetGroupRows(len(rows))
	pw := NewParquetWriter(w, rowsHaveSignal(rows), rowsHaveMethod(rows))
	for len(rows) > 0 {
		k := min(n, len(rows))
		if err := pw.Write(rows[:k]); err != nil {
			pw.Close()
			return err
		}
		rows = rows[k:]
	}
	return pw.Close()
}

// ParquetWriter writes a Parquet log in the format of WriteParquet, one
// row group per call to Write, for logs too big to hold at once.
type ParquetWriter struct {
	fw     *file.Writer
	signal bool
	method bool
	ts     []int64
	defs   []int16
	strs   []parquet.ByteArray
}

// ParquetGroupRows is the rows of each row group WriteParquet writes
// for a log of n rows: about a quarter, at most 2^20.
func ParquetGroupRows(n int) int { return max(1, min((n+3)/4, 1<<20)) }

// NewParquetWriter returns a writer of the format of WriteParquet;
// withSignal adds the signal_at column and withMethod the method column.
func NewParquetWriter(w io.Writer, withSignal, withMethod bool) *ParquetWriter {
	ts := func(name string, rep parquet.Repetition) schema.Node {
		return schema.Must(schema.NewPrimitiveNodeLogical(name, rep,
			schema.NewTimestampLogicalType(true, schema.TimeUnitMicros), parquet.Types.Int64, -1, -1))
	}
	fields := schema.FieldList{
		ts("created_at", parquet.Repetitions.Required),
		ts("settled_at", parquet.Repetitions.Optional),
		schema.Must(schema.NewPrimitiveNodeLogical("status", parquet.Repetitions.Optional,
			schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1)),
	}
	if withSignal {
		fields = append(fields, ts("signal_at", parquet.Repetitions.Optional))
	}
	if withMethod {
		fields = append(fields, schema.Must(schema.NewPrimitiveNodeLogical("method", parquet.Repetitions.Optional,
			schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1)))
	}
	sc := schema.MustGroup(schema.NewGroupNode("schema", parquet.Repetitions.Required, fields, -1))
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDictionaryDefault(false),
		parquet.WithDictionaryFor("status", true),
		parquet.WithDictionaryFor("method", true),
		parquet.WithCreatedBy("pollfit"),
	)
	return &ParquetWriter{fw: file.NewParquetWriter(w, sc, file.WithWriterProps(props)), signal: withSignal, method: withMethod}
}

// Write writes rows as one row group.
func (p *ParquetWriter) Write(rows []Row) (err error) {
	if len(rows) == 0 {
		return nil
	}
	defer func() {
		if r := recover(); r != nil { // the arrow writer panics on I/O errors
			err = fmt.Errorf("write parquet: %v", r)
		}
	}()
	rg := p.fw.AppendRowGroup()
	if err := p.writeTimes(rg, rows, func(r *Row) time.Time { return r.Created }, false); err != nil {
		return err
	}
	if err := p.writeTimes(rg, rows, func(r *Row) time.Time { return r.Settled }, true); err != nil {
		return err
	}
	if err := p.writeStrings(rg, rows, func(r *Row) string { return r.Status }); err != nil {
		return err
	}
	if p.signal {
		if err := p.writeTimes(rg, rows, func(r *Row) time.Time { return r.Signal }, true); err != nil {
			return err
		}
	}
	if p.method {
		if err := p.writeStrings(rg, rows, func(r *Row) string { return r.Method }); err != nil {
			return err
		}
	}
	return rg.Close()
}

func (p *ParquetWriter) writeTimes(rg file.SerialRowGroupWriter, rows []Row, get func(*Row) time.Time, optional bool) error {
	cw, err := rg.NextColumn()
	if err != nil {
		return err
	}
	p.ts, p.defs = p.ts[:0], p.defs[:0]
	for i := range rows {
		t := get(&rows[i])
		if t.IsZero() {
			if !optional {
				return errors.New("write parquet: created_at is the zero time")
			}
			p.defs = append(p.defs, 0)
			continue
		}
		p.ts = append(p.ts, t.UnixMicro())
		p.defs = append(p.defs, 1)
	}
	defs := p.defs
	if !optional {
		defs = nil
	}
	if _, err := cw.(*file.Int64ColumnChunkWriter).WriteBatch(p.ts, defs, nil); err != nil {
		return err
	}
	return cw.Close()
}

// writeStrings writes a string column, null where get is empty.
func (p *ParquetWriter) writeStrings(rg file.SerialRowGroupWriter, rows []Row, get func(*Row) string) error {
	cw, err := rg.NextColumn()
	if err != nil {
		return err
	}
	p.strs, p.defs = p.strs[:0], p.defs[:0]
	for i := range rows {
		v := get(&rows[i])
		if v == "" {
			p.defs = append(p.defs, 0)
			continue
		}
		p.strs = append(p.strs, parquet.ByteArray(v))
		p.defs = append(p.defs, 1)
	}
	if _, err := cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(p.strs, p.defs, nil); err != nil {
		return err
	}
	return cw.Close()
}

// Close writes the footer. It does not close the underlying writer.
func (p *ParquetWriter) Close() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("write parquet: %v", r)
		}
	}()
	return p.fw.FlushWithFooter()
}
