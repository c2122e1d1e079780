package quote

import (
	"fmt"
	"strings"
	"testing"
)

func TestClip(t *testing.T) {
	long := strings.Repeat("x", 250)
	for _, c := range []struct{ format, in, want string }{
		{"%s", "abc", "abc"},
		{"%q", "a\"b", `"a\"b"`},
		{"%s", long, strings.Repeat("x", 200) + "..."},
		{"%q", long, `"` + strings.Repeat("x", 200) + `"...`},
	} {
		if got := fmt.Sprintf(c.format, Clip(c.in)); got != c.want {
			t.Errorf("%s of %d bytes: got %q, want %q", c.format, len(c.in), got, c.want)
		}
	}
}
