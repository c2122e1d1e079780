package csvscan

import (
	"bytes"
	"fmt"
)

// Records splits a chunk of whole records into fields.
type Records struct {
	buf     []byte
	off     int
	line    int // line of buf[off]
	delim   byte
	fields  [][]byte
	scratch []byte
	ends    []int
	max     int // the longest record, 0 for no limit
	// quote is the offset in buf of the first quote at or after off, or
	// len(buf) when there is none: most chunks have none, and one search
	// of the chunk then saves one of every record.
	quote int
	marks marks
}

// SetMaxRecord makes Next report a record longer than n bytes (n <= 0:
// no limit) as an *Error, skipping it.
func (r *Records) SetMaxRecord(n int) { r.max = n }

func tooLong(line, max int) *Error {
	return &Error{Line: line, Msg: fmt.Sprintf("line longer than %d bytes (raise the limit with --max-line)", max), TooLong: true}
}

// NewRecords returns a Records with the delimiter delim.
func NewRecords(delim byte) *Records {
	return &Records{delim: delim}
}

// Reset starts splitting chunk, whose first byte is on line line.
func (r *Records) Reset(chunk []byte, line int) {
	r.buf, r.off, r.line = chunk, 0, line
	r.quote = -1
	r.marks.at = -1
}

// quoteFrom is the offset of the first quote in buf at or after off, or
// len(buf).
func (r *Records) quoteFrom(off int) int {
	if r.quote < off {
		r.quote = len(r.buf)
		if i := bytes.IndexByte(r.buf[off:], '"'); i >= 0 {
			r.quote = off + i
		}
	}
	return r.quote
}

// Next returns the next record's fields and the line it starts on; ok is
// false at the end of the chunk. The fields are valid until the next call
// (those of unquoted fields until the chunk is reused). After a syntax
// error (an *Error) the rest of the bad record is skipped and Next may be
// called again.
func (r *Records) Next() (fields [][]byte, line int, ok bool, err error) {
	m, buf := &r.marks, r.buf
	for r.off < len(buf) {
		if m.at != r.off {
			m.seek(r.off, r.quoteFrom(r.off), r.delim)
		}
		// The fields up to the line feed at end, by the marks.
		f, start, end := r.fields[:0], r.off, -1
		from := start
	marks:
		for m.i < m.n || m.fill(buf) {
			i, n, base := m.i, m.n, m.base
			for i < n {
				p := base + int(m.pos[i&(markBlock-1)])
				i++
				f = append(f, buf[from:p])
				from = p + 1
				if buf[p] == '\n' {
					m.i, end = i, p
					break marks
				}
			}
			m.i = i
		}
		if end < 0 {
			if m.end < len(buf) {
				return r.quoted() // a quote before the line's end
			}
			f, end = append(f, buf[from:]), len(buf)
		}
		r.fields = f
		line = r.line
		r.off = min(end+1, len(buf))
		m.at = r.off
		r.line++
		if n := len(f) - 1; end > start && buf[end-1] == '\r' {
			f[n] = f[n][:len(f[n])-1]
			end--
		}
		if end == start {
			continue // blank line
		}
		if r.max > 0 && end-start > r.max {
			return nil, line, true, tooLong(line, r.max)
		}
		return f, line, true, nil
	}
	return nil, r.line, false, nil
}

// quoted parses a record holding quotes, byte by byte.
func (r *Records) quoted() (fields [][]byte, line int, ok bool, err error) {
	buf := r.buf
	i := r.off
	line = r.line
	r.scratch = r.scratch[:0]
	ends := r.ends[:0] // end offsets of fields in scratch
	fieldStart := true
	quoted := false
	quoteLine := line
	done := false
	for ; i < len(buf) && !done; i++ {
		b := buf[i]
		if b == '\n' {
			r.line++
		}
		if quoted {
			if b != '"' {
				r.scratch = append(r.scratch, b)
				continue
			}
			if i+1 < len(buf) && buf[i+1] == '"' {
				r.scratch = append(r.scratch, '"')
				i++
				continue
			}
			quoted = false
			if i+1 < len(buf) && buf[i+1] != r.delim && buf[i+1] != '\n' && buf[i+1] != '\r' {
				err = &Error{Line: line, Field: len(ends) + 1, Msg: "text after the closing quote of a quoted field"}
			}
			continue
		}
		switch b {
		case '"':
			if fieldStart {
				quoted, quoteLine = true, r.line
				fieldStart = false
				continue
			}
			r.scratch = append(r.scratch, b)
		case r.delim:
			ends = append(ends, len(r.scratch))
			fieldStart = true
		case '\n':
			done = true
		default:
			if b == '\r' && (i+1 == len(buf) || buf[i+1] == '\n') {
				continue
			}
			r.scratch = append(r.scratch, b)
			fieldStart = false
		}
	}
	if r.max > 0 && i-r.off > r.max+1 && err == nil { // +1: the line end
		err = tooLong(line, r.max)
	}
	r.off = i
	if !done && quoted {
		err = &Error{Line: quoteLine, Field: len(ends) + 1, Msg: "quoted field not closed"}
	}
	ends = append(ends, len(r.scratch))
	r.ends = ends
	if err != nil {
		return nil, line, true, err
	}
	f := r.fields[:0]
	start := 0
	for _, e := range ends {
		f = append(f, r.scratch[start:e:e])
		start = e
	}
	r.fields = f
	return f, line, true, nil
}

// Offset is how far into the chunk the records read so far reach.
func (r *Records) Offset() int { return r.off }

// Line is the line of the next record.
func (r *Records) Line() int { return r.line }
