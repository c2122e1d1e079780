package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "sketch",
		summary: "summarise settle-time logs into a small, mergeable sketch that fit, eval, frontier and report read",
		usage:   "pollfit sketch [--holdout 0.3] [--seed N] [--by COLUMN] [read flags] LOG... -o FILE",
		example: `  pollfit sketch -o day1.sketch.csv logs/2026-11-01/
  pollfit sketch -o month.sketch.csv day*.sketch.csv
  pollfit fit --requests-per-item 8 month.sketch.csv
  pollfit sketch --by method -o month.sketch.parquet logs/2026-11-*/
  pollfit fit --by method --requests-per-item 8 month.sketch.parquet
  pollfit sketch --from postgres://analyst@db/payments --table payments -o month.sketch.csv

A sketch holds, for the items to fit on and the items held out (split by a
hash of each row, so the same rows always split alike), final and pending
counts with the sum of their ages in log-spaced age bins (10000 a decade,
0.023% wide): a few megabytes at most whatever the size of the log, read in
one streaming pass. Sketches of the same --holdout and --seed merge by
adding: give sketches as the input to merge them. Bins keep no creation
times or signals, so for aligned asks, batch shapes and reset on signal
each part also keeps an item sample: the --sample rows with the least
hash, each with its creation time and signal, all the rows of a smaller
log (about 50 bytes a row in the file; --sample 0 for none). Samples merge
too (to the smaller --sample). --by COLUMN writes one sketch per value of
the column (at most 64), of the same split, in one file with a segment
column: fit, eval, estimate, frontier and report read it with --by COLUMN
(the same column), and without --by as all values together; sketches by
the same column merge value by value. The file is CSV, documented in
'go doc github.com/pollfit/pollfit/estimate WriteSketch', or Parquet when
-o names a .parquet file (the same columns, the split and column in the
file's key-value metadata: 'go doc github.com/pollfit/pollfit/estimate/logs
WriteParquetSketch'); CSV and Parquet sketches merge alike. --from runs
the query of 'pollfit sql --dialect postgres' (with --table, --by, the
split and the column, status, --signal-col and --observed-at flags) on a
PostgreSQL server through the pure-Go driver pgx, streaming its result
into the sketch: the rows never leave the database. It runs as one
statement of the extended protocol in a read-only transaction, within
--connect-timeout to connect and --query-timeout (the query's
statement_timeout); on SIGINT or SIGTERM the server is asked to cancel
it. The server's own error is shown, and no password of the URL is ever
printed. Rows the log readers would refuse (an unknown status, an
infinite timestamp, ...) are an error, or with --skip-bad counted by
reason.`,
		flags: sketchFlags,
	})
}

func sketchFlags(fs *pflag.FlagSet) func(*env, []string) error {
	holdout := fs.Float64("holdout", 0.3, "share of the rows hashed to the held-out part")
	seed := fs.Uint64("seed", 1, "seed of the hash split")
	by := fs.String("by", "", fmt.Sprintf("one sketch per value of this column, in one file (a segment column; at most %d values)", estimate.MaxSketchSegments))
	out := fs.StringP("output", "o", "", "output file (default stdout; a name ending in .parquet writes Parquet)")
	force := fs.Bool("force", false, "overwrite an existing output file")
	var ff fromFlags
	fs.StringVar(&ff.dsn, "from", "", "run the sketch query on this PostgreSQL server (postgres://user@host/db) instead of reading logs")
	fs.StringVar(&ff.table, "table", "", "with --from: the table holding the log (a name, or schema.table)")
	fs.StringVar(&ff.query, "query", "", "with --from: a SELECT whose rows are the log, instead of --table (one statement, no ';')")
	fs.BoolVar(&ff.noStatus, "no-status", false, "with --from: the table has no status column")
	fs.DurationVar(&ff.connect, "connect-timeout", defaultConnectTimeout, "with --from: give up connecting after this long")
	fs.DurationVar(&ff.timeout, "query-timeout", defaultQueryTimeout, "with --from: the query's statement_timeout; the server is asked to cancel it after this long")
	sample := fs.Int("sample", estimate.DefaultSample, "most rows of each part's item sample (0: none)")
	rf := addReadFlags(fs)
	rf.iv = addIntervalReadFlags(fs)
	return func(e *env, args []string) error {
		if err := checkOutput(*out, *force); err != nil { // before the work
			return err
		}
		if ff.dsn != "" {
			ff.connectSet = fs.Changed("connect-timeout")
			s, err := rf.sketchFromServer(e, ff, *by, *holdout, *seed, args)
			if err != nil {
				return err
			}
			return writeOutput(*out, *force, e.stdout, func(w io.Writer) error { return writeSketchFile(w, *out, s) })
		}
		for _, f := range []string{"table", "query", "no-status", "connect-timeout", "query-timeout"} {
			if fs.Changed(f) {
				return usagef("sketch: --%s goes with --from", f)
			}
		}
		if len(args) == 0 {
			return usagef("sketch: give LOG files (or sketches to merge)")
		}
		if _, err := estimate.NewSketch(*holdout, *seed); err != nil {
			return usagef("sketch: --holdout %g: want a share in [0, 1)", *holdout)
		}
		if *sample < 0 || *sample > estimate.MaxSample {
			return usagef("sketch: --sample %d: want 0 to %d rows", *sample, estimate.MaxSample)
		}
		s, ok, err := rf.intervalSketchOf(e, args, *by, *holdout, *seed)
		switch {
		case ok:
		case isSketchFile(args[0]):
			s, err = mergeSketchFiles(args, *by)
			if err == nil {
				err = rf.dropped(e, s, strings.Join(args, ", "))
			}
			if err == nil && (fs.Changed("holdout") || fs.Changed("seed")) && (s.Holdout != *holdout || s.Seed != *seed) {
				err = fmt.Errorf("sketch: the sketches split %g (seed %d), not --holdout %g --seed %d: sketches merge only with the same --holdout and --seed", s.Holdout, s.Seed, *holdout, *seed)
			}
		case *by != "":
			s, err = rf.segmentedSketch(e, args, *by, *holdout, *seed, *sample)
		default:
			s, err = rf.sketchOf(e, args, *holdout, *seed, *sample)
		}
		if err != nil {
			return err
		}
		return writeOutput(*out, *force, e.stdout, func(w io.Writer) error { return writeSketchFile(w, *out, s) })
	}
}

// mergeSketchFiles reads and merges sketch files, keeping their
// segments: all must be segmented by the same column, by when given.
func mergeSketchFiles(args []string, by string) (*estimate.Sketch, error) {
	if by != "" {
		return readSketchesBy(args, by, "sketch")
	}
	return mergeSketches(args, nil)
}

// mergeSketches reads the sketch files at args and merges them, after
// check (when not nil) has vetted, or amended, each one.
func mergeSketches(args []string, check func(name string, s *estimate.Sketch) error) (*estimate.Sketch, error) {
	var all *estimate.Sketch
	for _, name := range args {
		s, ok, err := readSketch(name)
		if err == nil && !ok {
			err = fmt.Errorf("read %s: not a sketch, while %s is: give sketches or logs, not both", name, args[0])
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

// segmentedSketch reads raw logs into a sketch per value of column by,
// with item samples of k rows a part (of all values together).
func (r *readFlags) segmentedSketch(e *env, args []string, by string, holdout float64, seed uint64, k int) (*estimate.Sketch, error) {
	s, err := estimate.NewSegmentedSketch(by, holdout, seed)
	if err != nil {
		return nil, usagef("sketch: %v", err)
	}
	s.Sample = k
	var full error
	_, err = r.eachBy(e, args, by, "sketch", func(it estimate.Item, w float64, _ int, v string) {
		if full == nil {
			full = s.AddBy(v, it, w)
		}
	})
	if err == nil && full != nil {
		err = fmt.Errorf("sketch: --by %s: %v", by, strings.TrimPrefix(full.Error(), "sketch: "))
	}
	return s, err
}

// readSketches reads and merges the sketches named by args, a segmented
// one as the sum of its segments; ok is false when the first input is
// not a sketch (then it is a log).
func readSketches(args []string) (*estimate.Sketch, bool, error) {
	if len(args) == 0 || !isSketchFile(args[0]) {
		return nil, false, nil
	}
	s, err := mergeSketches(args, func(_ string, s *estimate.Sketch) error {
		s.DropSegments()
		return nil
	})
	return s, err == nil, err
}

// isSketchFile reports whether name is a sketch file, from its first
// bytes, or for Parquet its metadata (a folder, a glob or "-" is not:
// the log readers take those). A Parquet file named *.sketch.parquet
// whose footer cannot be read counts as a (damaged) sketch, so that
// reading it says so.
func isSketchFile(name string) bool {
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

// readSketch reads name if it is a sketch file, CSV or Parquet.
func readSketch(name string) (*estimate.Sketch, bool, error) {
	if !isSketchFile(name) {
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

// writeSketchFile writes s to w as the output file name asks: Parquet
// for a name ending in .parquet, else CSV.
func writeSketchFile(w io.Writer, name string, s *estimate.Sketch) error {
	if strings.HasSuffix(strings.ToLower(name), ".parquet") {
		return logs.WriteParquetSketch(w, s)
	}
	return estimate.WriteSketch(w, s)
}
