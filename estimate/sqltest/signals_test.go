package sqltest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/internal/loggen"
)

// signalLog writes the log of pollfit gen --model payments -n 20000
// --seed 2, signals kept: its latest timestamp is a signal, which the
// reader's default observed-at counts.
func signalLog(t *testing.T, dir string) string {
	t.Helper()
	rows := loggen.Rows(loggen.Payments, 20000, 2)
	var buf bytes.Buffer
	if err := logs.WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "signals.csv")
	if err := os.WriteFile(file, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return file
}

// ownSignalSketch is pollfit sketch --sample 0 of a log, with the
// reader's default observed-at, which counts signal_at.
func ownSignalSketch(t *testing.T, file string) *estimate.Sketch {
	t.Helper()
	s, err := estimate.NewSketch(holdout, seed)
	if err != nil {
		t.Fatal(err)
	}
	s.Sample = 0
	if _, err := logs.EachWeighted([]string{file}, logs.Options{}, s.Add); err != nil {
		t.Fatal(err)
	}
	return s
}

// DuckDB running pollfit sql --signal-col signal_at sketches the log
// with signals as pollfit does, bin for bin: the same observed-at.
func TestDuckDBSignalsSketch(t *testing.T) {
	dir := t.TempDir()
	file := signalLog(t, dir)
	q, err := estimate.SketchSQL(estimate.SQLOptions{Dialect: "duckdb", Table: "payments", SignalCol: "signal_at", Holdout: holdout, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	got := readExport(t, duckDBExport(t, dir, file, q, "signal_at"))
	own := ownSignalSketch(t, file)
	sameSketch(t, "duckdb (signals)", own, got)
	sameSchedule(t, "duckdb (signals)", own, got)

	// Without the signal column the query censors at an earlier time:
	// the repro, which the test would not see on a log whose
	// latest timestamp is not a signal.
	q, err = estimate.SketchSQL(estimate.SQLOptions{Dialect: "duckdb", Table: "payments", Holdout: holdout, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	blind := readExport(t, duckDBExport(t, dir, file, q, "signal_at"))
	if a, b := sketchLines(t, own), sketchLines(t, blind); fmt.Sprint(a) == fmt.Sprint(b) {
		t.Errorf("the query without the signal column sketches the log alike: the log's latest timestamp is not a signal")
	}
}

// pollfit sketch --from finds the table's signal_at column itself, as
// the reader does in a log's header: the same sketch, bin for bin.
func TestSketchFromSignals(t *testing.T) {
	dir := t.TempDir()
	file := signalLog(t, dir)
	url := loadPostgres(t, file, "pollfit_signals", "signal_at")
	bin := buildPollfit(t, dir)
	out := filepath.Join(dir, "from.sketch.csv")
	if b, err := exec.Command(bin, "sketch", "--from", url, "--table", "pollfit_signals",
		"--holdout", fmt.Sprint(holdout), "--seed", fmt.Sprint(seed), "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("pollfit sketch --from: %v\n%s", err, b)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := estimate.ReadSketch(f, out)
	if err != nil {
		t.Fatal(err)
	}
	sameSketch(t, "postgres (sketch --from, signals)", ownSignalSketch(t, file), got)
}
