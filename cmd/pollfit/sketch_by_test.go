package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/source"
)

// groupedLog writes pollfit gen --model segmented's log of n rows.
func groupedLog(t *testing.T, dir string, n string) string {
	t.Helper()
	file := filepath.Join(dir, "mixed.csv")
	if _, errs, code := cliRun(t, "gen", "--model", "segmented", "-n", n, "--seed", "3", "-o", file); code != 0 {
		t.Fatalf("gen: %s", errs)
	}
	return file
}

// splitByColumn writes one CSV per value of a column of a CSV log, the
// rows of that value alone, and counts each value's rows and final ones
// (a row with a settled_at).
func splitByColumn(t *testing.T, file, col, dir string) (files map[string]string, rows, final map[string]float64) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head, ci, si := recs[0], -1, -1
	for i, h := range head {
		switch h {
		case col:
			ci = i
		case "settled_at":
			si = i
		}
	}
	byValue := map[string][][]string{}
	rows, final, files = map[string]float64{}, map[string]float64{}, map[string]string{}
	for _, r := range recs[1:] {
		v := r[ci]
		byValue[v] = append(byValue[v], r)
		rows[v]++
		if r[si] != "" {
			final[v]++
		}
	}
	for v, rs := range byValue {
		name := filepath.Join(dir, v+".csv")
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.WriteAll(append([][]string{head}, rs...))
		if err := os.WriteFile(name, buf.Bytes(), 0o666); err != nil {
			t.Fatal(err)
		}
		files[v] = name
	}
	return files, rows, final
}

// sameRows checks that b has a's rows: the same bins, weights, least
// ages and mixed flags, sums of ages to 1e-12 relative (the halves add
// them in another order).
func sameRows(t *testing.T, a, b *estimate.Sketch) {
	t.Helper()
	var x, y []estimate.SketchRow
	a.Rows(func(r estimate.SketchRow) error { x = append(x, r); return nil })
	b.Rows(func(r estimate.SketchRow) error { y = append(y, r); return nil })
	if len(x) != len(y) || a.By != b.By {
		t.Fatalf("%d rows by %q, want %d by %q", len(y), b.By, len(x), a.By)
	}
	for i := range x {
		p, q := x[i], y[i]
		sum := math.Abs(p.Sum-q.Sum) <= 1e-12*p.Sum
		p.Sum, q.Sum = 0, 0
		if p != q || !sum {
			t.Fatalf("row %d: %+v, want %+v", i, y[i], x[i])
		}
	}
}

func readSketchFile(t *testing.T, name string) *estimate.Sketch {
	t.Helper()
	in, err := source.Read(context.Background(), []string{name}, source.Options{Sketch: true})
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	if in.FromLog {
		t.Fatalf("read %s: not a sketch", name)
	}
	return in.Sketch
}

// sketch --by writes, for each value, the sketch 'pollfit sketch' makes
// of that value's rows alone; fit --by from it ships what fit --by from
// the log ships, the same figures to the byte, and each value's counts
// are the log's, counted from the CSV.
func TestSketchBy(t *testing.T) {
	dir := t.TempDir()
	log := groupedLog(t, dir, "4000")
	sk := filepath.Join(dir, "mixed.sketch.csv")
	// Pending rows are censored at --observed-at, by default the latest
	// timestamp of the input: one value's rows alone end earlier.
	const observed = "2026-11-03T00:00:00Z"
	if _, errs, code := cliRun(t, "sketch", "-q", "--by", "method", "--observed-at", observed, "-o", sk, log); code != 0 {
		t.Fatalf("sketch --by: %s", errs)
	}
	s := readSketchFile(t, sk)
	files, rows, final := splitByColumn(t, log, "method", dir)
	if s.By != "method" || len(s.Groups) != len(files) {
		t.Fatalf("sketch by %q with %d values, want method and %d", s.By, len(s.Groups), len(files))
	}
	for v, f := range files {
		one := filepath.Join(dir, v+".sketch.csv")
		if _, errs, code := cliRun(t, "sketch", "-q", "--sample", "0", "--observed-at", observed, "-o", one, f); code != 0 {
			t.Fatalf("sketch %s: %s", f, errs)
		}
		want, _ := os.ReadFile(one)
		var got bytes.Buffer
		seg := s.Group(v)
		if err := estimate.WriteSketch(&got, seg); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: the segment differs from the sketch of its rows alone", v)
		}
		if n, k := seg.Fit.Items+seg.HeldOut.Items, seg.Fit.Final+seg.HeldOut.Final; n != rows[v] || k != final[v] {
			t.Errorf("%s: %g items, %g final; the log has %g, %g", v, n, k, rows[v], final[v])
		}
	}
	args := []string{"--by", "method", "--observed-at", observed, "--requests-per-item", "8", "--batches=false", "--bootstrap", "0"}
	fromLog, _ := fitJSONOf(t, append(args, log)...)
	fromSketch, _ := fitJSONOf(t, append(args, sk)...)
	if !bytes.Equal(fromLog, fromSketch) {
		t.Errorf("fit --by from the log and from its sketch differ:\n%s\n%s", fromLog, fromSketch)
	}
}

// --by and a sketch's column must agree, and a sketch without groups
// cannot be split; without --by a grouped sketch is its segments' sum.
func TestSketchByErrors(t *testing.T) {
	dir := t.TempDir()
	log := groupedLog(t, dir, "600")
	seg, plain := filepath.Join(dir, "seg.sketch.csv"), filepath.Join(dir, "plain.sketch.csv")
	for _, c := range [][]string{{"--by", "method", "-o", seg}, {"-o", plain}} {
		if _, errs, code := cliRun(t, append(append([]string{"sketch", "-q"}, c...), log)...); code != 0 {
			t.Fatalf("sketch %q: %s", c, errs)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"estimate", "--by", "status", seg}, "estimate: --by status: " + seg + " is a sketch by method: give --by method, or a sketch made with --by status"},
		{[]string{"fit", "--by", "method", "--requests-per-item", "8", plain}, "fit: --by method: " + plain + " is a sketch without groups: make it with pollfit sketch --by method"},
		{[]string{"sketch", "-o", filepath.Join(dir, "x.csv"), seg, plain}, `merge a sketch without groups into one by "method"`},
	} {
		_, errs, code := cliRun(t, c.args...)
		if code == 0 || !bytes.Contains([]byte(errs), []byte(c.want)) {
			t.Errorf("%q: exit %d, %q; want %q", c.args, code, errs, c.want)
		}
	}
	a, _, _ := cliRun(t, "estimate", "--json", seg)
	b, _, _ := cliRun(t, "estimate", "--json", plain)
	if a != b || a == "" {
		t.Errorf("estimate of the grouped sketch differs from the plain one's:\n%s\n%s", a, b)
	}
}

// A Parquet sketch is read wherever a CSV one is, and merges with CSV
// sketches: the two halves of a log, one sketched to Parquet and one to
// CSV, merge into the sketch of the whole log, byte for byte; estimate
// reads the Parquet sketch as the CSV one.
func TestParquetSketchFile(t *testing.T) {
	dir := t.TempDir()
	log := groupedLog(t, dir, "1000")
	data, _ := os.ReadFile(log)
	lines := bytes.SplitAfter(data, []byte("\n"))
	head, rest := lines[0], lines[1:]
	halves := []string{filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")}
	os.WriteFile(halves[0], bytes.Join(append([][]byte{head}, rest[:400]...), nil), 0o666)
	os.WriteFile(halves[1], bytes.Join(append([][]byte{head}, rest[400:]...), nil), 0o666)
	const observed = "2026-11-03T00:00:00Z"
	outs := []string{filepath.Join(dir, "a.sketch.parquet"), filepath.Join(dir, "b.sketch.csv"), filepath.Join(dir, "all.sketch.csv"), filepath.Join(dir, "merged.sketch.csv")}
	for _, c := range [][]string{
		{"--by", "method", "-o", outs[0], halves[0]}, {"--by", "method", "-o", outs[1], halves[1]},
		{"--by", "method", "-o", outs[2], log}, {"-o", outs[3], outs[0], outs[1]},
	} {
		if _, errs, code := cliRun(t, append([]string{"sketch", "-q", "--observed-at", observed}, c...)...); code != 0 {
			t.Fatalf("sketch %q: %s", c, errs)
		}
	}
	sameRows(t, readSketchFile(t, outs[2]), readSketchFile(t, outs[3]))
	if s := readSketchFile(t, outs[0]); s.By != "method" || s.Fit.Items+s.HeldOut.Items != 400 {
		t.Errorf("the Parquet half: by %q, %g items, want method and 400", s.By, s.Fit.Items+s.HeldOut.Items)
	}
	pq := filepath.Join(dir, "all.sketch.parquet")
	if _, errs, code := cliRun(t, "sketch", "-q", "-o", pq, outs[2]); code != 0 {
		t.Fatalf("sketch to parquet: %s", errs)
	}
	a, _, _ := cliRun(t, "estimate", "-q", "--json", "--by", "method", pq)
	b, _, _ := cliRun(t, "estimate", "-q", "--json", "--by", "method", outs[2])
	if a != b || a == "" {
		t.Errorf("estimate --by of the Parquet sketch differs from the CSV one's:\n%.300s\n%.300s", a, b)
	}
	os.WriteFile(pq, []byte("PAR1 not a file"), 0o666)
	if _, errs, code := cliRun(t, "fit", "--requests-per-item", "8", pq); code == 0 || !bytes.Contains([]byte(errs), []byte("read "+pq+": not a readable parquet file")) {
		t.Errorf("a damaged Parquet sketch: exit %d, %s", code, errs)
	}
}
