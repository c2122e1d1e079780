package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/internal/quote"
	"github.com/spf13/pflag"
)

// readFlags are the flags of the commands that read logs (eval, estimate,
// fit), bound by addReadFlags and turned into logs.Options by
// options.
type readFlags struct {
	created, settled, duration, status, signal string
	final, pending                             []string
	delimiter, timeFormat, timeUnit, tz        string
	observedAt                                 string
	skipBad, histogram, quiet                  bool
	maxLine                                    int
	noHint                                     bool           // --by given: no --by hint
	iv                                         *intervalFlags // poller logs and metrics, where the command takes them
}

// addReadFlags registers the log-reading flags on fs.
func addReadFlags(fs *pflag.FlagSet) *readFlags {
	r := &readFlags{}
	fs.StringVar(&r.created, "created-col", "", `creation time column (default "created_at")`)
	fs.StringVar(&r.settled, "settled-col", "", `settle time column; empty = pending (default "settled_at")`)
	fs.StringVar(&r.duration, "duration-col", "", `age column in seconds or Go durations, instead of settle times (default "duration")`)
	fs.StringVar(&r.status, "status-col", "", `status column (default "status")`)
	fs.StringVar(&r.signal, "signal-col", "", `signal column: a timestamp or an age (default "signal" or "signal_at")`)
	fs.StringSliceVar(&r.final, "final-status", nil, "extra status values meaning final (comma-separated, e.g. True)")
	fs.StringSliceVar(&r.pending, "pending-status", nil, "extra status values meaning pending (e.g. False)")
	fs.StringVar(&r.delimiter, "delimiter", "", `CSV delimiter: one character, or tab, semicolon, pipe (default ",", tab for .tsv)`)
	fs.StringVar(&r.timeFormat, "time-format", "", "Go layout of timestamps (default automatic: RFC 3339, \"2006-01-02 15:04:05\", epochs)")
	fs.StringVar(&r.timeUnit, "time-unit", "s", "unit of numeric epoch timestamps: s, ms, us or ns")
	fs.StringVar(&r.tz, "tz", "UTC", "time zone of timestamps without one (IANA name, e.g. Europe/Paris, or Local)")
	fs.StringVar(&r.observedAt, "observed-at", "", "when pending items were last seen (default: the latest timestamp in the input)")
	fs.BoolVar(&r.skipBad, "skip-bad", false, "skip bad rows, counting them by reason, instead of stopping at the first")
	fs.BoolVar(&r.histogram, "histogram", false, "inputs are histograms with columns lo_s,hi_s,final,pending")
	fs.IntVar(&r.maxLine, "max-line", logs.DefaultMaxLine, "longest CSV line in bytes (a longer one is an error)")
	fs.BoolVarP(&r.quiet, "quiet", "q", false, "no progress and no warnings on stderr")
	return r
}

// options turns the flags into read options; a bad flag value is a usage
// error.
func (r *readFlags) options() (logs.Options, error) {
	opt := logs.Options{
		CreatedCol: r.created, SettledCol: r.settled, DurationCol: r.duration,
		StatusCol: r.status, SignalCol: r.signal,
		FinalStatus: r.final, PendingStatus: r.pending,
		TimeFormat: r.timeFormat, TimeUnit: r.timeUnit,
		SkipBad: r.skipBad, Histogram: r.histogram, MaxLine: r.maxLine,
	}
	if r.maxLine < 1 {
		return opt, usagef("--max-line %d: want a positive number of bytes", r.maxLine)
	}
	switch strings.ToLower(r.timeUnit) {
	case "s", "ms", "us", "µs", "ns":
		opt.TimeUnit = strings.ToLower(r.timeUnit)
	default:
		return opt, usagef("--time-unit %q: want s, ms, us or ns", quote.Clip(r.timeUnit))
	}
	d, err := parseDelimiter(r.delimiter)
	if err != nil {
		return opt, err
	}
	opt.Delimiter = d
	loc, err := time.LoadLocation(r.tz)
	if err != nil {
		return opt, usagef("--tz %q: unknown time zone", quote.Clip(r.tz))
	}
	opt.Location = loc
	if r.observedAt != "" {
		t, err := parseObservedAt(r.observedAt, loc)
		if err != nil {
			return opt, err
		}
		opt.ObservedAt = t
	}
	return opt, nil
}

func parseDelimiter(s string) (rune, error) {
	switch strings.ToLower(s) {
	case "":
		return 0, nil
	case "tab", `\t`:
		return '\t', nil
	case "semicolon":
		return ';', nil
	case "pipe":
		return '|', nil
	case "comma":
		return ',', nil
	case "space":
		return ' ', nil
	}
	if len(s) != 1 || s[0] == '"' || s[0] == '\n' || s[0] == '\r' {
		return 0, usagef("--delimiter %q: want one ASCII character other than a quote, or tab, semicolon, pipe", quote.Clip(s))
	}
	return rune(s[0]), nil
}

func parseObservedAt(s string, loc *time.Location) (time.Time, error) {
	if s == "now" {
		return time.Now(), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999",
		"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, usagef("--observed-at %q: want RFC 3339 (2026-03-01T12:00:00Z), \"2006-01-02 15:04:05\" or now", quote.Clip(s))
}

// each reads the logs at paths with the flags' options, showing progress
// on a terminal and printing the warnings to stderr unless --quiet.
// A histogram is refused: its items carry weights, which fn would drop.
func (r *readFlags) each(e *env, paths []string, fn func(estimate.Item)) (logs.Stats, error) {
	if r.histogram {
		cmd := "pollfit"
		if len(e.args) > 0 {
			cmd = e.args[0]
		}
		return logs.Stats{}, usagef("%s: --histogram: %s replays items one by one and would ignore the bins' counts; give the raw log (estimate reads histograms)", cmd, cmd)
	}
	return r.eachWeighted(e, paths, func(it estimate.Item, _ float64) { fn(it) })
}

// eachWeighted is each for inputs that may be histograms (weights) or
// sketches (their bins, both parts).
func (r *readFlags) eachWeighted(e *env, paths []string, fn func(estimate.Item, float64)) (logs.Stats, error) {
	if sk, ok, err := r.readSketchFiles(e, paths); err != nil {
		return logs.Stats{}, err
	} else if ok {
		return sketchRuns(sk, paths, func(items []estimate.Item, ws []float64) {
			for i, it := range items {
				fn(it, ws[i])
			}
		}), nil
	}
	return r.readLogs(e, paths, func(opt logs.Options) (logs.Stats, error) {
		if opt.Histogram {
			return logs.EachWeightedContext(e.context(), paths, opt, fn)
		}
		return logs.EachContext(e.context(), paths, opt, func(it estimate.Item) { fn(it, 1) })
	})
}

// eachParallel is eachWeighted with the items of raw logs spread over
// logs.Sinks goroutines, each with its own sink from newSink; a sketch's
// bins all go to one sink.
func (r *readFlags) eachParallel(e *env, paths []string, newSink func() func([]estimate.Item, []float64)) (logs.Stats, error) {
	if sk, ok, err := r.readSketchFiles(e, paths); err != nil {
		return logs.Stats{}, err
	} else if ok {
		return sketchRuns(sk, paths, newSink()), nil
	}
	return r.readLogs(e, paths, func(opt logs.Options) (logs.Stats, error) {
		return logs.EachParallel(e.context(), paths, opt, newSink)
	})
}

// sketchRuns hands the bins of sketch sk, read from paths, to run, a
// part at a time, and returns what reading it counted.
func sketchRuns(sk *estimate.Sketch, paths []string, run func([]estimate.Item, []float64)) logs.Stats {
	for _, p := range []*estimate.SketchPart{&sk.Fit, &sk.HeldOut} {
		run(p.Bins())
	}
	return sketchStats(sk, paths)
}

// readLogs runs read with the flags' options, showing progress on a
// terminal and printing the warnings to stderr unless --quiet.
func (r *readFlags) readLogs(e *env, paths []string, read func(logs.Options) (logs.Stats, error)) (logs.Stats, error) {
	opt, err := r.options()
	if err != nil {
		return logs.Stats{}, err
	}
	var p *progress
	if !r.quiet && isTerminal(e.stderr) {
		p = &progress{w: e.stderr, start: time.Now()}
		opt.Progress = p.update
	}
	st, err := read(opt)
	p.clear()
	if err != nil {
		return st, fmt.Errorf("read %w", err)
	}
	if !r.quiet {
		for _, w := range st.Warnings {
			fmt.Fprintf(e.stderr, "pollfit: warning: %s\n", w)
		}
	}
	return st, nil
}

// readSample collects the logs at paths as a sample: for histograms
// (--histogram) each bin's items weighted by their counts, else every
// item once (nil weights).
func (r *readFlags) readSample(e *env, args []string) (fit.Sample, logs.Stats, error) {
	var smp fit.Sample
	weighted := r.histogram || (len(args) > 0 && isSketchFile(args[0]))
	if weighted {
		smp.Weights = []float64{}
	}
	st, err := r.eachWeighted(e, args, func(it estimate.Item, w float64) {
		smp.Items = append(smp.Items, it)
		if weighted {
			smp.Weights = append(smp.Weights, w)
		}
	})
	return smp, st, err
}

// sketchStats are what reading a sketch found: its bins as rows, its
// counts rounded.
func sketchStats(s *estimate.Sketch, files []string) logs.Stats {
	st := logs.Stats{Files: files, Skipped: droppedStats(s)}
	for _, a := range []*estimate.SketchPart{&s.Fit, &s.HeldOut} {
		items, _ := a.Bins()
		st.Rows += int64(len(items))
		st.Final += int64(math.Round(a.Final))
		st.Pending += int64(math.Round(a.Pending))
	}
	st.Items = st.Final + st.Pending
	return st
}

// studyInput reads the inputs of a study: a sketch's fitting part, with
// its held-out part and split set in opt, or a log. A log goes through a
// sketch of the study's split, read in one pass, unless the study may
// need its items (n); then the study splits the items itself. A
// sketch's split was made when it was written: with givenSplit (--holdout
// or --seed given) it must be the one opt asks for.
func (r *readFlags) studyInput(e *env, args []string, opt *fit.StudyOptions, n itemNeeds, givenSplit bool) (logInput, error) {
	if in, ok, err := r.intervalStudyInput(args, opt); ok {
		return in, err
	}
	sk, ok, err := r.readSketchFiles(e, args)
	switch {
	case err != nil:
		return logInput{}, err
	case ok && givenSplit && (sk.Holdout != opt.Holdout || sk.Seed != opt.Seed):
		return logInput{}, usagef("the sketches split %g (seed %d), not --holdout %g --seed %d: a sketch keeps the split it was written with; leave out --holdout and --seed, or sketch the log again with them", sk.Holdout, sk.Seed, opt.Holdout, opt.Seed)
	case ok:
		in := logInput{stats: sketchStats(sk, args), sketch: sk, intervals: sketchIntervalsText(sk, args)}
		var note string
		if in.sampled, note, err = r.sketchNeeds(sk, n, args); err != nil {
			return logInput{}, err
		}
		if note != "" {
			in.notes = append(in.notes, note)
		}
		in.smp = useSketch(sk, opt, in.sampled != "")
		return in, nil
	}
	in, err := r.readLogInput(e, args, n, opt.Holdout, opt.Seed)
	if err == nil && in.sketch != nil {
		in.smp = useSketch(in.sketch, opt, in.sampled != "")
	}
	return in, err
}

// useSketch sets the study's held-out part and split from sketch s and
// returns its fitting part: the parts' bins, or with sampled their item
// samples.
func useSketch(s *estimate.Sketch, opt *fit.StudyOptions, sampled bool) fit.Sample {
	fitOn, heldOut := partSample(s, &s.Fit, sampled), partSample(s, &s.HeldOut, sampled)
	opt.HeldOut, opt.Holdout, opt.Seed = &heldOut, s.Holdout, s.Seed
	if s.HasIntervals() {
		opt.NoLimit = intervalLimitNote
	}
	switch {
	case s.Holdout == 0:
		opt.HeldOut = &fitOn // nothing held out: measured on the fitting part
	case fitOn.Len() == 0 || heldOut.Len() == 0:
		// A few rows, all hashed to one part: the study says so and
		// measures on the fitting items.
		opt.HeldOut = nil
		fitOn.Items = append(fitOn.Items, heldOut.Items...)
		fitOn.Weights = append(fitOn.Weights, heldOut.Weights...)
	}
	return fitOn
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// progress shows how far a long read is, on one line of a terminal,
// from one second into the read on, at most five times a second.
type progress struct {
	w     io.Writer
	start time.Time
	last  time.Time
	shown bool
}

func (p *progress) update(done, total int64) {
	now := time.Now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	if total > 0 {
		fmt.Fprintf(p.w, "\rreading: %3.0f%% of %d MB", 100*float64(done)/float64(total), total>>20)
	} else {
		fmt.Fprintf(p.w, "\rreading: %d MB", done>>20)
	}
}

func (p *progress) clear() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
