package sqltest

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/internal/loggen"
)

// The split the tests sketch with.
const (
	holdout = 0.3
	seed    = 11
)

// testLog writes a generated payments log of n rows to a CSV file in
// dir, with the cases the reader and the query must agree on: status
// words in any case and padded, empty statuses, pending rows censored at
// their settled_at, ages on bin edges (1 s, 10 s), and rows both reject.
func testLog(t *testing.T, dir string, n int) string {
	t.Helper()
	rows := loggen.Rows(loggen.Payments, n, 7)
	for i := range rows {
		r := &rows[i]
		r.Signal = time.Time{} // the query's default observed-at counts no signals
		settled := !r.Settled.IsZero()
		switch {
		case i%61 == 0 && settled:
			r.Settled, r.Status = r.Created.Add(time.Second), "settled"
		case i%59 == 0 && settled:
			r.Settled, r.Status = r.Created.Add(10*time.Second), "Paid"
		case i%97 == 0:
			r.Status = map[bool]string{true: " SUCCEEDED ", false: "Requires_Action"}[settled]
		case i%89 == 0 && settled:
			r.Status = "declined"
		case i%83 == 0:
			r.Status = ""
		case i%43 == 0 && settled:
			r.Status = "\tpaid \t" // the readers trim tabs too
		case i%71 == 0 && settled:
			r.Status = "processing" // pending, censored at its settled_at
		case i == 5:
			r.Status = "weird" // unknown: rejected
		case i == 6 && settled:
			r.Settled = r.Created.Add(-time.Second) // settled before created: rejected
		case i == 7:
			r.Settled, r.Status = time.Time{}, "settled" // final without settled_at: rejected
		}
	}
	file := filepath.Join(dir, "log.csv")
	var buf bytes.Buffer
	if err := logs.WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return file
}

// ownSketch is pollfit's sketch of a log, bad rows skipped.
func ownSketch(t *testing.T, file string) *estimate.Sketch {
	t.Helper()
	s, err := estimate.NewSketch(holdout, seed)
	if err != nil {
		t.Fatal(err)
	}
	s.Sample = 0 // an engine's sketch keeps no item sample: the bins alone
	st, err := logs.EachWeighted([]string{file}, logs.Options{SkipBad: true}, s.Add)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Skipped) != 3 {
		t.Fatalf("pollfit skipped %v, want 3 kinds of bad row", st.Skipped)
	}
	return s
}

// query is pollfit's query over table in a dialect, segmented by column
// by when given.
func query(t *testing.T, dialect, table, by string) string {
	t.Helper()
	q, err := estimate.SketchSQL(estimate.SQLOptions{Dialect: dialect, Table: table, Holdout: holdout, Seed: seed, By: by})
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(q)
}

// readExport reads an engine's CSV export as a sketch.
func readExport(t *testing.T, csv []byte) *estimate.Sketch {
	t.Helper()
	if !estimate.IsSketch(csv) {
		t.Fatalf("the engine's export is not recognised as a sketch: %.200q", csv)
	}
	s, err := estimate.ReadSketch(bytes.NewReader(csv), "export.csv")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sameSketch checks the engine's sketch against pollfit's, bin by bin as
// their files list them: the same bins, least ages and weights and mixed
// flags exactly, sums of ages to 1e-9 relative.
func sameSketch(t *testing.T, engine string, own, got *estimate.Sketch) {
	t.Helper()
	if got.Holdout != own.Holdout || got.Seed != own.Seed {
		t.Fatalf("%s: split holdout=%g seed=%d, pollfit holdout=%g seed=%d", engine, got.Holdout, got.Seed, own.Holdout, own.Seed)
	}
	a, b := sketchLines(t, own), sketchLines(t, got)
	if len(a) != len(b) {
		t.Fatalf("%s: %d bins, pollfit %d", engine, len(b), len(a))
	}
	for i := range a {
		x, y := a[i], b[i]
		sx, _ := strconv.ParseFloat(x[5], 64)
		sy, _ := strconv.ParseFloat(y[5], 64)
		if strings.Join(x[:5], ",") != strings.Join(y[:5], ",") || x[6] != y[6] || math.Abs(sx-sy) > 1e-9*sx {
			t.Fatalf("%s: bin %s, pollfit %s", engine, strings.Join(y, ","), strings.Join(x, ","))
		}
	}
	if own.Fit.Items+own.HeldOut.Items != got.Fit.Items+got.HeldOut.Items || own.HeldOut.Items != got.HeldOut.Items {
		t.Errorf("%s: %g items (%g held out), pollfit %g (%g)", engine, got.Fit.Items+got.HeldOut.Items, got.HeldOut.Items, own.Fit.Items+own.HeldOut.Items, own.HeldOut.Items)
	}
}

// sketchLines are the bin rows of a sketch's file, split into fields.
func sketchLines(t *testing.T, s *estimate.Sketch) [][]string {
	var buf bytes.Buffer
	bins := *s
	bins.Sample = 0 // the bins: an engine's sketch has no item sample
	if err := estimate.WriteSketch(&buf, &bins); err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n")[2:] {
		out = append(out, strings.Split(l, ","))
	}
	return out
}

// sameSchedule checks that a study of the engine's sketch ships the
// schedule a study of pollfit's ships.
func sameSchedule(t *testing.T, engine string, own, got *estimate.Sketch) {
	t.Helper()
	a, b := study(t, own), study(t, got)
	if a != b {
		t.Errorf("%s: the study ships %s, from pollfit's sketch %s", engine, b, a)
	}
	t.Logf("%s: ships %s", engine, b)
}

func study(t *testing.T, s *estimate.Sketch) string {
	t.Helper()
	var fitOn, heldOut fit.Sample
	fitOn.Items, fitOn.Weights = s.Fit.Bins()
	heldOut.Items, heldOut.Weights = s.HeldOut.Bins()
	var opt fit.StudyOptions
	opt.Budget.RequestsPerItem = 8
	res, err := fit.Study(context.Background(), fitOn, &fit.HeldOut{Sample: heldOut, Holdout: s.Holdout, Seed: s.Seed}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res.Schedule.String()
}
