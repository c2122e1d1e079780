package source

import (
	"context"
	"fmt"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
)

// Options are the settings of Read. The zero value reads CSV or Parquet
// logs with logs.Options' defaults into a sketch that holds nothing out
// and keeps no item sample, and hands back its bins.
type Options struct {
	// Log says how raw logs are read: columns, time format, bad rows.
	// Log.By names the group column: one sample per value (Input.Groups).
	// Log.Histogram reads histograms (lo_s,hi_s,final,pending) into
	// weighted items. A sketch file ignores Log but Log.SkipBad and
	// Log.By.
	Log logs.Options
	// Holdout and Seed are the hash split of the sketch a raw log is read
	// into (Holdout zero: nothing held out). A sketch file keeps the
	// split it was written with; with KeepSplit it must be this one (a
	// *SplitError otherwise).
	Holdout   float64
	Seed      uint64
	KeepSplit bool
	// Needs says what per-item data the caller may use, which a
	// sketch's bins do not keep; the zero value needs none.
	Needs Needs
	// SampleRows is the most rows of each part's item sample kept when
	// Needs asks for creation times or signals, or Sketch for an item
	// sample (0: estimate.DefaultSample).
	SampleRows int
	// Sketch asks for the sketch alone (Input.Sketch, no samples), to be
	// written: with SampleRows rows of item sample a part whatever Needs
	// says (SampleRows 0: none); with Log.By one sketch per value (at
	// most estimate.MaxSketchGroups values, a *GroupsError beyond).
	// Sketch files are merged, keeping their groups.
	Sketch bool
	// Stream, when set, is handed the items of raw logs in runs on
	// logs.Sinks goroutines, each with its own function from Stream (a
	// sketch's bins, both parts, all go to one); Read then keeps no
	// sample and fills Input.Stats alone.
	Stream func() func(items []estimate.Item, ws []float64)
	// StreamBy, when set with Log.By, is handed each item with its
	// weight, the index of its value of the group column and the value,
	// in the order values first came (a sketch's groups' bins, both parts
	// together); Read then keeps no sample and fills Input.Stats alone.
	StreamBy func(it estimate.Item, w float64, group int, value string)
}

// Needs says what per-item data a caller may want from a raw log, which
// a sketch's bins do not keep. Read works from a sketch of the log, made
// in one streaming pass: from its bins, or from its item sample when the
// caller needs creation times or signals, unless it needs every row one
// by one. The texts name what needs them, for notes and errors.
type Needs struct {
	// Always names what needs every row one by one whatever the log
	// holds (lag curves of each item, a strategy with jitter); "" for
	// nothing. The log is then read into items.
	Always string
	// Aligned names what asks by the wall clock (a schedule or a
	// baseline), which needs the creation times: the item sample.
	Aligned string
	// Signals: reset on signal is fitted or replayed, so a log with
	// signals needs the item sample; Resets names the schedule or
	// baseline that resets on signal, if any.
	Signals bool
	Resets  string
	// Batches: batch shapes are fitted, so a log whose creation times
	// show a batch period needs the item sample.
	Batches bool
}

// WithBaselines adds what the baselines replayed beside a fit need: a
// wall-clock aligned baseline needs the items' creation times, and one
// that resets on signal needs the signals.
func (n Needs) WithBaselines(bs []fit.Baseline) Needs {
	for _, b := range bs {
		switch {
		case b.Schedule == nil:
		case len(b.Schedule.Aligned) > 0:
			n.Aligned = "baseline " + b.Name + "'s wall-clock aligned asks"
		case b.Schedule.ResetOnSignal:
			n.Signals, n.Resets = true, "baseline "+b.Name
		}
	}
	return n
}

// items reports whether the needs ask for any item data.
func (n Needs) items() bool { return n.Signals || n.Batches || n.Aligned != "" }

// sampleRows is the item sample's size for opt.
func (o Options) sampleRows() int {
	if o.SampleRows > 0 {
		return o.SampleRows
	}
	return estimate.DefaultSample
}

// passSample is the item sample a read pass keeps for opt: sampleRows
// when the caller may need creation times or signals (Needs), else none.
func (o Options) passSample() int {
	if o.Needs.items() {
		return o.sampleRows()
	}
	return 0
}

// holdoutError refuses a hold-out share outside [0, 1), the one rule
// of Options.Holdout and IntervalOptions.Holdout (nil when it keeps it).
func holdoutError(h float64) error {
	if !(h >= 0 && h < 1) {
		return &OptionError{Field: "Holdout", Value: fmt.Sprint(h), Want: "a share in [0, 1)"}
	}
	return nil
}

// check refuses options that do not go together.
func (o Options) check() error {
	if err := holdoutError(o.Holdout); err != nil {
		return err
	}
	switch {
	case o.Log.Histogram && o.Log.By != "":
		return &OptionError{Field: "Log.By", Value: o.Log.By, Want: "no group column with Log.Histogram: a histogram has none"}
	case o.StreamBy != nil && o.Log.By == "":
		return &OptionError{Field: "StreamBy", Want: "a group column in Log.By"}
	case o.Stream != nil && o.Log.By != "":
		return &OptionError{Field: "Stream", Want: "StreamBy with Log.By"}
	case o.SampleRows < 0 || o.SampleRows > estimate.MaxSample:
		return &OptionError{Field: "SampleRows", Value: fmt.Sprint(o.SampleRows), Want: fmt.Sprintf("0 to %d rows", estimate.MaxSample)}
	}
	return nil
}

// ctxOrBackground is ctx, or context.Background for a nil one.
func ctxOrBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// names is the inputs' names for messages.
func names(paths []string) string { return strings.Join(paths, ", ") }
