package logs

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/pollfit/pollfit/estimate"
)

// reader is the state of one call to EachWeighted.
type reader struct {
	ctx       context.Context // nil or live: read on
	file      string          // the file being read, for stopped
	opt       Options
	fn        func(estimate.Item, float64)
	runFn     func(*batch) // fn for a batch at once, or nil
	tp        *timeParser  // template; workers copy it
	status    *estimate.StatusWords
	observed  int64 // ObservedAt in Unix ns when fixedObs
	fixedObs  bool
	maxTime   int64 // latest timestamp seen, noTime if none
	stats     Stats
	weighted  bool
	deferred  [][]estimate.Item // blocks of deferBlock items
	oldest    pendingRow        // the row of the earliest created deferred item
	spill     *spill
	noCreated int64
	by        *segTable // the By column's values, or nil
	segFinal  []int     // provisional segment id to index in stats.Values
	seg       int       // the segment of the item being delivered
	total     int64     // input bytes, for Progress
	done      int64
}

func newReader(opt Options, fn func(estimate.Item, float64)) (*reader, error) {
	tp, err := newTimeParser(opt.TimeFormat, opt.TimeUnit, opt.Location)
	if err != nil {
		return nil, err
	}
	if opt.Delimiter != 0 && (opt.Delimiter >= utf8.RuneSelf || opt.Delimiter == '"' ||
		opt.Delimiter == '\n' || opt.Delimiter == '\r') {
		return nil, fmt.Errorf("delimiter %q: must be one ASCII character other than a quote or line end", opt.Delimiter)
	}
	r := &reader{opt: opt, fn: fn, tp: tp, maxTime: noTime,
		status: estimate.NewStatusWords(opt.FinalStatus, opt.PendingStatus)}
	if !opt.ObservedAt.IsZero() {
		ns, err := unixNano(opt.ObservedAt)
		if err != nil {
			return nil, fmt.Errorf("observed-at %v: %v", opt.ObservedAt, err)
		}
		r.observed, r.fixedObs = ns, true
		r.stats.ObservedAt = opt.ObservedAt
	}
	return r, nil
}

func (r *reader) close() {
	if r.spill != nil {
		r.spill.Close()
	}
}

func (r *reader) progress(n int64) {
	r.done += n
	if r.opt.Progress != nil {
		r.opt.Progress(r.done, r.total)
	}
}

// readFile reads one input, telling CSV from Parquet.
func (r *reader) readFile(name string) error {
	if name == "-" {
		br := bufio.NewReaderSize(os.Stdin, 1<<16)
		magic, _ := br.Peek(4)
		if string(magic) == "PAR1" {
			return errors.New("-: parquet on standard input is not supported: give the file name")
		}
		return r.readText(name, br)
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	lower := strings.ToLower(name)
	if string(magic[:n]) == "PAR1" || strings.HasSuffix(lower, ".parquet") || strings.HasSuffix(lower, ".pq") {
		return r.readParquet(name, f)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return r.readText(name, f)
}

// readText reads a CSV input, gunzipping it when it starts like gzip.
func (r *reader) readText(name string, in io.Reader) error {
	br := bufio.NewReaderSize(in, 1<<16)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		defer zr.Close()
		return r.readCSV(name, zr)
	}
	return r.readCSV(name, br)
}

func (r *reader) delimFor(name string) byte {
	if r.opt.Delimiter != 0 {
		return byte(r.opt.Delimiter)
	}
	if strings.HasSuffix(strings.TrimSuffix(strings.ToLower(name), ".gz"), ".tsv") {
		return '\t'
	}
	return ','
}

// stopped is nil while r.ctx is live, then its error wrapped.
func (r *reader) stopped() error {
	if r.ctx == nil || r.ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("read %s: stopped: %w", r.file, r.ctx.Err())
}

// merge takes in a parsed batch (items to the callback, counts to stats)
// and releases it.
func (r *reader) merge(b *batch) error {
	defer b.release()
	if err := r.stopped(); err != nil {
		return err
	}
	if r.runFn != nil && r.by == nil {
		r.count(b.items, b.weights)
		r.runFn(b)
	} else {
		for i, it := range b.items {
			w := 1.0
			if b.weights != nil {
				w = b.weights[i]
			}
			if r.by != nil {
				r.seg = r.segIndex(b.segs[i])
			}
			r.deliver(it, w)
		}
	}
	for _, it := range b.deferred {
		if err := r.deferItem(it); err != nil {
			return err
		}
	}
	if len(b.deferred) > 0 && (r.oldest.file == "" || b.oldest.created < r.oldest.created) {
		r.oldest = b.oldest
	}
	r.stats.Rows += b.rows
	if b.maxTime != noTime && (r.maxTime == noTime || b.maxTime > r.maxTime) {
		r.maxTime = b.maxTime
	}
	for k, n := range b.skipped {
		if r.stats.Skipped == nil {
			r.stats.Skipped = map[string]int64{}
		}
		r.stats.Skipped[k] += n
	}
	return b.err
}

// spill keeps deferred pending items in a temporary file.
type spill struct {
	f       *os.File
	w       *bufio.Writer
	withAge bool // Age holds a deferred item's segment (EachBy)
}

func newSpill(withAge bool) (*spill, error) {
	f, err := os.CreateTemp("", "pollfit-pending-*")
	if err != nil {
		return nil, fmt.Errorf("spill pending items: %v", err)
	}
	os.Remove(f.Name()) // the open file lives on until closed (on Unix)
	return &spill{f: f, w: bufio.NewWriterSize(f, 1<<16), withAge: withAge}, nil
}

func (s *spill) write(items []estimate.Item) error {
	var b [24]byte
	n := s.size()
	for _, it := range items {
		// A deferred item is always dated (its age runs from its
		// creation to the observed-at time); NaN stands for no signal.
		sig := math.NaN()
		if it.Signalled {
			sig = it.Signal
		}
		binary.LittleEndian.PutUint64(b[:8], uint64(it.Created))
		binary.LittleEndian.PutUint64(b[8:16], math.Float64bits(sig))
		binary.LittleEndian.PutUint64(b[16:], math.Float64bits(it.Age))
		if _, err := s.w.Write(b[:n]); err != nil {
			return fmt.Errorf("spill pending items: %v", err)
		}
	}
	return nil
}

func (s *spill) each(fn func(estimate.Item)) error {
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("spill pending items: %v", err)
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	br := bufio.NewReaderSize(s.f, 1<<16)
	var b [24]byte
	n := s.size()
	for {
		if _, err := io.ReadFull(br, b[:n]); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("read spilled pending items: %v", err)
		}
		sig := math.Float64frombits(binary.LittleEndian.Uint64(b[8:16]))
		it := estimate.Item{Status: estimate.Pending, Created: int64(binary.LittleEndian.Uint64(b[:8])), Dated: true,
			Signal: sig, Signalled: !math.IsNaN(sig)}
		if s.withAge {
			it.Age = math.Float64frombits(binary.LittleEndian.Uint64(b[16:]))
		}
		fn(it)
	}
}

// size is the bytes of one spilled item.
func (s *spill) size() int {
	if s.withAge {
		return 24
	}
	return 16
}

func (s *spill) Close() error { return s.f.Close() }
