package main

import (
	"database/sql"
	"fmt"
	"os"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
	"github.com/pollfit/pollfit/estimate/logs"
)

// Parquet writers whose files -writers times: pollfit's own (PLAIN
// pages), arrow's as pyarrow and Spark write by default (dictionary
// encoding, snappy, here 10 row groups and an extra id column), and
// DuckDB's COPY … (FORMAT parquet, COMPRESSION zstd).
var parquetWriters = []string{"pollfit", "arrow", "duckdb"}

// logPath is the log of n rows in dir from writer (pollfit for CSV).
func logPath(dir string, n int, ext, writer string) string {
	if writer == "pollfit" || ext == ".csv" {
		return fmt.Sprintf("%s/payments-%d%s", dir, n, ext)
	}
	return fmt.Sprintf("%s/payments-%d-%s%s", dir, n, writer, ext)
}

// ensureWriterLog writes the log at path from writer unless it is there;
// arrow's and DuckDB's hold the rows of pollfit's log at from.
func ensureWriterLog(path, from, writer string, n int) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	fmt.Fprintf(os.Stderr, "generating %s ...\n", path)
	tmp := path + ".tmp"
	defer os.Remove(tmp)
	var err error
	switch writer {
	case "arrow":
		err = writeArrowLog(tmp, n)
	case "duckdb":
		err = writeDuckLog(tmp, from, "")
	default:
		return fmt.Errorf("-writers: %q is not one of %s", writer, strings.Join(parquetWriters, ", "))
	}
	if err != nil {
		return fmt.Errorf("write %s: %v", path, err)
	}
	return os.Rename(tmp, path)
}

// writeDuckLog has DuckDB copy the log at from to path as Parquet,
// zstd, with more COPY options if opts is not empty.
func writeDuckLog(path, from, opts string) error {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	q := "COPY (SELECT * FROM " + source(from) + ") TO " + quote(path) + " (FORMAT parquet, COMPRESSION zstd" + opts + ")"
	_, err = db.Exec(q)
	return err
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// writeArrowLog writes payRows(n) with arrow's writer: an int64 id
// column, microsecond UTC timestamps, a string status, dictionary
// encoding on (arrow falls back to PLAIN pages in a column chunk whose
// dictionary outgrows 1 MiB), snappy (pyarrow's default), in 10 row
// groups.
func writeArrowLog(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	us := &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "created_at", Type: us},
		{Name: "settled_at", Type: us, Nullable: true}, {Name: "status", Type: arrow.BinaryTypes.String}}, nil)
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(true), parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(int64(max(1, (n+9)/10))))
	w, err := pqarrow.NewFileWriter(sc, f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return err
	}
	mem := memory.DefaultAllocator
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	id := int64(0)
	err = payRows(n, max(1, (n+9)/10), func(rows []logs.Row) error {
		ib, cb := b.Field(0).(*array.Int64Builder), b.Field(1).(*array.TimestampBuilder)
		sb, stb := b.Field(2).(*array.TimestampBuilder), b.Field(3).(*array.StringBuilder)
		for _, r := range rows {
			ib.Append(id)
			id++
			cb.Append(arrow.Timestamp(r.Created.UnixMicro()))
			if r.Settled.IsZero() {
				sb.AppendNull()
			} else {
				sb.Append(arrow.Timestamp(r.Settled.UnixMicro()))
			}
			stb.Append(r.Status)
		}
		rec := b.NewRecord()
		defer rec.Release()
		return w.WriteBuffered(rec)
	})
	if err != nil {
		return err
	}
	return w.Close() // closes f too
}

// duckCSV has DuckDB copy the log at from to path as CSV, times in UTC.
func duckCSV(path, from string) error {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec("SET TimeZone = 'UTC'"); err != nil {
		return err
	}
	_, err = db.Exec("COPY (SELECT * FROM " + source(from) + ") TO " + quote(path) + " (FORMAT csv, HEADER)")
	return err
}
