package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "sql",
		summary: "print the SQL that computes a table's sketch inside a warehouse",
		usage:   "pollfit sql --dialect duckdb|postgres|bigquery|spark|clickhouse|snowflake --table NAME|--query SELECT [--holdout 0.3] [--seed N] [--observed-at T] [--by COLUMN] [--asked-col COLUMN [--id-col COLUMN]] [column flags]",
		example: `  pollfit sql --dialect postgres --table payments > sketch.sql
  psql -X -q -v ON_ERROR_STOP=1 --csv -f sketch.sql > month.sketch.csv
  pollfit fit --requests-per-item 8 month.sketch.csv
  pollfit sql --dialect duckdb --query "SELECT * FROM read_parquet('logs/*.parquet')" | duckdb -csv > month.sketch.csv
  pollfit sql --dialect postgres --table poller_asks --asked-col asked_at > asks.sql

The query reads the table's created_at and settled_at timestamps (and
status, unless --no-status) and returns one row a non-empty bin with the
columns part,kind,bin,age_s,weight,sum_s,mixed,holdout,seed: exported as
CSV with a header, it is the sketch 'pollfit sketch' makes of the same
rows, with the same bins, the same hash split and the same censoring
(pending rows without a settled_at at --observed-at, by default the latest
timestamp in the table, --signal-col's included). Rows the reader would
refuse are left out of the bins and counted by reason in rows of kind
dropped: pollfit reading the export stops on them, as on a log, or with
--skip-bad counts them. --table and the column flags take a name or
dotted parts (schema.table), each plain (letters, digits, _) or quoted
("Created At", or with backticks), written in the dialect's quotes;
--query takes one SELECT instead of a table (no ';' and no backslash
anywhere: put such a query in a view). The output is always one
statement. With --by COLUMN the query also groups by that column,
cast to text and trimmed, and returns it first, as the column segment,
with the column's name in a last column segment_by: the grouped sketch
'pollfit sketch --by COLUMN' makes, which fit, eval, estimate, frontier
and report read with --by COLUMN.

With --asked-col COLUMN the table is a poller's own log of one row per
ask (--id-col, default id; created_at; the ask time; status, the status
that ask saw), as the readers take a CSV file with an asked_at column: the
engine checks each row as the reader does, groups the rows by id and
makes each item an interval (L, R], L the age of its last pending ask (0
when the first ask saw it final), R the age of its first final ask; an
item never seen final is pending at its last ask. The result has two
more columns, hi_bin and sum_hi_s, and rows of kind interval (the bins of
the ends, the sums of the ends): pollfit reads it as a sketch with an
interval part. Bad rows are counted by reason as above; an item whose
rows give two creation times is dropped (two creation times), and one
seen pending after final stops the read of the export, as it stops the
reader. --settled-col, --signal-col, --no-status, --observed-at and --by
do not apply to it. The duckdb, postgres and clickhouse
queries are tested against the engines (DuckDB 1.5, PostgreSQL 15,
ClickHouse 18.16, which takes timestamps as text or DateTime64); the
bigquery, spark and snowflake ones are parsed, not run.`,
		flags: sqlFlags,
	})
}

func sqlFlags(fs *pflag.FlagSet) func(*env, []string) error {
	var o estimate.SQLOptions
	fs.StringVar(&o.Dialect, "dialect", "", "SQL dialect: "+strings.Join(estimate.SQLDialects(), ", "))
	fs.StringVar(&o.Table, "table", "", "table holding the log (a name, or schema.table)")
	fs.StringVar(&o.Query, "query", "", "a SELECT whose rows are the log, instead of --table (one statement, no ';')")
	fs.Float64Var(&o.Holdout, "holdout", 0.3, "share of the rows hashed to the held-out part")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the hash split")
	fs.StringVar(&o.CreatedCol, "created-col", "created_at", "creation timestamp column")
	fs.StringVar(&o.SettledCol, "settled-col", "settled_at", "settle timestamp column; null = pending")
	fs.StringVar(&o.StatusCol, "status-col", "status", "status column")
	fs.BoolVar(&o.NoStatus, "no-status", false, "the table has no status column")
	fs.StringVar(&o.SignalCol, "signal-col", "", "signal timestamp column, counted in the default --observed-at as the readers count signal_at")
	fs.StringVar(&o.By, "by", "", "also group by this column: a grouped sketch, as pollfit sketch --by makes, for fit --by and the others")
	fs.StringSliceVar(&o.FinalStatus, "final-status", nil, "extra status values meaning final (comma-separated)")
	fs.StringSliceVar(&o.PendingStatus, "pending-status", nil, "extra status values meaning pending")
	fs.StringVar(&o.AskedCol, "asked-col", "", "the table is a poller log of one row per ask, with this ask time column (e.g. asked_at)")
	fs.StringVar(&o.IDCol, "id-col", "", `item id column of a poller log (default "id")`)
	observed := fs.String("observed-at", "", "when pending rows were last seen, in UTC unless zoned (default: the latest timestamp in the table)")
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usagef("sql: unexpected argument %q", args[0])
		}
		if o.Dialect == "" || o.Table == "" && o.Query == "" {
			return usagef("sql: give --dialect and --table (or --query)")
		}
		if o.AskedCol != "" && !fs.Changed("settled-col") {
			o.SettledCol = "" // the flag's default: a poller log has none
		}
		if *observed != "" {
			t, err := parseObservedAt(*observed, time.UTC)
			if err != nil {
				return err
			}
			o.ObservedAt = t
		}
		q, err := estimate.SketchSQL(o)
		if err != nil {
			return usagef("%w", err)
		}
		_, err = fmt.Fprint(e.stdout, q)
		return err
	}
}
