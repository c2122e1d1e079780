package main

import (
	"fmt"
	"math"
	"sort"
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
	text := droppedText(s.Dropped)
	if !r.skipBad {
		return fmt.Errorf("read %s: the query left out %s, rows the log readers refuse: fix them in the table, or give --skip-bad to skip them", name, text)
	}
	if !r.quiet {
		fmt.Fprintf(e.stderr, "pollfit: warning: %s: skipped %s\n", name, text)
	}
	return nil
}

// droppedText is counts of dropped rows as the readers' warnings put
// their skipped rows: "5000 bad rows (unknown status: 5000)".
func droppedText(d map[string]float64) string {
	var total float64
	keys := make([]string, 0, len(d))
	for k, n := range d {
		total += n
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return d[keys[i]] > d[keys[j]] || d[keys[i]] == d[keys[j]] && keys[i] < keys[j] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %.0f", k, d[k])
	}
	rows := "rows"
	if total == 1 {
		rows = "row"
	}
	return fmt.Sprintf("%.0f bad %s (%s)", total, rows, strings.Join(parts, ", "))
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
