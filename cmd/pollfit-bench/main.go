// Command pollfit-bench times pollfit against DuckDB on the same logs,
// side by side in one run.
//
// It generates (once, reused when present) a CSV and a Parquet log of
// payments-like rows for each size in -rows, in -dir, builds the pollfit
// binary, and runs, each in a child process of its own: DuckDB's
// histogram query over the file (through github.com/duckdb/duckdb-go, in
// this module only, so that pollfit stays pure Go), DuckDB running the
// sketch query of `pollfit sql --dialect duckdb`, and pollfit's
// estimate, sketch, fit, eval of one schedule, frontier and report (and
// with -old another build's fit and eval, to compare). For
// each it reports the fastest of -runs (the commands take turns, a run
// of each a round): wall time, CPU time (user +
// system: on a busy machine the wall time grows, the CPU time much less),
// the child's peak resident memory (its VmHWM, from getrusage), and the
// ratios of the wall and CPU times to DuckDB's histogram query on the
// same file.
//
//	cd cmd/pollfit-bench && go run . -rows 1000000,10000000 -dir /tmp/pollfit-bench
//	go run . -rows 100000000 -formats parquet
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	rows := flag.String("rows", "1000000,10000000", "sizes of the generated logs, comma-separated")
	dir := flag.String("dir", filepath.Join(os.TempDir(), "pollfit-bench"), "folder for the generated logs (kept for reuse)")
	runs := flag.Int("runs", 1, "runs of each command; the fastest is reported")
	bin := flag.String("pollfit", "", "pollfit binary (default: built from this repository into -dir)")
	only := flag.String("only", "", "run only the commands whose names contain this")
	old := flag.String("old", "", "another pollfit binary (say, main's) whose fit and eval are timed too")
	duck := flag.String("duckdb", "", "internal: run this DuckDB query file once")
	formats := flag.String("formats", "parquet,csv", "log formats to generate and time, comma-separated")
	csvAll = flag.Bool("csv-all", false, "time frontier and report on the CSV logs too (their work after reading is the Parquet log's)")
	writers := flag.String("writers", "pollfit", "Parquet logs to time, by writer, comma-separated: pollfit, arrow (dictionary encoding, 10 row groups, an id column), duckdb (zstd)")
	flag.StringVar(&baseQuery, "query", "histogram", "DuckDB's query the ratios are to: histogram (1,000 bins a decade and a sum of ages) or count (2,000 bins, count(*) by status and bin)")
	flag.Parse()
	if *duck != "" {
		if err := duckOnce(*duck); err != nil {
			fmt.Fprintln(os.Stderr, "pollfit-bench:", err)
			os.Exit(1)
		}
		return
	}
	if baseQuery != "histogram" && baseQuery != "count" {
		fmt.Fprintf(os.Stderr, "pollfit-bench: -query %q: want histogram or count\n", baseQuery)
		os.Exit(2)
	}
	if err := bench(*rows, *formats, *writers, *dir, *bin, *old, *only, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "pollfit-bench:", err)
		os.Exit(1)
	}
}

func bench(sizes, formats, writers, dir, bin, old, only string, runs int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if bin == "" {
		var err error
		if bin, err = buildPollfit(dir); err != nil {
			return err
		}
	}
	fmt.Println("| rows | log | command | wall s | cpu s | peak RSS MB | wall ÷ DuckDB | cpu ÷ DuckDB |")
	fmt.Println("|---:|---|---|---:|---:|---:|---:|---:|")
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("-rows: %q is not a number of rows", f)
		}
		for _, format := range strings.Split(formats, ",") {
			ext := "." + strings.TrimSpace(format)
			if ext != ".parquet" && ext != ".csv" {
				return fmt.Errorf("-formats: %q is not parquet or csv", format)
			}
			ws := []string{"pollfit"}
			if ext == ".parquet" {
				ws = strings.Split(writers, ",")
			}
			for _, w := range ws {
				w = strings.TrimSpace(w)
				path := logPath(dir, n, ext, w)
				pollfitLog := logPath(dir, n, ext, "pollfit")
				if err := ensureLog(pollfitLog, n); err != nil {
					return err
				}
				if err := ensureWriterLog(path, pollfitLog, w, n); w != "pollfit" && err != nil {
					return err
				}
				label := strings.TrimPrefix(ext, ".")
				if ext == ".parquet" {
					label += " (" + w + ")"
				}
				if err := benchLog(path, label, n, bin, old, dir, only, runs); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// benchLog runs every command on one log and prints a row for each. The
// commands take turns, one run of each a round, so that a slow spell of
// the machine falls on all of them alike, not on the ones that ran
// during it.
func benchLog(path, label string, n int, bin, old, dir, only string, runs int) error {
	all, err := commands(path, bin, old, dir)
	if err != nil {
		return err
	}
	var cmds []command
	for i, c := range all {
		if only != "" && !strings.Contains(c.name, only) && i > 0 { // all[0] is the baseline
			continue
		}
		if heavyAfterRead(c.name) && strings.HasSuffix(path, ".csv") && !*csvAll {
			continue // the same work as on the Parquet log once read
		}
		cmds = append(cmds, c)
	}
	bests := make([]measure, len(cmds))
	for i := range bests {
		bests[i].wall = math.Inf(1)
	}
	for range max(runs, 1) {
		for i, c := range cmds {
			m, err := runOnce(c.argv)
			if err != nil {
				return fmt.Errorf("%s on %s: %v", c.name, path, err)
			}
			bests[i].keep(m)
		}
	}
	base, baseCPU := bests[0].wall, bests[0].cpu // DuckDB's baseline query
	for i, c := range cmds {
		m := bests[i]
		fmt.Printf("| %d | %s | %s | %.2f | %.2f | %.0f | %.2f× | %.2f× |\n", n, label,
			c.name, m.wall, m.cpu, float64(m.peakKB)/1024, m.wall/base, m.cpu/baseCPU)
	}
	return nil
}

// csvAll is the -csv-all flag.
var csvAll *bool

// baseQuery is the -query flag.
var baseQuery string

// heavyAfterRead reports whether a command's time is mostly its work
// after reading, the same for a log in either format.
func heavyAfterRead(name string) bool {
	return strings.Contains(name, "frontier") || strings.Contains(name, "report")
}

// ensureLog generates the log at path unless it is there.
func ensureLog(path string, n int) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	fmt.Fprintf(os.Stderr, "generating %s ...\n", path)
	return generate(path, n)
}
