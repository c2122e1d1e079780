package logs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/pollfit/pollfit/internal/csvscan"
)

// readCSV reads one CSV input: the header, then chunks of records parsed
// in parallel (see read_pipeline.go) and merged in order.
func (r *reader) readCSV(name string, in io.Reader) error {
	delim := r.delimFor(name)
	ch := csvscan.NewChunker(crLines(in), delim, chunkSize)
	ch.SetMaxRecord(r.opt.maxLine())
	chunk, line, err := ch.Next(nil)
	if err == io.EOF {
		return fmt.Errorf("%s: empty file (no header)", name)
	}
	if err != nil {
		return chunkError(name, err)
	}
	recs := csvscan.NewRecords(delim)
	recs.SetMaxRecord(r.opt.maxLine())
	recs.Reset(chunk, line)
	fields, _, ok, err := recs.Next()
	if err != nil {
		var se *csvscan.Error
		if errors.As(err, &se) {
			return &RowError{File: name, Line: se.Line, Col: se.Field, Msg: "header: " + se.Msg}
		}
		return err
	}
	if !ok {
		return fmt.Errorf("%s: empty file (no header)", name)
	}
	header := make([]string, len(fields))
	for i, f := range fields {
		header[i] = string(f)
	}
	l, err := resolveColumns(name, header, &r.opt)
	if err != nil {
		return err
	}
	if l.mode == modeHist {
		r.weighted = true
	}
	first := chunk[recs.Offset():]
	r.progress(int64(recs.Offset()))
	return r.pipeline(ch, r.newConv(l), first, recs.Line(), delim)
}

// chunkError places a chunker's error in its file: a *RowError for a
// syntax error or an overlong line, the read error otherwise.
func chunkError(file string, err error) error {
	var se *csvscan.Error
	if errors.As(err, &se) {
		return &RowError{File: file, Line: se.Line, Col: se.Field, Msg: se.Msg}
	}
	return fmt.Errorf("%s: %v", file, err)
}

// DefaultMaxLine is the longest CSV line (a whole record, quoted line
// ends included) read unless Options.MaxLine says otherwise: 1 MiB.
const DefaultMaxLine = 1 << 20

func (o *Options) maxLine() int {
	if o.MaxLine > 0 {
		return o.MaxLine
	}
	return DefaultMaxLine
}

// chunkSize is the size of the pieces CSV input is parsed in.
var chunkSize = 1 << 20

// parseChunk parses the records of chunk into b.
func (c *rowConv) parseChunk(recs *csvscan.Records, chunk []byte, line int, b *batch) {
	recs.Reset(chunk, line)
	recs.SetMaxRecord(c.maxLine)
	width := c.l.width()
	for {
		fields, line, ok, err := recs.Next()
		if !ok {
			return
		}
		b.rows++
		if err != nil {
			var se *csvscan.Error
			if errors.As(err, &se) && se.TooLong {
				c.fail(b, se.Line, -1, skipLong, "%s", se.Msg)
			} else if errors.As(err, &se) {
				c.fail(b, se.Line, se.Field-1, skipSyntax, "%s", se.Msg)
			}
		} else if len(fields) != width {
			c.fail(b, line, -1, skipFields, "%d fields, the header has %d", len(fields), width)
		} else if c.l.mode == modeHist {
			c.histRow(fields, line, b)
		} else if c.fields(fields, line, b) {
			c.build(b, line)
		}
		if b.err != nil {
			return
		}
	}
}

// fields parses the columns of one CSV record into c.v.
func (c *rowConv) fields(f [][]byte, line int, b *batch) bool {
	l, v := c.l, &c.v
	v.reset()
	epoch := false
	if l.created >= 0 {
		s := trim(f[l.created])
		if len(s) > 0 {
			t, ok := c.tp.fast(s)
			if !ok {
				if t, ok = c.notFast(s, l.created, line, b); !ok {
					return false
				}
			}
			v.created = t
			epoch = l.signal >= 0 && c.tp.layout == "" && isNumber(s) // only the signal reads it
		}
	}
	if l.settled >= 0 {
		if s := trim(f[l.settled]); len(s) > 0 {
			t, ok := c.tp.fast(s)
			if !ok {
				if t, ok = c.notFast(s, l.settled, line, b); !ok {
					return false
				}
			}
			v.settled = t
		}
	}
	if l.duration >= 0 {
		if s := trim(f[l.duration]); len(s) > 0 {
			d, err := parseDuration(s)
			if err != nil {
				return c.fail(b, line, l.duration, skipDuration, "%v", err)
			}
			v.dur = d
		}
	}
	if l.status >= 0 {
		if s := trim(f[l.status]); len(s) > 0 {
			st, ok := c.lookupCached(&c.fast.cache, s)
			if !ok {
				return c.fail(b, line, l.status, skipStatus,
					"unknown status %q (neither a known final word nor a pending one)", s)
			}
			v.status, v.hasStatus = st, true
		}
	}
	if c.by != nil && !c.segOf(f[l.by], b, line) {
		return false
	}
	if l.signal >= 0 {
		if s := trim(f[l.signal]); len(s) > 0 {
			return c.signal(s, epoch, line, b)
		}
	}
	return true
}

// notFast parses timestamp s of column col, which the fast parser did
// not read, failing the row when it is bad.
func (c *rowConv) notFast(s []byte, col, line int, b *batch) (int64, bool) {
	t, err := c.tp.notFast(s)
	if err != nil {
		return 0, c.fail(b, line, col, skipTime, "%v", err)
	}
	return t, true
}

// signal parses a signal field: a timestamp, or an age.
func (c *rowConv) signal(s []byte, epoch bool, line int, b *batch) bool {
	v := &c.v
	if isNumber(s) && !epoch || !isNumber(s) && c.tp.layout == "" && isGoDuration(s) {
		d, err := parseDuration(s)
		if err != nil {
			return c.fail(b, line, c.l.signal, skipSignal, "%v", err)
		}
		v.sigAge = d
		return true
	}
	t, err := c.tp.parse(s)
	if err != nil {
		return c.fail(b, line, c.l.signal, skipSignal, "%v", err)
	}
	v.sigTime = t
	return true
}

// isGoDuration reports whether s ends like a Go duration ("1.5s", "2m").
func isGoDuration(s []byte) bool {
	n := len(s)
	return n >= 2 && s[0] >= '0' && s[0] <= '9' && (s[n-1] == 's' || s[n-1] == 'm' || s[n-1] == 'h') &&
		bytes.IndexAny(s, ":-T ") < 0
}

func trim(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// crPeek is how much of a CSV input is looked at to tell its line ends.
const crPeek = 64 << 10

// crLines returns in unchanged, unless its first crPeek bytes hold a
// carriage return and no line feed: then its lines end in a lone CR (as
// classic Mac OS wrote them) and it reads in with every CR as an LF.
func crLines(in io.Reader) io.Reader {
	br, ok := in.(*bufio.Reader)
	if !ok || br.Size() < crPeek {
		br = bufio.NewReaderSize(in, crPeek)
	}
	head, _ := br.Peek(crPeek)
	if bytes.IndexByte(head, '\n') >= 0 || bytes.IndexByte(head, '\r') < 0 {
		return br
	}
	return crReader{br}
}

// crReader turns every CR into an LF.
type crReader struct{ r io.Reader }

func (c crReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\r' {
			p[i] = '\n'
		}
	}
	return n, err
}
