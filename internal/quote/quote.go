// Package quote cuts input text quoted in error messages to a bounded
// length, so that an endless field or line cannot flood the terminal.
package quote

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Max is the most characters (runes) of input an error message quotes,
// counted after quoting: an invalid byte that %q writes as \xfd counts
// four.
const Max = 200

// Clip is input text in an error message, cut to Max runes with "..."
// after the cut; %q quotes it, and the cut then counts the quoted
// characters, never splitting an escape.
type Clip string

// Format writes the clipped text, quoted for %q.
func (c Clip) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		io.WriteString(f, quoted(string(c)))
		return
	}
	s, cut := string(c), ""
	if n := runeOffset(s, Max); n < len(s) {
		s, cut = s[:n], "..."
	}
	io.WriteString(f, s+cut)
}

// runeOffset is the byte offset of s's n-th rune, or len(s).
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// quoted is s quoted as strconv.Quote does, cut after Max runes of
// quoted text, with "..." after the closing quote when cut.
func quoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	runes := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		var q string
		if r == utf8.RuneError && size == 1 {
			q = `\x` + strconv.FormatUint(uint64(s[0])|0x100, 16)[1:]
		} else {
			q = strconv.Quote(s[:size])
			q = q[1 : len(q)-1]
		}
		n := utf8.RuneCountInString(q)
		if runes+n > Max {
			b.WriteString(`"...`)
			return b.String()
		}
		b.WriteString(q)
		runes += n
		s = s[size:]
	}
	b.WriteByte('"')
	return b.String()
}
