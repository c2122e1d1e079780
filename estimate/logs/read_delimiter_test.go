package logs

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/internal/opterr"
)

// A log whose header reads as one column holding another delimiter is
// refused naming the delimiter (Options.Delimiter), whatever columns
// were asked for; read with it, the same file reads.
func TestHeaderOfOneColumnNamesTheDelimiter(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		delim string
		want  rune
	}{{";", ';'}, {"\t", '\t'}, {"|", '|'}} {
		body := strings.ReplaceAll("created_at,settled_at,status\n2026-01-01T00:00:00+01:00,2026-01-01T00:00:02+01:00,settled\n", ",", c.delim)
		p := filepath.Join(dir, "log.csv")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, opt := range []Options{{}, {CreatedCol: "created_at", SettledCol: "settled_at"}} {
			_, _, err := Read([]string{p}, opt)
			var oe *opterr.OptionError
			if !errors.As(err, &oe) || oe.Field != "Delimiter" || !strings.Contains(oe.Want, strconv.QuoteRune(c.want)) {
				t.Errorf("delimiter %q, options %+v: error %v, want an option error on Delimiter naming it", c.delim, opt, err)
			}
		}
		items, _, err := Read([]string{p}, Options{Delimiter: c.want})
		if err != nil || len(items) != 1 || items[0].Age != 2 {
			t.Errorf("delimiter %q given: %v items, err %v; want one item of age 2s", c.delim, items, err)
		}
	}
	// A header of one column that holds no delimiter is the old error.
	p := filepath.Join(dir, "one.csv")
	os.WriteFile(p, []byte("created_at\n2026-01-01T00:00:00Z\n"), 0o644)
	var mc *MissingColumnsError
	if _, _, err := Read([]string{p}, Options{}); !errors.As(err, &mc) {
		t.Errorf("one column, no delimiter in it: %v, want the missing-columns error", err)
	}
}
