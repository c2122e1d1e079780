package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/pollfit/pollfit/estimate/logs"
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
