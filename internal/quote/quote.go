// Package quote cuts input text quoted in error messages to a bounded
// length, so that an endless field or line cannot flood the terminal.
package quote

import (
	"fmt"
	"io"
	"strconv"
)

// Max is the most bytes of input an error message quotes.
const Max = 200

// Clip is input text in an error message, cut to Max bytes with "..."
// after the cut; %q quotes it.
type Clip string

// Format writes the clipped text, quoted for %q.
func (c Clip) Format(f fmt.State, verb rune) {
	s, cut := string(c), ""
	if len(s) > Max {
		s, cut = s[:Max], "..."
	}
	if verb == 'q' {
		s = strconv.Quote(s)
	}
	io.WriteString(f, s+cut)
}
