package quote

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	long := strings.Repeat("x", 250)
	for _, c := range []struct{ format, in, want string }{
		{"%s", "abc", "abc"},
		{"%q", "a\"b", `"a\"b"`},
		{"%q", "a\xfdb\n", `"a\xfdb\n"`},
		{"%s", long, strings.Repeat("x", 200) + "..."},
		{"%q", long, `"` + strings.Repeat("x", 200) + `"...`},
		// 200 runes of é are 400 bytes: the cut counts runes.
		{"%s", strings.Repeat("é", 250), strings.Repeat("é", 200) + "..."},
		{"%q", strings.Repeat("é", 250), `"` + strings.Repeat("é", 200) + `"...`},
		// Each invalid byte quotes as four characters: 50 fit in 200,
		// and an escape is never split.
		{"%q", strings.Repeat("\xfd", 60), `"` + strings.Repeat(`\xfd`, 50) + `"...`},
		{"%q", "ab" + strings.Repeat("\xfd", 60), `"ab` + strings.Repeat(`\xfd`, 49) + `"...`},
	} {
		if got := fmt.Sprintf(c.format, Clip(c.in)); got != c.want {
			t.Errorf("%s of %d bytes: got %q, want %q", c.format, len(c.in), got, c.want)
		}
	}
}

// TestClipQuoteAgrees checks that text short enough to keep is quoted
// exactly as strconv.Quote quotes it.
func TestClipQuoteAgrees(t *testing.T) {
	for _, s := range []string{"", "plain", "tab\there", "\x00\x7f", "日本語", "\u00a0\u200b", "\xff\xfe", "a\\b\"c"} {
		if got, want := fmt.Sprintf("%q", Clip(s)), strconv.Quote(s); got != want {
			t.Errorf("Clip(%q): got %s, want %s", s, got, want)
		}
	}
}

// TestClipBoundedByRunes is the fuzzer's crasher from fit/backoff: 1108
// bytes of 0xFD made an error of 4,331 bytes. Quoted, the clip is at
// most Max runes plus the quotes and the ellipsis.
func TestClipBoundedByRunes(t *testing.T) {
	in := "LIMD(" + strings.Repeat("\xfd", 1108) + "----=)"
	got := fmt.Sprintf("%q", Clip(in))
	if n := utf8.RuneCountInString(got); n > Max+5 {
		t.Errorf("clip of %d bytes is %d runes, want at most %d", len(in), n, Max+5)
	}
}

func TestList(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"go"}, "go"},
		{[]string{"go", "js"}, "go or js"},
		{[]string{"dsl", "json", "go"}, "dsl, json or go"},
	} {
		if got := List(c.names, "or"); got != c.want {
			t.Errorf("List(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}
