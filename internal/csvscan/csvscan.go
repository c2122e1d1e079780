// Package csvscan is a fast, allocation-free CSV scanner for pollfit's
// log readers.
//
// A Chunker cuts a stream into chunks that hold only whole records (so
// chunks can be parsed in parallel), and Records splits one chunk into
// records and fields. Fields are sub-slices of the chunk, valid until the
// chunk is reused; a quoted field is unquoted into a scratch buffer,
// valid until the next record. The dialect is RFC 4180 with a chosen
// one-byte delimiter: quoted fields may hold delimiters, quotes written
// twice and newlines; CRLF and LF line ends; a UTF-8 byte order mark at
// the start of the stream is dropped; blank lines are skipped; a quote
// inside an unquoted field is an ordinary character.
package csvscan

import (
	"bytes"
	"fmt"
	"io"
)

// Error is a syntax error in the CSV text.
type Error struct {
	Line  int // 1-based physical line where the record starts
	Field int // 1-based field number, 0 when unknown
	Msg   string
	// TooLong marks a record beyond the SetMaxRecord limit.
	TooLong bool
}

func (e *Error) Error() string {
	if e.Field > 0 {
		return fmt.Sprintf("line %d, field %d: %s", e.Line, e.Field, e.Msg)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// Chunker reads a stream and hands it out in chunks of whole records.
type Chunker struct {
	r     io.Reader
	delim byte
	size  int    // target chunk size
	rest  []byte // the start of an incomplete record carried over
	line  int    // line of the next chunk's first byte
	first bool
	eof   bool
	err   error
	max   int   // the longest record, 0 for no limit
	Bytes int64 // bytes read so far
}

// SetMaxRecord makes Next fail with an *Error on a record longer than n
// bytes (n <= 0: no limit), so one endless line cannot exhaust memory:
// the buffer never grows past about 2n bytes.
func (c *Chunker) SetMaxRecord(n int) { c.max = n }

// NewChunker returns a Chunker reading r, with chunks of about size bytes
// (1 MiB when size <= 0).
func NewChunker(r io.Reader, delim byte, size int) *Chunker {
	if size <= 0 {
		size = 1 << 20
	}
	return &Chunker{r: r, delim: delim, size: size, line: 1, first: true}
}

// Next fills buf (reused if big enough, grown otherwise) with the next
// chunk and returns it with the line number of its first byte. At the end
// of the stream it returns a nil chunk and io.EOF; read errors are
// returned as they come.
func (c *Chunker) Next(buf []byte) (chunk []byte, line int, err error) {
	if c.err != nil {
		return nil, 0, c.err
	}
	if c.eof && len(c.rest) == 0 {
		return nil, 0, io.EOF
	}
	if cap(buf) < c.size {
		buf = make([]byte, 0, c.size)
	}
	buf = append(buf[:0], c.rest...)
	for {
		for !c.eof && len(buf) < cap(buf) {
			n, err := c.r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			c.Bytes += int64(n)
			if err == io.EOF {
				c.eof = true
			} else if err != nil {
				c.err = err
				return nil, 0, err
			}
		}
		cut := -1
		if c.first && len(buf) > 0 && (c.eof || len(buf) >= 3) {
			c.first = false
			if bytes.HasPrefix(buf, []byte("\xEF\xBB\xBF")) {
				buf = append(buf[:0], buf[3:]...)
				continue
			}
		}
		if c.eof {
			cut = len(buf)
		} else if !c.first {
			cut = LastRecordEnd(buf, c.delim)
		}
		if cut > 0 || c.eof {
			c.rest = append(c.rest[:0], buf[cut:]...)
			line = c.line
			c.line += bytes.Count(buf[:cut], []byte{'\n'})
			if cut == 0 {
				return nil, 0, io.EOF
			}
			return buf[:cut], line, nil
		}
		if buf, c.err = c.grow(buf); c.err != nil {
			return nil, 0, c.err
		}
	}
}

// grow doubles buf, which holds the start of one record longer than
// it, unless the record is already beyond the limit.
func (c *Chunker) grow(buf []byte) ([]byte, error) {
	if c.max > 0 && len(buf) > c.max {
		return nil, tooLong(c.line, c.max)
	}
	nb := make([]byte, len(buf), 2*cap(buf))
	copy(nb, buf)
	return nb, nil
}

// LastRecordEnd returns the length of the longest prefix of buf, which
// starts at a record boundary, that ends at a record boundary (just after
// a line end outside quotes); 0 when buf holds no whole record.
func LastRecordEnd(buf []byte, delim byte) int {
	if bytes.IndexByte(buf, '"') < 0 {
		return bytes.LastIndexByte(buf, '\n') + 1
	}
	last := 0
	fieldStart, quoted := true, false
	for i := 0; i < len(buf); i++ {
		b := buf[i]
		if quoted {
			if b == '"' {
				if i+1 < len(buf) && buf[i+1] == '"' {
					i++
				} else {
					quoted = false
				}
			}
			continue
		}
		switch b {
		case '"':
			quoted = fieldStart
			fieldStart = false
		case delim:
			fieldStart = true
		case '\n':
			fieldStart = true
			last = i + 1
		default:
			fieldStart = false
		}
	}
	return last
}
