// Package logs reads settle-time logs into estimate.Items, one streaming
// pass, and writes logs for tests and generators. To read a log, a
// histogram or a sketch into samples ready to fit, use package
// estimate/source (source.Read), which calls these readers.
//
// # Formats
//
// A log is CSV (a header row, then one row per item; .csv, .tsv, .gz of
// either) or Parquet, a file, a folder of them or standard input ("-").
// Each row gives an item's creation and settle times (created_at,
// settled_at) or its age at the final answer (duration), an optional
// status and an optional signal; Options documents the columns, status
// words, time formats and censoring rules. A histogram (Options.Histogram:
// columns lo_s, hi_s, final, pending) is read as weighted items with
// EachWeighted.
//
// A poller's own log (EachPoller; one row per ask with columns id,
// created_at, asked_at, status, or one row per item with created_at,
// last_pending_at, first_final_at, status) and a latency metric
// (ReadMetric: a Prometheus text exposition of a histogram, or an
// OpenTelemetry exponential histogram in OTLP JSON) give interval-
// censored ages, estimate.Interval, for estimate.NewTurnbull. The asks
// of one item may come in any order across files: the items are held
// in a map, spilled to 64 temporary files by id hash past
// PollerOptions.MaxOpen, so memory stays bounded. Metrics count only the
// items that answered; Histogram.Intervals takes the number that never
// did.
//
// A sketch (estimate.Sketch) is written as Parquet by WriteParquetSketch
// and read back by ReadParquetSketch; IsParquetSketch tells it from a
// Parquet log by its key-value metadata. The log readers do not take
// sketches: their callers read them (pollfit's commands do).
//
// # Censoring
//
// A pending row is right-censored at its settled_at (or duration) when it
// has one, otherwise at Options.ObservedAt, by default the latest
// timestamp in the input; items censored at that default are delivered
// after all others, once it is known.
//
// # Errors
//
// A bad row is a *RowError naming the file, line and column, quoting at
// most 200 bytes of the offending text. With Options.SkipBad bad rows are
// skipped and counted by reason in Stats.Skipped instead; the rest of the
// data is read. A line longer than Options.MaxLine (1 MiB by default) is
// an error that cannot be skipped. Ages beyond estimate.MaxAge (100
// years) are bad rows: they are timestamps in the wrong unit or century.
//
// # Memory
//
// Each and EachWeighted hold no rows: memory is flat in the input, and a
// Parquet page header is checked against its column chunk's size before
// anything is allocated for it. Read collects the items into a slice,
// for inputs that fit in memory.
//
// # Parallel reductions
//
// CSV chunks (cut at record starts, quoted newlines included) and Parquet
// row groups are parsed on several goroutines, but Each hands the items
// to one callback in input order. EachParallel hands them instead to
// Sinks goroutines, each with its own reduction (an estimate.Sketch or
// estimate.Accumulator) that the caller merges at the end, so that the
// reduction is not the bottleneck; the runs of items each sink gets are
// fixed by the input, not by timing, so the merged result is the same in
// every run.
package logs
