package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
)

// wantItems works out the items of rows from the rows: a final item's
// age runs from created to settled, a pending one's to the latest time
// in the log (pollfit's default observed-at), after the final ones.
func wantItems(rows []logs.Row) []estimate.Item {
	var latest time.Time
	for _, r := range rows {
		for _, t := range []time.Time{r.Created, r.Settled} {
			if t.After(latest) {
				latest = t
			}
		}
	}
	var final, pending []estimate.Item
	for _, r := range rows {
		it := estimate.Item{Created: r.Created.UnixNano(), Dated: true, Status: estimate.Settled}
		switch {
		case r.Settled.IsZero():
			it.Status, it.Age = estimate.Pending, latest.Sub(r.Created).Seconds()
			pending = append(pending, it)
			continue
		case r.Status == "failed":
			it.Status = estimate.Failed
		}
		it.Age = r.Settled.Sub(r.Created).Seconds()
		final = append(final, it)
	}
	return append(final, pending...)
}

func sameItems(t *testing.T, what string, got, want []estimate.Item) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d items, want %d", what, len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Status != w.Status || g.Created != w.Created || g.Dated != w.Dated || abs(g.Age-w.Age) > 1e-9*max(1, w.Age) {
			t.Fatalf("%s: item %d = %+v, want %+v", what, i, g, w)
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }

// TestDuckDBParquet: a log copied by DuckDB to Parquet (COPY … (FORMAT
// parquet, COMPRESSION zstd), several row groups) reads to the items
// worked out from its rows, the same as the CSV and pollfit-written
// Parquet of the rows. With POLLFIT_WRITE_TESTDATA=1 it also writes the
// DuckDB file and DuckDB's CSV of it to estimate/logs/testdata, where
// estimate/logs's tests read them without DuckDB.
func TestDuckDBParquet(t *testing.T) {
	var rows []logs.Row
	if err := payRows(3000, 1000, func(r []logs.Row) error { rows = append(rows, r...); return nil }); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pq, csv, duck := filepath.Join(dir, "log.parquet"), filepath.Join(dir, "log.csv"), filepath.Join(dir, "duck.parquet")
	var b bytes.Buffer
	if err := logs.WriteParquet(&b, rows); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(pq, b.Bytes(), 0o644)
	b.Reset()
	if err := logs.WriteCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(csv, b.Bytes(), 0o644)
	if err := writeDuckLog(duck, pq, ", ROW_GROUP_SIZE 1024"); err != nil {
		t.Fatal(err)
	}
	checkZstd(t, duck)
	want := wantItems(rows)
	for _, p := range []string{csv, pq, duck} {
		got, st, err := logs.Read([]string{p}, logs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sameItems(t, filepath.Base(p), got, want)
		if st.Rows != int64(len(rows)) {
			t.Errorf("%s: %d rows, want %d", p, st.Rows, len(rows))
		}
	}
	if os.Getenv("POLLFIT_WRITE_TESTDATA") == "1" {
		out := filepath.Join("..", "..", "estimate", "logs", "testdata")
		if err := writeDuckLog(filepath.Join(out, "duckdb-zstd.parquet"), pq, ", ROW_GROUP_SIZE 1024"); err != nil {
			t.Fatal(err)
		}
		if err := duckCSV(filepath.Join(out, "duckdb-zstd.csv"), pq); err != nil {
			t.Fatal(err)
		}
	}
}

// checkZstd fails unless every column chunk of the file at p is zstd
// and there are several row groups.
func checkZstd(t *testing.T, p string) {
	t.Helper()
	r, err := file.OpenParquetFile(p, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.NumRowGroups() < 2 {
		t.Errorf("%s: %d row groups, want several", p, r.NumRowGroups())
	}
	for g := range r.NumRowGroups() {
		rg := r.MetaData().RowGroup(g)
		for c := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			if cc.Compression() != compress.Codecs.Zstd {
				t.Errorf("%s: row group %d column %d: %v, want zstd", p, g, c, cc.Compression())
			}
		}
	}
}
