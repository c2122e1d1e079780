package source

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
)

// IsSketch reports whether the file name is a sketch, from its first
// bytes, or for Parquet its metadata (a folder, a glob or "-" is not:
// the log readers take those). A Parquet file named *.sketch.parquet
// whose footer cannot be read counts as a (damaged) sketch, so that
// reading it says so.
func IsSketch(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 256) // a SQL export's header, quoted, after a byte-order mark
	n, _ := io.ReadFull(f, head)
	if isParquet(head[:n]) {
		return logs.IsParquetSketch(name) || strings.HasSuffix(strings.ToLower(name), ".sketch.parquet")
	}
	return estimate.IsSketch(head[:n])
}

func isParquet(head []byte) bool { return len(head) >= 4 && string(head[:4]) == "PAR1" }

// sketchInput reports whether the inputs are sketch files (judged by
// the first).
func sketchInput(paths []string) bool { return len(paths) > 0 && IsSketch(paths[0]) }

// WriteSketch writes s to w as the output file name asks: Parquet for a
// name ending in .parquet, else CSV.
func WriteSketch(w io.Writer, name string, s *estimate.Sketch) error {
	if strings.HasSuffix(strings.ToLower(name), ".parquet") {
		return logs.WriteParquetSketch(w, s)
	}
	return estimate.WriteSketch(w, s)
}

// readSketch reads name if it is a sketch file, CSV or Parquet.
func readSketch(name string) (*estimate.Sketch, bool, error) {
	if !IsSketch(name) {
		return nil, false, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %v", name, err)
	}
	defer f.Close()
	head := make([]byte, 4)
	n, _ := io.ReadFull(f, head)
	var s *estimate.Sketch
	if isParquet(head[:n]) {
		s, err = logs.ReadParquetSketch(name)
	} else if _, err = f.Seek(0, io.SeekStart); err == nil {
		s, err = estimate.ReadSketch(f, name)
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %v", err)
	}
	return s, true, nil
}

// mergeSketches reads the sketch files at paths and merges them, after
// check (when not nil) has vetted, or amended, each one.
func mergeSketches(paths []string, check func(name string, s *estimate.Sketch) error) (*estimate.Sketch, error) {
	var all *estimate.Sketch
	for _, name := range paths {
		s, ok, err := readSketch(name)
		if err == nil && !ok {
			err = fmt.Errorf("read %s: not a sketch, while %s is: give sketches or logs, not both", name, paths[0])
		}
		if err == nil && check != nil {
			err = check(name, s)
		}
		if err != nil {
			return nil, err
		}
		if all == nil {
			all = s
		} else if err := all.Merge(s); err != nil {
			return nil, fmt.Errorf("read %s: %v", name, err)
		}
	}
	return all, nil
}

// readSketches reads and merges sketch files as opt says: with Log.By
// all split by that column (a *GroupColumnError names the first that is
// not), else as the sum of their groups unless keep. The rows a SQL
// engine's query left out follow the log readers' rule for bad rows: a
// *DroppedError, or with Log.SkipBad a warning.
func readSketches(paths []string, opt Options, keep bool) (*estimate.Sketch, []string, error) {
	check := func(_ string, s *estimate.Sketch) error {
		if !keep {
			s.DropGroups()
		}
		return nil
	}
	if by := opt.Log.By; by != "" {
		check = func(name string, s *estimate.Sketch) error {
			switch {
			case s.By == "" && s.Empty():
				s.By = by // an engine's export of an empty table says no column
			case s.By != by:
				return &GroupColumnError{File: name, Want: by, Got: s.By}
			}
			return nil
		}
	}
	s, err := mergeSketches(paths, check)
	if err != nil {
		return nil, nil, err
	}
	warn, err := Dropped(s, names(paths), opt.Log.SkipBad)
	return s, warn, err
}

// Dropped applies the log readers' rule for bad rows to the rows a SQL
// engine's query left out of sketch s (made or read from name): a
// *DroppedError, or with skipBad a warning that counts them by reason.
func Dropped(s *estimate.Sketch, name string, skipBad bool) ([]string, error) {
	if len(s.Dropped) == 0 {
		return nil, nil
	}
	text := logs.SkippedText(droppedStats(s))
	if !skipBad {
		return nil, &DroppedError{Name: name, Rows: text}
	}
	return []string{name + ": skipped " + text}, nil
}

// droppedStats are a sketch's dropped rows as a reader's skipped rows.
func droppedStats(s *estimate.Sketch) map[string]int64 {
	if len(s.Dropped) == 0 {
		return nil
	}
	m := map[string]int64{}
	for k, n := range s.Dropped {
		m[k] = int64(math.Round(n))
	}
	return m
}

// sketchStats are what reading sketch s from files found: its bins as
// rows, its counts rounded.
func sketchStats(s *estimate.Sketch, files []string) logs.Stats {
	st := logs.Stats{Files: files, Skipped: droppedStats(s)}
	for _, a := range []*estimate.SketchPart{&s.Fit, &s.HeldOut} {
		items, _ := a.Bins()
		st.Rows += int64(len(items))
		st.Final += int64(math.Round(a.Final))
		st.Pending += int64(math.Round(a.Pending))
	}
	st.Items = st.Final + st.Pending
	return st
}
