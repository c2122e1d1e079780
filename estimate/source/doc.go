// Package source opens settle-time logs and returns them as samples
// ready to fit: raw CSV and Parquet logs (files, folders, globs,
// standard input), histograms, and sketches (pollfit sketch's files,
// CSV or Parquet, and SQL engines' exports), told apart by their first
// bytes.
//
// # Start here
//
// The path from a log to a schedule a client ships is four calls:
//
//	in, err := source.Read(ctx, []string{"payments.csv"}, source.Options{
//		Holdout: 0.3, Seed: 1, Needs: source.Needs{Signals: true, Batches: true},
//	})
//	var opt fit.StudyOptions
//	opt.Budget.RequestsPerItem = 8
//	res, err := fit.Study(ctx, in.FitOn, in.HeldOut, opt)
//	err = export.Write(os.Stdout, "go", res.Schedule, nil, export.GoOptions{Package: "payments"})
//
// Read is the one entry point; its Options say how to read (Log, the
// logs.Options of columns and time formats), how to split (Holdout,
// Seed), and what the fit may need of the items (Needs). Its Input holds
// the fitting part (FitOn) and the held-out part (HeldOut) that
// fit.Study takes as they are, every row as one sample (All) for
// fit.Replay, and with a group column (Options.Log.By) one sample per
// value (Groups) for fit.StudyGroups. fit.Study measures the schedule
// it fits, the hindsight limit and any baselines on the held-out part;
// package export writes the schedule as DSL, JSON, Go, JavaScript,
// TypeScript, Kotlin or Python. The Example runs that path on a bundled
// log.
//
// # Memory flat in the log
//
// A raw log is read in one streaming pass, on logs.Sinks goroutines
// merged at the end, into an estimate.Sketch of the split asked for:
// log-spaced age bins of each part, and when Needs asks for creation
// times or signals an item sample of SampleRows rows a part, the rows of
// least hash. The samples are the sketch's bins, or its item sample when
// the pass finds that the caller needs it (Input.Sampled says why):
// wall-clock aligned asks (Needs.Aligned) need creation times, a log
// with signals needs them for reset on signal (Needs.Signals), a log
// that settles in batches needs them for batch asks (Needs.Batches).
// Only a caller that needs every row one by one (Needs.Always: lag
// curves of each item, a strategy with jitter) and histograms get the
// items, which fit.Study splits itself. A sketch file keeps the split
// it was written with; a sketch without an item sample serves no
// creation times or signals, and Read says so (Input.Notes, or a
// *NoSampleError for what cannot go without).
//
// # Interval-censored input
//
// A poller's own log (one row per ask, or one per item with its last
// pending and first final ask) and a latency metric (a Prometheus or
// OpenTelemetry histogram) know each answer's age only to lie in an
// interval. ReadIntervals reads them, IntervalInput tells them apart
// from other input, and IntervalOptions say how (the poller log's
// columns, the metric's name, an earlier read to subtract, how many
// items a metric leaves out for never answering): into an
// estimate.IntervalSet, with a description of the input, its counts,
// what was assumed and the warnings, or with IntervalOptions.Sketch
// into a sketch's interval part. The set becomes a study's input with
// SplitIntervals (split by hash, both parts spread into weighted exact
// items by the fitting part's smoothed Turnbull density), or one sample
// with Spread. A sketch with an interval part reads with Read as any
// other, spread the same way. ExampleReadIntervals reads a bundled
// poller log.
//
// # Errors
//
// Errors name Options' (and IntervalOptions') fields, never a
// command's flags, and have types a caller can tell apart with
// errors.As: *OptionError, *SplitError, *NoSampleError,
// *GroupColumnError, *GroupsError and *DroppedError (rows a SQL
// engine's query left out, under the log readers' rule for bad rows). A reader's error (logs.RowError, logs.MissingColumnsError)
// comes wrapped.
package source
