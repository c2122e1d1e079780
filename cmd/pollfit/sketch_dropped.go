package main

import (
	"fmt"
	"github.com/pollfit/pollfit/estimate/logs"
	"math"
	"strings"

	"github.com/pollfit/pollfit/estimate"
)

// dropped applies the log readers' rule for bad rows to the rows a SQL
// engine's query left out of sketch s (read from name): an error, or
// with --skip-bad a warning that counts them by reason.
func (r *readFlags) dropped(e *env, s *estimate.Sketch, name string) error {
	if len(s.Dropped) == 0 {
		return nil
	}
	text := logs.SkippedText(droppedStats(s))
	if !r.skipBad {
		return fmt.Errorf("read %s: the query left out %s, rows the log readers refuse: fix them in the table, or give --skip-bad to skip them", name, text)
	}
	if !r.quiet {
		fmt.Fprintf(e.stderr, "pollfit: warning: %s: skipped %s\n", name, text)
	}
	return nil
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

// readSketchFiles is readSketches with the rule for the rows a SQL
// engine's query left out (see dropped).
func (r *readFlags) readSketchFiles(e *env, args []string) (*estimate.Sketch, bool, error) {
	s, ok, err := readSketches(args)
	if err == nil && ok {
		err = r.dropped(e, s, strings.Join(args, ", "))
	}
	return s, ok, err
}
