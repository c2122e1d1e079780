package logs_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/internal/loggen"
)

// sketchesOf writes a generated segmented log as CSV and returns its
// sketch and its sketch by method, as pollfit sketch makes them.
func sketchesOf(t *testing.T, dir string) (plain, byMethod *estimate.Sketch) {
	t.Helper()
	var buf bytes.Buffer
	if err := logs.WriteCSV(&buf, loggen.Rows(loggen.Segmented, 3000, 2)); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(log, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	plain, _ = estimate.NewSketch(0.3, 5)
	byMethod, _ = estimate.NewGroupedSketch("method", 0.3, 5)
	_, err := logs.EachBy([]string{log}, logs.Options{By: "method"}, func(it estimate.Item, w float64, _ int, v string) {
		plain.Add(it, w)
		if err := byMethod.AddBy(v, it, w); err != nil {
			t.Fatal(err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return plain, byMethod
}

// csvOf is a sketch's CSV file.
func csvOf(t *testing.T, s *estimate.Sketch) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := estimate.WriteSketch(&buf, s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeParquetSketch(t *testing.T, name string, s *estimate.Sketch) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := logs.WriteParquetSketch(&buf, s); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A Parquet sketch reads back as the CSV sketch of the same log reads,
// segmented or not: its CSV file, read back from the CSV, is byte for
// byte the same.
func TestParquetSketchRoundTrip(t *testing.T) {
	dir := t.TempDir()
	plain, byMethod := sketchesOf(t, dir)
	for name, s := range map[string]*estimate.Sketch{"plain": plain, "by": byMethod} {
		pq := filepath.Join(dir, name+".sketch.parquet")
		writeParquetSketch(t, pq, s)
		if !logs.IsParquetSketch(pq) {
			t.Fatalf("%s: not recognised as a sketch", name)
		}
		got, err := logs.ReadParquetSketch(pq)
		if err != nil {
			t.Fatal(err)
		}
		// The bins, not the item sample: a Parquet sketch keeps none.
		bins := *s
		bins.Sample = 0
		want := csvOf(t, &bins)
		fromCSV, err := estimate.ReadSketch(bytes.NewReader(want), name)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := csvOf(t, got), csvOf(t, fromCSV); !bytes.Equal(g, w) {
			t.Errorf("%s: the Parquet sketch reads back otherwise than the CSV one", name)
		}
		if got.HasSample() {
			t.Errorf("%s: a Parquet sketch read back with an item sample", name)
		}
		if got.By != s.By || got.Holdout != 0.3 || got.Seed != 5 || got.Fit.Items+got.HeldOut.Items != 3000 {
			t.Errorf("%s: by %q split %g/%d, %g items", name, got.By, got.Holdout, got.Seed, got.Fit.Items+got.HeldOut.Items)
		}
	}
	var buf bytes.Buffer
	if err := logs.WriteParquet(&buf, loggen.Rows(loggen.Payments, 100, 1)); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "log.parquet")
	os.WriteFile(log, buf.Bytes(), 0o666)
	if logs.IsParquetSketch(log) || logs.IsParquetSketch(filepath.Join(dir, "log.csv")) {
		t.Error("a Parquet or CSV log is taken for a Parquet sketch")
	}
	if _, err := logs.ReadParquetSketch(log); err == nil || !strings.Contains(err.Error(), log+": not a pollfit sketch: no pollfit.sketch") {
		t.Errorf("a Parquet log read as a sketch: %v", err)
	}
}

// A truncated Parquet sketch is an error naming the file, at any
// length; a damaged byte anywhere is an error naming the file or reads
// as some sketch, never a panic.
func TestParquetSketchDamaged(t *testing.T) {
	dir := t.TempDir()
	_, byMethod := sketchesOf(t, dir)
	good := writeParquetSketch(t, filepath.Join(dir, "good.parquet"), byMethod)
	bad := filepath.Join(dir, "bad.sketch.parquet")
	step := max(1, len(good)/97)
	for n := 0; n < len(good); n += step {
		os.WriteFile(bad, good[:n], 0o666)
		if _, err := logs.ReadParquetSketch(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Fatalf("cut to %d of %d bytes: %v", n, len(good), err)
		}
	}
	for i := 4; i < len(good)-4; i += step {
		data := bytes.Clone(good)
		data[i] ^= 0x5a
		os.WriteFile(bad, data, 0o666)
		if _, err := logs.ReadParquetSketch(bad); err != nil && !strings.HasPrefix(err.Error(), bad+": ") {
			t.Fatalf("byte %d damaged: %v", i, err)
		}
	}
}
