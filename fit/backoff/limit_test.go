package backoff

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pollfit/pollfit/internal/quote"
)

// TestParseErrorBounded is the fuzzer's crasher: 1108 invalid bytes
// that %q writes as four characters each made a 4,331-byte error when
// the clip counted bytes before quoting. Each quoted piece of input is
// now at most quote.Max runes, and the message around it is short.
func TestParseErrorBounded(t *testing.T) {
	for _, s := range []string{
		"LIMD(" + strings.Repeat("\xfd", 1108) + "----=)",
		"exponential(initial=" + strings.Repeat("\xfd", 5000) + ")",
		strings.Repeat("\xfd", 5000) + "(1s)",
		"constant(" + strings.Repeat("é", 5000) + ")",
	} {
		_, err := Parse(s)
		if err == nil {
			t.Fatalf("Parse of %d bytes: no error", len(s))
		}
		if n := utf8.RuneCountInString(err.Error()); n > 3*quote.Max+200 {
			t.Errorf("Parse of %d bytes: error of %d runes: %.300s", len(s), n, err)
		}
	}
}
