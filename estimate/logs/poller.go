package logs

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pollfit/pollfit/internal/csvscan"
)

// PollerOptions say how to read a poller's own log, which knows each
// item's settle age only to lie between two asks. Two forms are read,
// told apart by the header:
//
//   - one row per ask: id, created_at, asked_at and status, the status
//     that ask saw (rows of one item in any order, across files);
//   - one row per item: created_at, last_pending_at (the last ask that
//     saw it pending; empty when the first ask saw it final),
//     first_final_at (the first ask that saw it final; empty when none
//     did) and status.
//
// Each item becomes an estimate.Interval (L, R]: L the age of its last
// pending ask (0 when the first ask saw it final), R the age of its first
// final ask; an item never seen final is pending at its last ask, (L,
// +Inf). Of Options, the column names CreatedCol and StatusCol, the
// status words, Delimiter, TimeFormat, TimeUnit, Location and SkipBad
// apply; the rest do not. CSV only, gzipped or not.
type PollerOptions struct {
	Options
	// Column names of the two forms; defaults "id", "asked_at",
	// "last_pending_at" and "first_final_at".
	IDCol, AskedCol, LastPendingCol, FirstFinalCol string
	// MaxOpen is how many items of a one-row-per-ask log are held in
	// memory before they are spilled to temporary files, partitioned by
	// id; default 1<<17 (about 15 MB). Memory is then bounded by MaxOpen
	// items plus one partition's, a 64th of the items.
	MaxOpen int
}

// PollerStats describe what a poller-log read found.
type PollerStats struct {
	// Rows is the number of data rows, Items the intervals delivered,
	// Final those with a final ask and Pending the rest.
	Rows, Items, Final, Pending int64
	// PerAsk reports the one-row-per-ask form; Spilled that its items
	// outgrew MaxOpen and went through temporary files.
	PerAsk, Spilled bool
	// Skipped counts bad rows skipped under SkipBad, by reason.
	Skipped map[string]int64
	// Files are the files read, in order.
	Files []string
}

// pollerForm is the form of a poller log, from its header.
type pollerForm struct {
	file                                              string
	names                                             []string
	perAsk                                            bool
	id, created, asked, lastPending, firstFinal, stat int
}

// pollerColumns finds the columns of either form in a header.
func pollerColumns(file string, header []string, opt *PollerOptions) (*pollerForm, error) {
	p := &pollerForm{file: file, names: make([]string, len(header))}
	index, _ := indexHeader(header, p.names)
	find := func(set, def string) int {
		if i, ok := index[strings.ToLower(strings.TrimSpace(orDefault(set, def)))]; ok {
			return i
		}
		return -1
	}
	p.id, p.created, p.stat = find(opt.IDCol, "id"), find(opt.CreatedCol, "created_at"), find(opt.StatusCol, "status")
	p.asked = find(opt.AskedCol, "asked_at")
	p.lastPending, p.firstFinal = find(opt.LastPendingCol, "last_pending_at"), find(opt.FirstFinalCol, "first_final_at")
	p.perAsk = p.asked >= 0
	switch {
	case p.perAsk && (p.id < 0 || p.created < 0 || p.stat < 0):
		return nil, fmt.Errorf("%s: a poller log of one row per ask needs the columns id, created_at, asked_at and status (header has: %s)", file, cut(strings.Join(p.names, ", ")))
	case !p.perAsk && (p.created < 0 || p.lastPending < 0 || p.firstFinal < 0):
		return nil, fmt.Errorf("%s: not a poller log: need id, created_at, asked_at, status (one row per ask) or created_at, last_pending_at, first_final_at (one row per item) (header has: %s)", file, cut(strings.Join(p.names, ", ")))
	}
	return p, nil
}

// IsPollerLog reports whether the first file at paths is a CSV poller
// log in either form, by its header (a Parquet file or standard input
// is not).
func IsPollerLog(paths []string, opt PollerOptions) bool {
	files, err := expandPaths(paths)
	if err != nil || len(files) == 0 || files[0] == "-" {
		return false
	}
	ok := false
	_ = eachCSVRecord(files[0], opt.Delimiter, opt.maxLine(), func(header []string) error {
		_, err := pollerColumns(files[0], header, &opt)
		ok = err == nil
		return errStopRead
	}, nil)
	return ok
}

var errStopRead = errors.New("stop")

// eachCSVRecord reads the CSV file name (gunzipped when it starts like
// gzip) with the fast scanner Each uses, handing the header to head and
// each record's fields, with its line, to row (the fields are valid
// until row returns); it stops at the first error either returns
// (errStopRead: no error). A line longer than maxLine is an error.
func eachCSVRecord(name string, delim rune, maxLine int, head func([]string) error, row func([][]byte, int) error) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	var in io.Reader = br
	if m, _ := br.Peek(4); string(m) == "PAR1" {
		return fmt.Errorf("%s: a poller log in Parquet is not read yet: write it as CSV", name)
	} else if len(m) >= 2 && m[0] == 0x1f && m[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		defer zr.Close()
		in = zr
	}
	d := (&reader{opt: Options{Delimiter: delim}}).delimFor(name)
	ch := csvscan.NewChunker(crLines(in), d, chunkSize)
	ch.SetMaxRecord(maxLine)
	recs := csvscan.NewRecords(d)
	recs.SetMaxRecord(maxLine)
	var buf []byte
	for first := true; ; {
		chunk, line, err := ch.Next(buf)
		if err == io.EOF && first {
			return fmt.Errorf("empty input: %s has no header", name)
		} else if err == io.EOF {
			return nil
		} else if err != nil {
			return chunkError(name, err)
		}
		buf = chunk
		recs.Reset(chunk, line)
		for {
			fields, line, ok, err := recs.Next()
			if !ok {
				break
			}
			if err != nil {
				return chunkError(name, err)
			}
			if first {
				first = false
				header := make([]string, len(fields))
				for i, f := range fields {
					header[i] = string(f)
				}
				err = head(header)
			} else {
				err = row(fields, line)
			}
			if err != nil {
				return stopOK(err)
			}
		}
	}
}

func stopOK(err error) error {
	if err == errStopRead {
		return nil
	}
	return err
}
