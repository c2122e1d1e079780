package logs

import (
	"fmt"
	"math"

	"github.com/pollfit/pollfit/estimate"
)

// askState is what the asks of one item read so far say: its creation,
// the latest ask that saw it pending, the earliest that saw it final and
// the latest ask (noTime where none).
type askState struct {
	created, lastPending, firstFinal, lastAsk int64
}

// merge folds o into s: the asks of one item commute.
func (s *askState) merge(o askState) {
	s.lastPending = max(s.lastPending, o.lastPending) // noTime is the least int64
	s.lastAsk = max(s.lastAsk, o.lastAsk)
	if s.firstFinal == noTime || (o.firstFinal != noTime && o.firstFinal < s.firstFinal) {
		s.firstFinal = o.firstFinal
	}
}

// pollerRead is the state of one EachPoller.
type pollerRead struct {
	opt    PollerOptions
	tp     *timeParser
	status *estimate.StatusWords
	fn     func(estimate.Interval)
	stats  PollerStats
	open   *openSet
	words  statusCache
	spill  *askSpill
	form   *pollerForm
	perAsk *bool // the form of the first file: all must share it
}

// EachPoller reads the poller logs at paths (files, folders, globs; see
// Each) and calls fn with each item's interval. A one-row-per-ask log
// is delivered after all its files are read (an item's asks may come in
// any order, across files), in no set order (a map's); one row per
// item, row by row.
// A bad row is a *RowError unless SkipBad; an item whose asks
// contradict each other (pending after final, two creation times) is an
// error naming it.
func EachPoller(paths []string, opt PollerOptions, fn func(estimate.Interval)) (PollerStats, error) {
	tp, err := newTimeParser(opt.TimeFormat, opt.TimeUnit, opt.Location)
	if err != nil {
		return PollerStats{}, err
	}
	if opt.MaxOpen <= 0 {
		opt.MaxOpen = 1 << 17
	}
	files, err := expandPaths(paths)
	if err != nil {
		return PollerStats{}, err
	}
	r := &pollerRead{opt: opt, tp: tp, fn: fn, open: newOpenSet(min(opt.MaxOpen, 1<<12)),
		status: estimate.NewStatusWords(opt.FinalStatus, opt.PendingStatus)}
	defer r.closeSpill()
	for _, f := range files {
		if f == "-" {
			return r.stats, fmt.Errorf("a poller log on standard input is not read: give the file name")
		}
		r.stats.Files = append(r.stats.Files, f)
		if err := eachCSVRecord(f, opt.Delimiter, opt.maxLine(), r.header(f), r.row); err != nil {
			return r.stats, err
		}
	}
	if err := r.flushAsks(); err != nil {
		return r.stats, err
	}
	if len(r.stats.Skipped) > 0 && r.stats.Items == 0 {
		return r.stats, fmt.Errorf("no usable rows: every row was bad (%s)", skipWarning(r.stats.Skipped))
	}
	if r.stats.Items == 0 {
		return r.stats, fmt.Errorf("empty input: no data rows in %v", r.stats.Files)
	}
	return r.stats, nil
}

// header returns the header callback for file f.
func (r *pollerRead) header(f string) func([]string) error {
	return func(h []string) error {
		form, err := pollerColumns(f, h, &r.opt)
		if err != nil {
			return err
		}
		if r.perAsk != nil && *r.perAsk != form.perAsk {
			return fmt.Errorf("%s: mixes the one-row-per-ask and one-row-per-item forms with %s: read them apart", f, r.stats.Files[0])
		}
		r.perAsk, r.form, r.stats.PerAsk = &form.perAsk, form, form.perAsk
		return nil
	}
}

// row reads one data row.
func (r *pollerRead) row(rec [][]byte, line int) error {
	r.stats.Rows++
	p := r.form
	if len(rec) != len(p.names) {
		return r.bad(line, -1, skipFields, "%d fields, want %d as in the header", len(rec), len(p.names))
	}
	if p.perAsk {
		return r.ask(rec, line)
	}
	created, err := r.time(rec, p.created, line, false)
	if err != nil || created == noTime {
		return err
	}
	return r.itemRow(rec, line, created)
}

// time parses column col of rec; empty is noTime when allowed.
func (r *pollerRead) time(rec [][]byte, col, line int, empty bool) (int64, error) {
	s := trim(rec[col])
	if len(s) == 0 {
		if empty {
			return noTime, nil
		}
		return noTime, r.bad(line, col, skipMissing, "empty %s", r.form.names[col])
	}
	ns, err := r.tp.parse(s)
	if err != nil {
		return noTime, r.bad(line, col, skipTime, "%v", err)
	}
	return ns, nil
}

// statusOf reads the status column; ok false after a bad row.
func (r *pollerRead) statusOf(rec [][]byte, line int) (estimate.Status, bool, error) {
	s := trim(rec[r.form.stat])
	st, ok := r.words.lookup(r.status, s)
	if !ok {
		return 0, false, r.bad(line, r.form.stat, skipStatus,
			"unknown status %q (neither a known final word nor a pending one)", s)
	}
	return st, true, nil
}

// bad is a bad row: the error, or nil after counting it under SkipBad.
func (r *pollerRead) bad(line, col int, reason, format string, args ...any) error {
	if r.opt.SkipBad {
		if r.stats.Skipped == nil {
			r.stats.Skipped = map[string]int64{}
		}
		r.stats.Skipped[reason]++
		return nil
	}
	e := &RowError{File: r.form.file, Line: line, Msg: fmt.Sprintf(format, clipArgs(args)...), reason: reason}
	if col >= 0 {
		e.Col, e.Column = col+1, r.form.names[col]
	}
	return e
}

// deliver hands one item's interval to fn, from its times.
func (r *pollerRead) deliver(created, lastPending, firstFinal, lastAsk int64) {
	age := func(t int64) float64 {
		a, _ := ageBetween(created, t)
		return a
	}
	iv := estimate.Interval{W: 1, Created: created}
	if lastPending != noTime {
		iv.Lo = age(lastPending)
	}
	if firstFinal != noTime {
		iv.Hi = age(firstFinal)
		r.stats.Final++
	} else {
		iv.Lo, iv.Hi = age(lastAsk), math.Inf(1)
		r.stats.Pending++
	}
	r.stats.Items++
	r.fn(iv)
}
