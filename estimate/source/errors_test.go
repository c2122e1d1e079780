package source_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate/source"
)

// sketchOf writes the sketch source makes of log (split 0.3, seed 1,
// with k rows of item sample a part) to a file and returns its name.
func sketchOf(t *testing.T, log string, k int) string {
	t.Helper()
	in, err := source.Read(context.Background(), []string{log}, source.Options{Holdout: 0.3, Seed: 1, Sketch: true, SampleRows: k})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := source.WriteSketch(&b, "x.sketch.csv", in.Sketch); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "x.sketch.csv")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestErrorsTyped: each refusal has its type, names Options' fields (no
// command's flags) and carries what a caller needs to word it.
func TestErrorsTyped(t *testing.T) {
	log := writeFile(t, "m.csv", threeRows)
	bare := sketchOf(t, log, 0)
	read := func(paths []string, opt source.Options) error {
		_, err := source.Read(context.Background(), paths, opt)
		if err != nil && strings.Contains(err.Error(), "--") {
			t.Errorf("%v: names a flag", err)
		}
		return err
	}
	var optErr *source.OptionError
	if err := read([]string{log}, source.Options{Holdout: 1}); !errors.As(err, &optErr) || optErr.Field != "Holdout" {
		t.Errorf("holdout 1: %v", err)
	}
	hist := source.Options{}
	hist.Log.Histogram, hist.Log.By = true, "method"
	if err := read([]string{log}, hist); !errors.As(err, &optErr) || optErr.Field != "Log.By" {
		t.Errorf("histogram by a column: %v", err)
	}
	var noSmp *source.NoSampleError
	if err := read([]string{bare}, source.Options{Needs: source.Needs{Aligned: "schedule s's wall-clock aligned asks"}}); !errors.As(err, &noSmp) || noSmp.Missing != "creation times" || noSmp.Files != bare {
		t.Errorf("aligned from a bare sketch: %v", err)
	}
	if err := read([]string{bare}, source.Options{Needs: source.Needs{Signals: true, Resets: "baseline now"}}); !errors.As(err, &noSmp) || noSmp.Missing != "signals" || noSmp.Need != "baseline now" {
		t.Errorf("reset on signal from a bare sketch: %v", err)
	}
	in, err := source.Read(context.Background(), []string{bare}, source.Options{Needs: source.Needs{Signals: true}})
	if err != nil || len(in.Notes) != 1 || !strings.Contains(in.Notes[0], "keeps no item sample, so no signals or creation times: reset on signal not looked for") {
		t.Errorf("signals looked for in a bare sketch: %v, notes %q", err, in.Notes)
	}
	var split *source.SplitError
	if err := read([]string{bare}, source.Options{Holdout: 0.2, Seed: 1, KeepSplit: true}); !errors.As(err, &split) || split.Holdout != 0.3 || split.WantHoldout != 0.2 {
		t.Errorf("another split: %v", err)
	}
	if err := read([]string{bare}, source.Options{Holdout: 0.2, Seed: 3}); err != nil {
		t.Errorf("a sketch's own split, not kept: %v", err)
	}
	var col *source.GroupColumnError
	by := source.Options{}
	by.Log.By = "method"
	if err := read([]string{bare}, by); !errors.As(err, &col) || col.Got != "" || col.Want != "method" || col.File != bare {
		t.Errorf("a sketch without groups by a column: %v", err)
	}
}
