package logs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
)

// TestReadAgeLimits: ages beyond estimate.MaxAge, from any source, are bad rows
// naming file:line:col, and --skip-bad counts them.
func TestReadAgeLimits(t *testing.T) {
	const times = "created_at,settled_at\n2026-01-01T00:00:00Z,2026-01-01T00:00:01Z\n"
	for _, tc := range []struct {
		name, text, want string
		hist             bool
	}{
		{"duration 1e308", "duration\n1.5\n1e308\n", "p.csv:3:1: column duration: duration of 3.171e+300 years is beyond the maximum age of 100 years", false},
		{"duration 1e10", "duration\n2\n1e10\n3\n", "p.csv:3:1: column duration: duration of 317.1 years", false},
		{"go duration", "duration\n2562047h\n", "p.csv:2:1: column duration: duration of 292.5 years", false},
		{"1900 to 2200", times + "1900-01-01T00:00:00Z,2200-01-01T00:00:00Z\n", "p.csv:3:2: column settled_at: settled_at − created_at of 300.2 years", false},
		{"101 years", times + "1900-01-01T00:00:00Z,2001-01-01T00:00:00Z\n", "p.csv:3:2: column settled_at: settled_at − created_at of 101.1 years", false},
		{"signal", "created_at,settled_at,signal_at\n1900-01-01T00:00:00Z,1901-01-01T00:00:00Z,2200-01-01T00:00:00Z\n", "p.csv:2:3: column signal_at: signal age of 300.2 years", false},
		{"signal age", "duration,signal\n1,1e12\n", "p.csv:2:2: column signal: signal age of 3.171e+04 years", false},
		{"bin end", "lo_s,hi_s,final,pending\n0,1e20,3,0\n", "p.csv:2:2: column hi_s: bin end of 3.171e+12 years", true},
		{"bin start", "lo_s,hi_s,final,pending\n1e20,,0,3\n", "p.csv:2:1: column lo_s: bin start of 3.171e+12 years", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := readWrite(t, "p.csv", tc.text)
			opt := Options{Histogram: tc.hist}
			_, err := EachWeighted([]string{path}, opt, func(estimate.Item, float64) {})
			var re *RowError
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &re) {
				t.Fatalf("got error %v\nwant a *RowError containing %q", err, tc.want)
			}
			opt.SkipBad = true
			_, st, _ := readHistOrLog(t, path, opt)
			if st.Skipped[skipAge] != 1 {
				t.Errorf("skip-bad counted %v, want 1 under %q", st.Skipped, skipAge)
			}
		})
	}
}

func readHistOrLog(t *testing.T, path string, opt Options) ([]estimate.Item, Stats, error) {
	t.Helper()
	var items []estimate.Item
	st, err := EachWeighted([]string{path}, opt, func(it estimate.Item, _ float64) { items = append(items, it) })
	return items, st, err
}

// TestReadDeferredAge: a pending row created a century before the latest
// timestamp is refused at the end of the read, or skipped.
func TestReadDeferredAge(t *testing.T) {
	text := "created_at,settled_at,status\n1900-01-01T00:00:00Z,,pending\n" +
		"2200-01-01T00:00:00Z,2200-01-01T00:00:01Z,settled\n"
	_, _, err := readText(t, "p.csv", text, Options{})
	if err == nil || !strings.Contains(err.Error(), "a pending item created at 1900-01-01T00:00:00Z is 300.2 years old at the latest timestamp") {
		t.Fatalf("got %v", err)
	}
	items, st, err := readText(t, "p.csv", text, Options{SkipBad: true})
	if err != nil || len(items) != 1 || st.Skipped[skipAge] != 1 {
		t.Fatalf("skip-bad: %d items, skipped %v, err %v", len(items), st.Skipped, err)
	}
}

// TestReadHistogramCounts: counts are whole numbers up to MaxCount, so
// the totals add up and never wrap.
func TestReadHistogramCounts(t *testing.T) {
	for _, c := range []string{"1e19", "2.5", "9007199254740994"} {
		path := readWrite(t, "h.csv", "lo_s,hi_s,final,pending\n0,1,"+c+",0\n")
		_, err := EachWeighted([]string{path}, Options{Histogram: true}, func(estimate.Item, float64) {})
		if err == nil || !strings.Contains(err.Error(), "h.csv:2:3: column final: bad count \""+c+"\" (want a whole number from 0 to 2^53)") {
			t.Errorf("count %s: got %v", c, err)
		}
	}
	path := readWrite(t, "h.csv", "lo_s,hi_s,final,pending\n0,1,9007199254740992,0\n1,2,9007199254740992,0\n")
	st, err := EachWeighted([]string{path}, Options{Histogram: true}, func(estimate.Item, float64) {})
	if err != nil || st.Final != 2<<53 {
		t.Errorf("two bins of 2^53: final %d, err %v", st.Final, err)
	}
}

// TestReadLongLine: a line beyond MaxLine is an error naming its line,
// read in bounded memory, and the message quotes none of it.
func TestReadLongLine(t *testing.T) {
	long := strings.Repeat("x", 2<<20)
	const ok = "2026-01-01T00:00:00Z,2026-01-01T00:00:01Z,a\n"
	for _, tc := range []struct{ name, text, want string }{
		{"header", "created_at,settled_at," + long + "\n" + ok, "p.csv:1: line longer than 1048576 bytes (raise the limit with --max-line)"},
		{"data", "created_at,settled_at,note\n" + ok + "2026-01-01T00:00:00Z,2026-01-01T00:00:01Z," + long + "\n" + ok, "p.csv:3: line longer than 1048576 bytes"},
		{"quoted", "created_at,settled_at,note\n" + ok + ok + "2026-01-01T00:00:00Z,2026-01-01T00:00:01Z,\"" + strings.Repeat("y\n", 1<<20) + "\"\n", "p.csv:4: line longer than 1048576 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readText(t, "p.csv", tc.text, Options{SkipBad: true})
			var re *RowError
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &re) || len(err.Error()) > 400 {
				t.Fatalf("got a %T of %d bytes: %.300v\nwant a *RowError containing %q", err, len(fmt.Sprint(err)), err, tc.want)
			}
		})
	}
	text := "created_at,settled_at,note\n" + ok + "2026-01-01T00:00:00Z,2026-01-01T00:00:01Z," + long + "\n"
	items, _, err := readText(t, "p.csv", text, Options{MaxLine: 4 << 20})
	if err != nil || len(items) != 2 {
		t.Fatalf("MaxLine 4 MiB: %d items, %v", len(items), err)
	}
}

// TestReadQuotesAtMost200Bytes: a huge bad field is quoted cut short.
func TestReadQuotesAtMost200Bytes(t *testing.T) {
	long := strings.Repeat("9", 100_000)
	for _, tc := range []struct{ text, want string }{
		{"created_at,settled_at\n" + long + ",2026-01-01T00:00:01Z\n", `p.csv:2:1: column created_at: bad epoch number "` + long[:200] + `"...`},
		{"created_at,settled_at\nx" + long + ",2026-01-01T00:00:01Z\n", `p.csv:2:1: column created_at: bad timestamp "x` + long[:199] + `"... (want RFC 3339`},
		{"duration,status\n1," + long + "\n", `p.csv:2:2: column status: unknown status "` + long[:200] + `"... (neither`},
		{"duration\nx" + long + "\n", `p.csv:2:1: column duration: bad duration "x` + long[:199] + `"...`},
		{"id," + long + "\n1,2\n", "header has: id, " + long[:196] + "...)"},
	} {
		_, _, err := readText(t, "p.csv", tc.text, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(err.Error()) > 500 {
			t.Errorf("got %d bytes: %.400v\nwant %.300q", len(fmt.Sprint(err)), err, tc.want)
		}
	}
}

// TestReadDuplicateColumn: a column the read uses may not be named twice.
func TestReadDuplicateColumn(t *testing.T) {
	text := "created_at,settled_at,status,Settled_At\n2026-01-01T00:00:00Z,2026-01-01T00:00:01Z,settled,2026-01-01T00:00:09Z\n"
	_, _, err := readText(t, "p.csv", text, Options{})
	want := "p.csv:1:4: column Settled_At: the header names this column twice (columns 2 and 4): rename or drop one"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v\nwant %q", err, want)
	}
	// An unused column named twice is fine.
	text = "created_at,settled_at,note,note\n2026-01-01T00:00:00Z,2026-01-01T00:00:01Z,a,b\n"
	if _, _, err := readText(t, "p.csv", text, Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestReadFolderSkipsTxt: a folder's README.txt is not read as a log.
func TestReadFolderSkipsTxt(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "README.txt"), []byte("These are the payment logs.\n"), 0o644)
	_, _, err := Read([]string{dir}, Options{SkipBad: true})
	if err == nil || !strings.Contains(err.Error(), "no .csv, .tsv, .parquet or .pq files (gzipped or not) in folder; name a .txt log directly") {
		t.Fatalf("empty folder: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "a.csv"), []byte("duration\n1\n2\n"), 0o644)
	items, st, err := Read([]string{dir}, Options{})
	if err != nil || len(items) != 2 || len(st.Files) != 1 {
		t.Fatalf("folder with a.csv and README.txt: %d items from %v, %v", len(items), st.Files, err)
	}
}

// TestReadCROnly: lines ending in a lone CR read like LF lines.
func TestReadCROnly(t *testing.T) {
	items, _, err := readText(t, "p.csv", "created_at,settled_at\r2026-01-01T00:00:00Z,2026-01-01T00:00:01Z\r2026-01-01T00:00:00Z,2026-01-01T00:00:03Z\r", Options{})
	if err != nil || len(items) != 2 || items[1].Age != 3 {
		t.Fatalf("got %v, %v", items, err)
	}
}

// TestReadRFC3339Corners: RFC 3339 allows a lower-case t and z, and a
// leap second :60, read as the next minute's :00.
func TestReadRFC3339Corners(t *testing.T) {
	text := "created_at,settled_at\n2016-12-31t23:59:59z,2016-12-31T23:59:60Z\n2016-12-31T23:59:59Z,2017-01-01T00:59:60+01:00\n"
	items, _, err := readText(t, "p.csv", text, Options{})
	if err != nil || len(items) != 2 || items[0].Age != 1 || items[1].Age != 1 {
		t.Fatalf("got %v, %v", items, err)
	}
}
