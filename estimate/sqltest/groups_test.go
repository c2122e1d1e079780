package sqltest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/internal/loggen"
)

// segmentedLog writes a generated log of four payment methods (pollfit
// gen --model segmented) of n rows to a CSV file in dir, with values
// the reader and the query must agree on: padded, empty, holding a
// comma and a quote.
func segmentedLog(t *testing.T, dir string, n int) string {
	t.Helper()
	rows := loggen.Rows(loggen.Segmented, n, 5)
	for i := range rows {
		switch r := &rows[i]; {
		case i%53 == 0:
			r.Method = "  " + r.Method + " "
		case i%67 == 0:
			r.Method = ""
		case i%79 == 0:
			r.Method = `bank, "other"`
		case i%41 == 0:
			r.Method = "\t" + r.Method + "\t" // the readers trim tabs too
		}
	}
	var buf bytes.Buffer
	if err := logs.WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "mixed.csv")
	if err := os.WriteFile(file, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return file
}

// ownGrouped is pollfit's sketch --by method of a log.
func ownGrouped(t *testing.T, file string) *estimate.Sketch {
	t.Helper()
	s, err := estimate.NewGroupedSketch("method", holdout, seed)
	if err != nil {
		t.Fatal(err)
	}
	var addErr error
	_, err = logs.EachBy([]string{file}, logs.Options{By: "method"}, func(it estimate.Item, w float64, _ int, v string) {
		if e := s.AddBy(v, it, w); e != nil && addErr == nil {
			addErr = e
		}
	})
	if err != nil || addErr != nil {
		t.Fatal(err, addErr)
	}
	return s
}

// sameGroups checks an engine's segmented sketch against pollfit's:
// the same values, and each value's sketch bin for bin.
func sameGroups(t *testing.T, engine string, own, got *estimate.Sketch) {
	t.Helper()
	if got.By != "method" {
		t.Fatalf("%s: segmented by %q, want method", engine, got.By)
	}
	a, b := slices.Sorted(slices.Values(own.Values())), slices.Sorted(slices.Values(got.Values()))
	if !slices.Equal(a, b) {
		t.Fatalf("%s: values %q, pollfit %q", engine, b, a)
	}
	if len(a) != 6 {
		t.Errorf("pollfit found values %q, want the 4 methods (padded ones trimmed), the empty value and one with a comma and quotes", a)
	}
	for _, v := range a {
		sameSketch(t, engine+" "+v, own.Group(v), got.Group(v))
	}
	mine, theirs := *own, *got
	mine.DropGroups()
	theirs.DropGroups()
	sameSketch(t, engine+" (all values)", &mine, &theirs)
}

// DuckDB's segmented sketch of a log is pollfit's sketch --by, value by
// value.
func TestDuckDBGroupedSketch(t *testing.T) {
	dir := t.TempDir()
	file := segmentedLog(t, dir, 6000)
	csv := duckDBExport(t, dir, file, query(t, "duckdb", "payments", "method"), "method")
	sameGroups(t, "duckdb", ownGrouped(t, file), readExport(t, csv))
}

// PostgreSQL's segmented sketch of a log is pollfit's sketch --by,
// value by value.
func TestPostgresGroupedSketch(t *testing.T) {
	dir := t.TempDir()
	file := segmentedLog(t, dir, 6000)
	out := postgresExport(t, file, query(t, "postgres", "pollfit_payments", "method"), "method")
	sameGroups(t, "postgres", ownGrouped(t, file), readExport(t, out))
}
