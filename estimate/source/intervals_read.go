package source

import (
	"context"
	"fmt"
	"math"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
)

// IntervalKind is the kind of interval-censored input ReadIntervals
// reads, as IntervalInput finds it.
type IntervalKind string

// The kinds of IntervalInput.
const (
	// NotIntervals: input Read takes (a log, a histogram, a sketch
	// without an interval part).
	NotIntervals IntervalKind = ""
	// PollerLog: a poller's own CSV log, one row per ask or per item.
	PollerLog IntervalKind = "poller"
	// MetricFile: one latency metric file (a Prometheus or OTLP
	// histogram).
	MetricFile IntervalKind = "metric"
	// IntervalSketch: sketch files with an interval part.
	IntervalSketch IntervalKind = "sketch"
)

// IntervalOptions are the settings of ReadIntervals. The zero value
// reads a poller log with logs.PollerOptions' default columns and
// logs.Options' defaults, a metric file's one histogram with every item
// it leaves out taken to have answered, into an estimate.IntervalSet.
type IntervalOptions struct {
	// Log says how a poller log is read: CreatedCol, StatusCol, the
	// status words, Delimiter, TimeFormat, TimeUnit, Location, MaxLine and
	// SkipBad (logs.PollerOptions); a metric or a sketch ignores it.
	Log logs.Options
	// IDCol and AskedCol name the item id and ask time columns of a
	// poller log of one row per ask (defaults "id" and "asked_at"); a
	// header without the ask column is read as one row per item.
	IDCol, AskedCol string
	// Metric picks a metric file's histogram by name when it holds
	// several (logs.MetricOptions.Metric).
	Metric string
	// Since is the path of an earlier read of the same metric,
	// subtracted: the answers within the window between the two.
	Since string
	// Pending is how many items a metric leaves out because they never
	// answered (a metric counts only answers); Never says it as a share of
	// all items, in [0, 1). Give at most one; with neither every item is
	// taken to have answered, and Intervals.Assumed says so. A poller log
	// or a sketch, which count their pending items, ignore both.
	Pending, Never float64
	// Sketch asks for Intervals.Sketch, of the hash split Holdout and
	// Seed, instead of Set: a poller log goes item by item into the
	// sketch's interval part, split by each item's hash, so memory stays
	// flat in the log; a metric's buckets are thinned into the parts.
	// Sketch files are not read this way (Read merges them).
	Sketch  bool
	Holdout float64
	Seed    uint64
}

// Intervals is what ReadIntervals found.
type Intervals struct {
	Kind IntervalKind
	// Set is every item's interval; nil with IntervalOptions.Sketch.
	Set *estimate.IntervalSet
	// Sketch is the sketch made with IntervalOptions.Sketch, else nil.
	Sketch *estimate.Sketch
	// Input describes the input for messages, such as "poller log (one
	// row per ask, 8 rows) in asks.csv" or "Prometheus histogram
	// settle_seconds in m.prom".
	Input string
	// Final and Pending count the items answered and not, as the input
	// does; Beyond are a metric's answers beyond its last finite bound, at
	// an unknown age: final here, pending at that bound in Set and Stats.
	Final, Pending, Beyond float64
	// Assumed says what the read took for granted for want of a setting
	// ("" for nothing): a metric read with neither Pending nor Never.
	Assumed string
	// Warnings are caveats, not errors: a poller log's bad rows skipped
	// under Log.SkipBad.
	Warnings []string
	// Stats are the counts as Set (or the sketch) has them: Files the
	// paths given, Rows the distinct intervals (with Sketch, a poller
	// log's rows), Final and Pending rounded item weights.
	Stats logs.Stats
}

// IntervalInput tells whether paths are interval-censored input, and of
// which kind, as ReadIntervals reads them: sketch files with an interval
// part (it reads them to tell; any other sketch is NotIntervals, and so
// is one that cannot be read, for Read to say why), one metric file, or
// a CSV poller log of either form, by its header.
func IntervalInput(paths []string, opt IntervalOptions) IntervalKind {
	k := opt.kindOf(paths)
	if k == IntervalSketch {
		if s, err := readSketchFilesMerged(paths); err != nil || !s.HasIntervals() {
			return NotIntervals
		}
	}
	return k
}

// kindOf is the kind of input paths are by their names and a poller
// log's header: IntervalSketch for any sketch files, without reading
// them to see whether they have an interval part.
func (o IntervalOptions) kindOf(paths []string) IntervalKind {
	switch {
	case sketchInput(paths):
		return IntervalSketch
	case len(paths) == 1 && logs.IsMetric(paths[0]):
		return MetricFile
	case logs.IsPollerLog(paths, o.pollerOptions()):
		return PollerLog
	}
	return NotIntervals
}

// ReadIntervals reads interval-censored input at paths — a poller's own
// CSV log (files, folders, globs; one row per ask or one per item), one
// latency metric file (Prometheus text or query-API JSON, OTLP JSON),
// or sketch files with an interval part, told apart as IntervalInput
// does — into an estimate.IntervalSet (or, with opt.Sketch, a sketch):
// each item's age known only to lie in (L, R]. Give the set to
// SplitIntervals or Spread for samples ready to fit. ctx is looked at
// before and after the read; a poller log's read does not stop midway.
//
// Errors name IntervalOptions' fields (*OptionError: Pending, Never,
// Holdout) or are the readers' own (a *logs.RowError, a poller log's
// contradicting asks, a metric's counter reset, ...). A read that finds no
// answer is an error returned with the Intervals read, their Warnings
// and Stats.
func ReadIntervals(ctx context.Context, paths []string, opt IntervalOptions) (*Intervals, error) {
	ctx = ctxOrBackground(ctx)
	if err := opt.check(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", names(paths), err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("read: no input given: give a poller log, a metric file or a sketch with an interval part")
	}
	var in *Intervals
	var err error
	switch opt.kindOf(paths) {
	case IntervalSketch:
		if opt.Sketch {
			return nil, fmt.Errorf("read %s: sketch files merge as they are: read them with Read and Options.Sketch", names(paths))
		}
		in, err = readIntervalSketch(paths)
	case MetricFile:
		in, err = opt.readMetric(paths[0])
	case PollerLog:
		in, err = opt.readPoller(paths)
	default:
		return nil, fmt.Errorf("read %s: not interval-censored input: give a poller log, a metric file or a sketch with an interval part, or read it with Read", names(paths))
	}
	if cerr := ctx.Err(); err == nil && cerr != nil {
		return nil, fmt.Errorf("read %s: %w", names(paths), cerr)
	}
	return in, err
}

// check refuses settings that do not go together.
func (o IntervalOptions) check() error {
	switch {
	case o.Pending != 0 && o.Never != 0: // no Value: given with Never
		return &OptionError{Field: "Pending", Want: "zero with Never: both say how many never answered; give one"}
	case o.Pending < 0 || math.IsInf(o.Pending, 0) || math.IsNaN(o.Pending):
		return &OptionError{Field: "Pending", Value: fmt.Sprint(o.Pending), Want: "a count >= 0"}
	case !(o.Never >= 0 && o.Never < 1):
		return &OptionError{Field: "Never", Value: fmt.Sprint(o.Never), Want: "a share in [0, 1)"}
	case o.Sketch:
		return holdoutError(o.Holdout)
	}
	return nil
}

func (o IntervalOptions) pollerOptions() logs.PollerOptions {
	return logs.PollerOptions{Options: o.Log, IDCol: o.IDCol, AskedCol: o.AskedCol}
}

// unanswered is the weight of the items a metric of answered answers
// does not count, and what was assumed of it.
func (o IntervalOptions) unanswered(answered float64) (float64, string) {
	switch {
	case o.Never > 0:
		return answered * o.Never / (1 - o.Never), ""
	case o.Pending == 0:
		return 0, "every item answered: a metric counts only answers; pass Pending N or Never SHARE for those that never did"
	}
	return o.Pending, ""
}

// finish fills the stats of in from its set.
func (in *Intervals) finish(paths []string) {
	final, pending := in.Set.Weights()
	in.Stats = logs.Stats{Files: paths, Rows: int64(in.Set.Len()),
		Final: int64(math.Round(final)), Pending: int64(math.Round(pending))}
	in.Stats.Items = in.Stats.Final + in.Stats.Pending
}

// ExpectedNote says which figures measured on set are expected ones:
// those of the items whose answer is known only to lie in an interval.
func ExpectedNote(set *estimate.IntervalSet) string {
	var in float64
	for _, iv := range set.Intervals() {
		if iv.Lo < iv.Hi && !math.IsInf(iv.Hi, 1) {
			in += iv.W
		}
	}
	final, pending := set.Weights()
	return fmt.Sprintf("the answers of %s of the %s items are known only to lie in an interval: their lag and requests are expected figures, "+
		"under the smoothed density within the interval (%d ages each); the other items' are exact", countText(in), countText(final+pending), estimate.DefaultSpreadNodes)
}

// countText is a count of items, whole or to a tenth.
func countText(x float64) string {
	if x == math.Trunc(x) {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}
