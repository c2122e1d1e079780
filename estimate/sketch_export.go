package estimate

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pollfit/pollfit/internal/quote"
)

// A SQL engine's sketch arrives as the engine exports CSV: comma- or
// tab-separated, names and values quoted or not, CRLF or LF line ends,
// a UTF-8 byte-order mark or none. Its header is told by its parsed
// names, matched case-insensitively, never by its bytes.

// utf8BOM is the byte-order mark some engines and spreadsheets write.
const utf8BOM = "\ufeff"

// exportHeader parses the first line of a SQL engine's export (all or
// its start): its names, unquoted, trimmed and in lower case, the
// separator, and whether the line was complete (if not, the last name
// may be cut short).
func exportHeader(line []byte) (names []string, comma rune, complete bool) {
	line = bytes.TrimPrefix(line, []byte(utf8BOM))
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line, complete = line[:i], true
	}
	line = bytes.TrimSuffix(line, []byte("\r"))
	comma = ','
	if bytes.IndexByte(line, '\t') >= 0 && bytes.IndexByte(line, ',') < 0 {
		comma = '\t'
	}
	for _, f := range bytes.Split(line, []byte(string(comma))) {
		s := strings.TrimSpace(string(f))
		if n := len(s); n >= 2 && s[0] == '"' && s[n-1] == '"' {
			s = strings.ReplaceAll(s[1:n-1], `""`, `"`)
		}
		names = append(names, strings.ToLower(s))
	}
	return names, comma, complete
}

// exportHeaders are the headers of a SQL engine's sketch, by kind.
var exportHeaders = []string{1: sqlSketchHeader, 2: sqlSegHeader, 3: sqlPollerHeader}

// exportKind is which SQL sketch header names are: 1 for one without
// segments, 2 for a segmented one, 3 for a poller log's (with interval
// rows), 0 for none. A header cut short
// matches when its first three names do, and the start of the fourth
// or more.
func exportKind(names []string, complete bool) int {
	for kind, header := range exportHeaders {
		want := strings.Split(header, ",")
		switch n := len(names); {
		case kind == 0:
		case complete && equalNames(names, want):
			return kind
		case !complete && n >= 4 && n <= len(want) && equalNames(names[:n-1], want[:n-1]) &&
			strings.HasPrefix(want[n-1], strings.TrimPrefix(names[n-1], `"`)):
			return kind
		}
	}
	return 0
}

func equalNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// recordSource reads a SQL export's rows after its header as records:
// the fields and the line they start on.
type recordSource func() ([]string, int, error)

// csvRecords reads r (after the header line) as CSV records separated
// by comma; line numbers start at 2.
func csvRecords(r io.Reader, comma rune) recordSource {
	cr := csv.NewReader(r)
	cr.Comma, cr.FieldsPerRecord, cr.ReuseRecord = comma, -1, true
	cr.LazyQuotes = comma == '\t' // a tab-separated export quotes nothing
	return func() ([]string, int, error) {
		rec, err := cr.Read()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, pe.StartLine + 1, pe.Err
			}
			return nil, 0, err
		}
		line, _ := cr.FieldPos(0)
		return rec, line + 1, nil
	}
}

// firstLine reads the first line of br, at most 1 MiB, without its
// line end.
func firstLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := br.ReadSlice('\n')
		line = append(line, part...)
		switch {
		case len(line) > 1<<20:
			return nil, fmt.Errorf("a first line longer than 1 MiB: %q…", quote.Clip(string(line[:64])))
		case err == bufio.ErrBufferFull:
			continue
		case err != nil && err != io.EOF:
			return nil, err
		}
		return line, nil
	}
}
