package main

import (
	"fmt"
	"io"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/source"
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
it. A table with the columns id and asked_at (a timestamp), as a CSV
file with them, or one given --asked-col (and --id-col), is a poller's
log of one row per ask: the query of 'pollfit sql --asked-col', its
items' intervals in the sketch's interval part. The server's own error
is shown, and no password of the URL is ever printed. Rows the log readers would refuse (an unknown status, an
infinite timestamp, ...) are an error, or with --skip-bad counted by
reason.`,
		flags: sketchFlags,
	})
}

func sketchFlags(fs *pflag.FlagSet) func(*env, []string) error {
	holdout := fs.Float64("holdout", 0.3, "share of the rows hashed to the held-out part")
	seed := fs.Uint64("seed", 1, "seed of the hash split")
	by := fs.String("by", "", fmt.Sprintf("one sketch per value of this column, in one file (a segment column; at most %d values)", estimate.MaxSketchGroups))
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
		s, err := rf.sketchOf(e, args, *by, *holdout, *seed, *sample, fs.Changed("holdout") || fs.Changed("seed"))
		if err != nil {
			return err
		}
		return writeOutput(*out, *force, e.stdout, func(w io.Writer) error { return writeSketchFile(w, *out, s) })
	}
}

// sketchOf is the sketch of args: interval-censored input's, or through
// source.Read sketch files merged (of the split given, with splitGiven)
// or raw logs sketched.
func (r *readFlags) sketchOf(e *env, args []string, by string, holdout float64, seed uint64, sample int, splitGiven bool) (*estimate.Sketch, error) {
	if s, ok, err := r.intervalSketchOf(e, args, by, holdout, seed); ok {
		return s, err
	}
	so := source.Options{Holdout: holdout, Seed: seed, Sketch: true, SampleRows: sample}
	so.Log.By = by
	in, err := r.read(e, args, "sketch", so)
	if err != nil {
		return nil, err
	}
	if !in.FromLog && splitGiven && (in.Sketch.Holdout != holdout || in.Sketch.Seed != seed) {
		return nil, fmt.Errorf("sketch: the sketches split %g (seed %d), not --holdout %g --seed %d: sketches merge only with the same --holdout and --seed", in.Sketch.Holdout, in.Sketch.Seed, holdout, seed)
	}
	return in.Sketch, nil
}

// writeSketchFile writes s to w as the output file name asks: Parquet
// for a name ending in .parquet, else CSV.
func writeSketchFile(w io.Writer, name string, s *estimate.Sketch) error {
	return source.WriteSketch(w, name, s)
}
