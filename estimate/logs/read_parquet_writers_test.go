package logs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
	"github.com/pollfit/pollfit/estimate"
)

// arrowLog writes rows as pyarrow and Spark do: an int64 id column
// first (no reader needs it), then microsecond UTC timestamps and a
// string status, in row groups of group rows, with the writer's props.
func arrowLog(tb testing.TB, rows []Row, group int64, props ...parquet.WriterProperty) []byte {
	tb.Helper()
	mem := memory.DefaultAllocator
	us := &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	ib := array.NewInt64Builder(mem)
	cb, sb := array.NewTimestampBuilder(mem, us), array.NewTimestampBuilder(mem, us)
	stb := array.NewStringBuilder(mem)
	for i, r := range rows {
		ib.Append(int64(i) * 7919)
		cb.Append(arrow.Timestamp(r.Created.UnixMicro()))
		if r.Settled.IsZero() {
			sb.AppendNull()
		} else {
			sb.Append(arrow.Timestamp(r.Settled.UnixMicro()))
		}
		if r.Status == "" {
			stb.AppendNull()
		} else {
			stb.Append(r.Status)
		}
	}
	fields := []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "created_at", Type: us},
		{Name: "settled_at", Type: us, Nullable: true}, {Name: "status", Type: arrow.BinaryTypes.String, Nullable: true}}
	cols := []arrow.Array{ib.NewArray(), cb.NewArray(), sb.NewArray(), stb.NewArray()}
	rec := array.NewRecord(arrow.NewSchema(fields, nil), cols, int64(len(rows)))
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
	var b bytes.Buffer
	if err := pqarrow.WriteTable(tbl, &b, group, parquet.NewWriterProperties(props...), pqarrow.DefaultWriterProps()); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// noSignal is rows without signals: arrowLog writes none.
func noSignal(rows []Row) []Row {
	out := append([]Row(nil), rows...)
	for i := range out {
		out[i].Signal = time.Time{}
	}
	return out
}

// chunkInfo is a column chunk's encodings, codec and byte range.
type chunkInfo struct {
	encodings  []parquet.Encoding
	codec      compress.Compression
	start, end int64
}

// chunkMeta returns the chunks of the named column of data.
func chunkMeta(t *testing.T, data []byte, col string) []chunkInfo {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	idx := pf.MetaData().Schema.ColumnIndexByName(col)
	var out []chunkInfo
	for g := range pf.NumRowGroups() {
		cc, err := pf.MetaData().RowGroup(g).ColumnChunk(idx)
		if err != nil {
			t.Fatal(err)
		}
		start := cc.DataPageOffset()
		if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 {
			start = min(start, cc.DictionaryPageOffset())
		}
		out = append(out, chunkInfo{cc.Encodings(), cc.Compression(), start, start + cc.TotalCompressedSize()})
	}
	return out
}

func hasEncoding(es []parquet.Encoding, e parquet.Encoding) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

// TestReadParquetWriters: logs as arrow writes them — every codec,
// dictionary pages for the timestamps and the status or none, several
// row groups, an id column no reader needs — read to the items worked
// out from the rows and to the items of the same rows as CSV. The id
// column's chunks, overwritten with garbage, change nothing: they are
// never read, let alone decompressed; the same garbage in a needed
// column is an error naming it.
func TestReadParquetWriters(t *testing.T) {
	defer func(n int64) { parquetBatch = n }(parquetBatch)
	parquetBatch = 300 // batches straddle pages and row groups
	rows := noSignal(readLogRows(3000, 9))
	final, pending := readWantItems(rows)
	want := append(final, pending...)
	var csv bytes.Buffer
	if err := WriteCSV(&csv, rows); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "log.csv")
	os.WriteFile(csvPath, csv.Bytes(), 0o644)
	fromCSV, _, err := Read([]string{csvPath}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	readSameItems(t, "csv", fromCSV, want)
	C := compress.Codecs
	for _, codec := range []compress.Compression{C.Uncompressed, C.Snappy, C.Gzip, C.Zstd} {
		for _, dict := range []bool{true, false} {
			name := codec.String()
			if dict {
				name += " dict"
			}
			data := arrowLog(t, rows, 700, parquet.WithCompression(codec), parquet.WithDictionaryDefault(dict))
			for _, c := range chunkMeta(t, data, "created_at") {
				if c.codec != codec || hasEncoding(c.encodings, parquet.Encodings.RLEDict) != dict {
					t.Fatalf("%s: created_at chunk %v %v: not what the test asked for", name, c.codec, c.encodings)
				}
			}
			p := filepath.Join(dir, "log.parquet")
			check := func(what string, data []byte) {
				t.Helper()
				os.WriteFile(p, data, 0o644)
				got, st, err := Read([]string{p}, Options{})
				if err != nil {
					t.Fatalf("%s %s: %v", name, what, err)
				}
				readSameItems(t, name+" "+what, got, fromCSV)
				if st.Rows != int64(len(rows)) || st.Final != int64(len(final)) || st.Pending != int64(len(pending)) {
					t.Errorf("%s %s: stats %+v", name, what, st)
				}
			}
			check("", data)
			check("id overwritten", garbleChunks(t, data, "id"))
			os.WriteFile(p, garbleChunks(t, data, "settled_at"), 0o644)
			if _, _, err := Read([]string{p}, Options{}); err == nil || !strings.Contains(err.Error(), "settled_at") {
				t.Errorf("%s: settled_at overwritten: error %v, want one naming settled_at", name, err)
			}
		}
	}
}

// garbleChunks overwrites every chunk of column col with 0xA5 bytes.
func garbleChunks(t *testing.T, data []byte, col string) []byte {
	out := bytes.Clone(data)
	for _, c := range chunkMeta(t, data, col) {
		for i := c.start; i < c.end; i++ {
			out[i] = 0xa5
		}
	}
	return out
}

// TestReadDuckDBParquet: testdata/duckdb-zstd.parquet, written by
// DuckDB 1.5 (COPY … (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE
// 1024): PLAIN timestamps, a dictionary-encoded status, 4 row groups),
// reads to the items of DuckDB's CSV of the same rows
// (duckdb-zstd.csv.gz); both made by cmd/pollfit-bench's
// TestDuckDBParquet with POLLFIT_WRITE_TESTDATA=1. Its first row, as the
// CSV shows it, was created at 00:00:00 and settled at 00:00:02.091.
func TestReadDuckDBParquet(t *testing.T) {
	pq, csv := filepath.Join("testdata", "duckdb-zstd.parquet"), filepath.Join("testdata", "duckdb-zstd.csv.gz")
	data, err := os.ReadFile(pq)
	if err != nil {
		t.Fatal(err)
	}
	if cs := chunkMeta(t, data, "created_at"); len(cs) != 4 || cs[0].codec != compress.Codecs.Zstd {
		t.Fatalf("%s: %d row groups, %v: not the file described", pq, len(cs), cs[0].codec)
	}
	want, wst, err := Read([]string{csv}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, st, err := Read([]string{pq}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	readSameItems(t, pq, got, want)
	if st.Rows != 3000 || wst.Rows != 3000 || st.Final != wst.Final || st.Pending != wst.Pending {
		t.Errorf("stats %+v, CSV's %+v", st, wst)
	}
	first := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC).UnixNano()
	if got[0].Created != first || got[0].Age != 2.091 || got[0].Status != estimate.Settled {
		t.Errorf("first item %+v, want created %d, age 2.091, settled", got[0], first)
	}
}
