package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/internal/loggen"
	"github.com/pollfit/pollfit/internal/quote"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "gen",
		summary: "generate a realistic settle-time log from a seeded model",
		usage:   "pollfit gen [--model payments|deadline|batch|timeout|segmented|realistic] [--spread D] [-n ROWS] [--seed N] [--log-format csv|parquet] [-o FILE]",
		example: `  pollfit gen -n 20000 --seed 1 -o payments.csv
  pollfit gen --model deadline -n 5000 --log-format parquet -o deadline.parquet
  pollfit gen --model deadline --spread 1.5s -n 20000 -o spread.csv
  pollfit gen --model realistic -n 200000 --seed 1 -o own.csv

Models (see package internal/loggen):
  payments  wallets settle at once, mobile money within about half a minute,
            a few drag on for minutes, 2% stuck; pushes for 70% of answers
  deadline  approvals early, ignored prompts fail at a 60 s timeout
            (--spread: timeouts spread normally by σ, default none)
  timeout   half approve within 20 s, 30% fail at a 60 s timeout spread
            by --spread (default 1.5s), a slow tail over minutes, 2% stuck
  batch     most settle a few seconds after each 5-minute UTC boundary
  segmented four payment methods in a method column (--by method): wallets
            in about a second, mobile money in half a minute (5% stuck),
            cards with a 3-D Secure timeout at 60 s, bank transfers in
            5-minute batches
  realistic a payments export of a team's own, its make-up drawn from
            --seed: 1-4 channels (--by channel) each a mix of 1-4
            lognormal modes, declines, in about half the logs a PSP
            timeout spike of declines, in four of ten a channel settling
            in 1-, 5- or 15-minute wall-clock batches, 0-10% stuck;
            columns payment_id,channel,started,finished,state,amount_eur,
            Europe/Berlin offsets across the October change to winter
            time (created over the 24 hours before 2026-10-25T12:00:00Z),
            states COMPLETED, DECLINED, IN_PROGRESS and AWAITING_PSP
            (stuck). CSV only, written as it is drawn (any -n in constant
            memory). Read it with
            ` + loggen.RealisticReadFlags + `
Items are created over the 24 hours before 2026-11-02T12:00:00Z (realistic:
see above); answers after that are pending in the log.`,
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			model := fs.String("model", "payments", "model: payments, deadline, batch, timeout, segmented or realistic")
			spread := fs.Duration("spread", 0, "standard deviation of the timeouts of the deadline and timeout models (timeout: 1.5s unless given)")
			n := fs.IntP("rows", "n", 10000, "number of rows")
			seed := fs.Uint64("seed", 1, "random seed")
			format := fs.String("log-format", "csv", "file format of the log: csv or parquet")
			oldFormat := fs.String("format", "csv", "")
			formatAlias := renamed{"gen", "format", "log-format"}
			formatAlias.hide(fs)
			out := fs.StringP("output", "o", "", "output file (default stdout, CSV only)")
			force := fs.Bool("force", false, "overwrite an existing output file")
			return func(e *env, args []string) error {
				if len(args) > 0 {
					return usagef("gen: unexpected argument %q", quote.Clip(args[0]))
				}
				if err := formatAlias.take(e, fs, func() { *format = *oldFormat }); err != nil {
					return err
				}
				if *model == "realistic" {
					return genRealistic(e, fs, *n, *seed, *format, *out, *force)
				}
				m, err := loggen.Lookup(*model)
				if fs.Changed("spread") {
					m, err = loggen.LookupSpread(*model, *spread)
				}
				if err != nil {
					return usagef("gen: %v", err)
				}
				if *n < 1 || *n > maxGenRows {
					return usagef("gen: --rows must be from 1 to %d, not %d", maxGenRows, *n)
				}
				parquet := false
				switch strings.ToLower(*format) {
				case "csv":
				case "parquet":
					if *out == "" || *out == "-" {
						return usagef("gen: parquet output needs -o FILE")
					}
					parquet = true
				default:
					return usagef("gen: unknown --log-format %q (csv or parquet)", quote.Clip(*format))
				}
				if err := checkOutput(*out, *force); err != nil {
					return err
				}
				return writeOutput(*out, *force, e.stdout, func(w io.Writer) error { return genLog(e.context(), w, m, *n, *seed, parquet) })
			}
		},
	})
}

// maxGenRows is the most rows gen writes, a guard on time: gen streams
// the rows, holding 4 bytes a row (the sorted creation times) and one
// chunk of rows (a row group of a Parquet log).
const maxGenRows = 10_000_000

// csvChunk is the rows gen writes to a CSV log at a time.
const csvChunk = 1 << 14

// genLog writes the log of n rows of model m, streamed: a first pass
// finds whether any row has a signal or a method (the columns of the
// header), a second writes the rows, a chunk at a time, as
// logs.WriteCSV and logs.WriteParquet would write them all at once. It
// stops once ctx is done.
func genLog(ctx context.Context, w io.Writer, m loggen.Model, n int, seed uint64, parquet bool) error {
	var signal, method bool
	err := loggen.Stream(m, n, seed, csvChunk, func(rows []logs.Row) error {
		for i := range rows {
			signal = signal || !rows[i].Signal.IsZero()
			method = method || rows[i].Method != ""
		}
		return ctx.Err()
	})
	if err != nil {
		return fmt.Errorf("gen: stopped: %w", err)
	}
	chunk, write, done := csvChunk, (func([]logs.Row) error)(nil), (func() error)(nil)
	if parquet {
		pw := logs.NewParquetWriter(w, signal, method)
		chunk, write, done = logs.ParquetGroupRows(n), pw.Write, pw.Close
	} else {
		cw := logs.NewCSVWriter(w, signal, method)
		write, done = cw.Write, cw.Close
	}
	err = loggen.Stream(m, n, seed, chunk, func(rows []logs.Row) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("gen: stopped: %w", err)
		}
		return write(rows)
	})
	if cerr := done(); err == nil {
		err = cerr
	}
	return err
}

// genRealistic is gen --model realistic: streamed to the output as it
// is drawn, so it holds no rows and has no row limit but an int's.
func genRealistic(e *env, fs *pflag.FlagSet, n int, seed uint64, format, out string, force bool) error {
	if fs.Changed("spread") {
		return usagef("gen: model \"realistic\" draws its own timeout spread from --seed: drop --spread")
	}
	if !strings.EqualFold(format, "csv") {
		return usagef("gen: model \"realistic\" writes CSV only, not --log-format %s", format)
	}
	if n < 1 {
		return usagef("gen: --rows must be at least 1, not %d", n)
	}
	g, err := loggen.NewRealistic(seed)
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	ctx := e.context()
	return writeOutput(out, force, e.stdout, func(w io.Writer) error {
		return g.WriteCSV(ctxWriter{ctx, w}, n)
	})
}

// ctxWriter is w, failing once ctx is done, so that a long stream stops.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, fmt.Errorf("gen: stopped: %w", err)
	}
	return c.w.Write(p)
}
