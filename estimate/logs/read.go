package logs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// Options say how to read settle-time logs. The zero value reads the
// default columns with automatic timestamps in UTC.
//
// A log is CSV (with a header row) or Parquet and gives for each item
// either its creation and settle times (columns created_at and
// settled_at) or its age at the final answer (column duration, seconds as
// a number or a Go duration such as "1.5s"; a created_at column may come
// with it). An optional status column says whether the item is final
// (settled or failed) or pending; without it, a row with an empty
// settled_at (or duration) is pending and every other row settled. A
// pending row is right-censored: at its settled_at time (or its duration)
// when it has one, otherwise at ObservedAt.
type Options struct {
	// Column names, matched case-insensitively after trimming spaces.
	// Defaults: "created_at", "settled_at", "duration", "status" and
	// "signal" (or "signal_at"). The signal column is optional and holds
	// a timestamp or an age in seconds (or a Go duration); a number is an
	// age unless the row's created_at is an epoch number.
	CreatedCol, SettledCol, DurationCol, StatusCol, SignalCol string
	// FinalStatus and PendingStatus are status values added to the
	// defaults: settled, succeeded, success, completed, done, paid, ...
	// are final; failed, failure, error, timeout, cancelled, declined,
	// expired, ... are final and failed; pending, processing,
	// in_progress, running, queued, created, ... are pending. Matching is
	// case-insensitive. Added final values are settled unless they are a
	// default failed word. For a boolean event column use for example
	// StatusCol "observed", FinalStatus {"True"}, PendingStatus {"False"}.
	FinalStatus, PendingStatus []string
	// Delimiter separates CSV fields; default ',' (tab for .tsv files).
	// It must be a single-byte character.
	Delimiter rune
	// TimeFormat is a Go layout for timestamps; default automatic: RFC
	// 3339 with or without zone and fraction and with 'T' or ' ',
	// "2006-01-02 15:04:05", "2006-01-02", RFC 1123 and epoch numbers.
	TimeFormat string
	// TimeUnit is the unit of numeric epoch timestamps: "s" (default),
	// "ms", "us" or "ns". Parquet timestamp columns carry their own unit.
	TimeUnit string
	// Location is the zone of zone-less timestamps, and of Parquet dates
	// and timestamps not adjusted to UTC; default UTC.
	Location *time.Location
	// ObservedAt is when pending items without a settled_at were last
	// seen, their censoring time; zero means the latest timestamp in the
	// input. Pending items censored at the default ObservedAt are
	// delivered after all others.
	ObservedAt time.Time
	// SkipBad skips bad rows, counting them by reason in
	// Stats.Skipped, instead of failing at the first.
	SkipBad bool
	// MaxLine is the longest CSV line, in bytes, a record spanning
	// several lines counted whole; a longer one is an error (it cannot
	// be skipped: its end is unknown). Zero means DefaultMaxLine, 1 MiB.
	MaxLine int
	// Histogram says the inputs are pre-aggregated histograms with the
	// columns lo_s, hi_s, final and pending; read them with EachWeighted.
	Histogram bool
	// Progress, if set, is called now and then from the reading goroutine
	// with the bytes read so far and the total size of the inputs (0 when
	// unknown, as for standard input).
	Progress func(done, total int64)
	// By names a categorical column (a payment method, a region) whose
	// value EachBy delivers beside each item, for a fit per group;
	// Each and EachWeighted ignore it. Case-insensitive like the others;
	// at most MaxByValues distinct values.
	By string
}

// Stats describe what a read found.
type Stats struct {
	// Rows is the number of data rows read (histogram rows for a
	// histogram), Items the number of items delivered, Final and Pending
	// the items by status (for a histogram the summed counts, rounded).
	Rows, Items, Final, Pending int64
	// Skipped counts the bad rows skipped under SkipBad, by reason.
	Skipped map[string]int64
	// ObservedAt is the censoring time used for pending items without a
	// settled_at: the option or the latest timestamp in the input (zero
	// when the input has no timestamps).
	ObservedAt time.Time
	// Files are the files read, in order ("-" for standard input).
	Files []string
	// HasCreated reports whether every item has a creation time.
	HasCreated bool
	// Warnings are caveats worth telling the user, such as skipped rows.
	Warnings []string
	// Values are the distinct values of the Options.By column, in the
	// order EachBy first delivered them (nil without By).
	Values []string
}

// Each reads the logs at paths — files, folders (every .csv, .tsv,
// .parquet and .pq file in them, gzipped or not, recursively, in name
// order, hidden and .txt files left out), glob patterns and "-" for standard input
// (CSV) — and calls fn with every item, in input
// order except that pending items censored at the default ObservedAt
// come last. CSV and Parquet may be mixed; a file is Parquet when its
// name ends in .parquet or .pq or it starts with the Parquet magic bytes,
// and gzip-compressed CSV is read too. Memory does not grow with the
// number of rows (pending items waiting for ObservedAt are spilled to a
// temporary file past a million).
//
// Each fails on a histogram input (use EachWeighted), on an input without
// rows, and when every item is pending (nothing to fit); fn may have been
// called before an error is returned. Without SkipBad the first bad row is
// the error, a *RowError.
func Each(paths []string, opt Options, fn func(estimate.Item)) (Stats, error) {
	return EachContext(context.Background(), paths, opt, fn)
}

// EachContext is Each, stopping soon after ctx is done (between batches
// of rows) with ctx's error wrapped: "read f.csv: stopped: context
// canceled".
func EachContext(ctx context.Context, paths []string, opt Options, fn func(estimate.Item)) (Stats, error) {
	if opt.Histogram {
		return Stats{}, errors.New("histogram input carries weights: read it with EachWeighted")
	}
	return EachWeightedContext(ctx, paths, opt, func(it estimate.Item, _ float64) { fn(it) })
}

// Read collects the items of the logs at paths, as Each delivers them.
func Read(paths []string, opt Options) ([]estimate.Item, Stats, error) {
	return ReadContext(context.Background(), paths, opt)
}

// ReadContext is Read, stopping as EachContext does.
func ReadContext(ctx context.Context, paths []string, opt Options) ([]estimate.Item, Stats, error) {
	var items []estimate.Item
	st, err := EachContext(ctx, paths, opt, func(it estimate.Item) { items = append(items, it) })
	return items, st, err
}

// EachWeighted is Each for inputs that may be histograms. Ordinary rows
// come with weight 1. A histogram row lo_s,hi_s,final,pending gives up to
// two items at the bin's midpoint, the geometric mean sqrt(lo*hi) when
// lo > 0 and hi/2 when lo = 0: a settled item weighted by final, then a
// pending one weighted by pending (zero counts give no item). An open last
// bin (hi empty or "inf") may hold only pending counts, censored at lo.
func EachWeighted(paths []string, opt Options, fn func(it estimate.Item, w float64)) (Stats, error) {
	return EachWeightedContext(context.Background(), paths, opt, fn)
}

// EachWeightedContext is EachWeighted, stopping as EachContext does.
func EachWeightedContext(ctx context.Context, paths []string, opt Options, fn func(it estimate.Item, w float64)) (Stats, error) {
	opt.By = "" // EachBy's
	return eachRuns(ctx, paths, opt, fn, nil)
}

// eachRuns is EachWeightedContext, handing each parsed batch to runFn
// at once when it is not nil (its weights nil: every item has weight 1),
// and single items (a histogram's, the pending ones delivered at the end)
// to fn. runFn may hold the batch (hold) to read its items after it
// returns, and releases it then.
func eachRuns(ctx context.Context, paths []string, opt Options, fn func(estimate.Item, float64), runFn func(*batch)) (Stats, error) {
	r, err := newReader(opt, fn)
	if err != nil {
		return Stats{}, err
	}
	r.runFn = runFn
	r.ctx = ctx
	defer r.close()
	return r.readAll(paths)
}

// readAll reads every input at paths and delivers the rest.
func (r *reader) readAll(paths []string) (Stats, error) {
	files, err := expandPaths(paths)
	if err != nil {
		return Stats{}, err
	}
	r.total = totalSize(files)
	for _, f := range files {
		r.stats.Files = append(r.stats.Files, f)
		r.file = f
		if err := r.readFile(f); err != nil {
			return r.stats, err
		}
	}
	if err := r.stopped(); err != nil {
		return r.stats, err
	}
	return r.finish()
}

// expandPaths turns paths into a list of files.
func expandPaths(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, errors.New("no input: give log files, folders or - for standard input")
	}
	var files []string
	for _, p := range paths {
		switch {
		case p == "-":
			files = append(files, p)
		case strings.ContainsAny(p, "*?["):
			m, err := filepath.Glob(p)
			if err != nil {
				return nil, fmt.Errorf("bad pattern %q: %v", p, err)
			}
			if len(m) == 0 {
				return nil, fmt.Errorf("no files match %q", p)
			}
			sort.Strings(m)
			n := len(files)
			for _, f := range m {
				if strings.HasPrefix(filepath.Base(f), ".") && !strings.HasPrefix(filepath.Base(p), ".") {
					continue // like a shell, * does not match hidden files
				}
				fs, err := expandPath(f)
				if err != nil {
					return nil, err
				}
				files = append(files, fs...)
			}
			if len(files) == n {
				return nil, fmt.Errorf("no files match %q", p)
			}
		default:
			fs, err := expandPath(p)
			if err != nil {
				return nil, err
			}
			files = append(files, fs...)
		}
	}
	return files, nil
}

func expandPath(p string) ([]string, error) {
	info, err := os.Stat(p)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: %v", p, pe.Err) // not "stat p: ..."
		}
		return nil, err
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	var files []string
	err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if path != p && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && isFolderLogName(name) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no .csv, .tsv, .parquet or .pq files (gzipped or not) in folder; name a .txt log directly", p)
	}
	return files, nil
}

// isFolderLogName reports whether a file in a folder is read as a log:
// .txt is left out, as a folder of logs often holds a README.txt or
// notes; name such a log directly.
func isFolderLogName(name string) bool {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	return isLogName(name) && !strings.HasSuffix(name, ".txt")
}

func isLogName(name string) bool {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	for _, ext := range []string{".csv", ".tsv", ".txt", ".parquet", ".pq"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

func totalSize(files []string) int64 {
	var n int64
	for _, f := range files {
		if f == "-" {
			return 0
		}
		if info, err := os.Stat(f); err == nil {
			n += info.Size()
		}
	}
	return n
}

// pendingSpill is how many deferred pending items are kept in memory
// before they go to a temporary file.
var pendingSpill = 1 << 18

// finish delivers the deferred pending items and checks the totals.
func (r *reader) finish() (Stats, error) {
	st := &r.stats
	obs := r.observed
	if !r.fixedObs && r.maxTime != noTime {
		obs = r.maxTime
		st.ObservedAt = time.Unix(0, obs).UTC()
	}
	if err := r.deliverDeferred(obs); err != nil {
		return *st, err
	}
	if len(st.Skipped) > 0 {
		st.Warnings = append(st.Warnings, skipWarning(st.Skipped))
	}
	st.HasCreated = st.Items > 0 && r.noCreated == 0
	switch {
	case st.Items == 0 && len(st.Skipped) > 0:
		return *st, errors.New("no usable rows: every row was bad (" + skipWarning(st.Skipped) + ")")
	case st.Items == 0:
		return *st, fmt.Errorf("empty input: no data rows in %s", strings.Join(st.Files, ", "))
	case st.Final == 0:
		return *st, fmt.Errorf("nothing to fit: all %d items are pending", st.Pending)
	}
	return *st, nil
}

// deliverDeferred delivers the pending items censored at obs.
// A pending item older than estimate.MaxAge by then is skipped under SkipBad and
// an error otherwise, naming the oldest pending item and its row (the
// line is unknown in a Parquet file's fast path).
func (r *reader) deliverDeferred(obs int64) error {
	var old error
	deliver := func(it estimate.Item) {
		age, ok := ageBetween(it.Created, obs)
		if r.by != nil {
			r.seg = r.segIndex(int32(it.Age)) // kept in Age while deferred
		}
		switch {
		case ok:
			it.Age = age
			r.deliver(it, 1)
		case r.opt.SkipBad:
			r.skip(skipAge)
		case old == nil:
			old = fmt.Errorf("%s: a pending item created at %s is %.4g years old at the latest timestamp, %s, beyond the maximum age of 100 years: fix the timestamps, or pass --observed-at or --skip-bad",
				r.oldest.where(), time.Unix(0, r.oldest.created).UTC().Format(time.RFC3339), secondsBetween(r.oldest.created, obs)/(365*24*3600), time.Unix(0, obs).UTC().Format(time.RFC3339))
		}
	}
	if r.spill != nil {
		if err := r.spill.each(deliver); err != nil {
			return err
		}
	}
	for _, blk := range r.deferred {
		for _, it := range blk {
			deliver(it)
		}
	}
	r.deferred = nil
	return old
}

// where is "file:line", or the file alone when the line is unknown.
func (p pendingRow) where() string {
	if p.line > 0 {
		return fmt.Sprintf("%s:%d", p.file, p.line)
	}
	return p.file
}

// deliver hands an item to the callback and counts it.
func (r *reader) deliver(it estimate.Item, w float64) {
	r.countOne(it, w)
	r.fn(it, w)
}

// countOne counts an item delivered, of weight w.
func (r *reader) countOne(it estimate.Item, w float64) {
	st := &r.stats
	st.Items++
	if r.weighted {
		n := int64(math.Round(w)) // a whole count ≤ MaxCount
		if it.Status.Final() {
			st.Final = addSat(st.Final, n)
		} else {
			st.Pending = addSat(st.Pending, n)
		}
	} else if it.Status.Final() {
		st.Final++
	} else {
		st.Pending++
	}
	if !it.Dated {
		r.noCreated++
	}
}

// count counts a batch of items delivered at once (weights nil: each
// of weight 1), as countOne each.
func (r *reader) count(items []estimate.Item, ws []float64) {
	if r.weighted || ws != nil {
		for i, it := range items {
			w := 1.0
			if ws != nil {
				w = ws[i]
			}
			r.countOne(it, w)
		}
		return
	}
	var final, undated int64
	for i := range items {
		it := &items[i]
		if it.Status.Final() {
			final++
		}
		if !it.Dated {
			undated++
		}
	}
	st := &r.stats
	st.Items += int64(len(items))
	st.Final += final
	st.Pending += int64(len(items)) - final
	r.noCreated += undated
}

// deferItem keeps a pending item censored at the default ObservedAt, in
// blocks so that no slice is ever copied, spilling to a temporary file
// past pendingSpill items.
func (r *reader) deferItem(it estimate.Item) error {
	n := len(r.deferred)
	if n > 0 && len(r.deferred[n-1]) < cap(r.deferred[n-1]) {
		r.deferred[n-1] = append(r.deferred[n-1], it)
		return nil
	}
	if n*deferBlock >= pendingSpill {
		if r.spill == nil {
			s, err := newSpill(r.by != nil)
			if err != nil {
				return err
			}
			r.spill = s
		}
		for _, blk := range r.deferred {
			if err := r.spill.write(blk); err != nil {
				return err
			}
		}
		r.deferred = r.deferred[:1]
		r.deferred[0] = append(r.deferred[0][:0], it)
		return nil
	}
	blk := make([]estimate.Item, 1, deferBlock)
	blk[0] = it
	r.deferred = append(r.deferred, blk)
	return nil
}

const deferBlock = 1 << 12

func (r *reader) skip(reason string) {
	if r.stats.Skipped == nil {
		r.stats.Skipped = map[string]int64{}
	}
	r.stats.Skipped[reason]++
}
