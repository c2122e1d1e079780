package logs

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readPoller(t *testing.T, paths []string, opt PollerOptions) ([]estimate.Interval, PollerStats) {
	t.Helper()
	var got []estimate.Interval
	st, err := EachPoller(paths, opt, func(iv estimate.Interval) { got = append(got, iv) })
	if err != nil {
		t.Fatal(err)
	}
	// Every item of a poller log has a creation time, which the
	// sketch's split hashes; the tests compare the bounds.
	for i := range got {
		if got[i].Created == 0 {
			t.Errorf("interval %+v: no creation time", got[i])
		}
		got[i].Created = 0
	}
	sortIntervals(got)
	return got, st
}

func sortIntervals(iv []estimate.Interval) {
	sort.Slice(iv, func(i, j int) bool { return iv[i].Lo < iv[j].Lo || iv[i].Lo == iv[j].Lo && iv[i].Hi < iv[j].Hi })
}

// The asks of four items, by hand: a pending at +1 s and +3 s, settled
// at +8 s and +23 s: (3, 8]; b failed at the first ask, +1 s: (0, 1];
// c pending at +1 s and +3 s and never final: pending at 3; d pending at
// +2 s, done at +5 s: (2, 5]. Rows shuffled across two files.
var (
	asksA = "id,created_at,asked_at,status\n" +
		"a,2026-03-01T00:00:00Z,2026-03-01T00:00:08Z,settled\n" +
		"c,2026-03-01T00:00:20Z,2026-03-01T00:00:23Z,pending\n" +
		"a,2026-03-01T00:00:00Z,2026-03-01T00:00:01Z,pending\n" +
		"d,2026-03-01T00:01:00Z,2026-03-01T00:01:05Z,done\n"
	asksB = "status,asked_at,id,created_at\n" +
		"PENDING,2026-03-01T00:00:03Z,a,2026-03-01T00:00:00Z\n" +
		"failed,2026-03-01T00:00:11Z,b,2026-03-01T00:00:10Z\n" +
		"settled,2026-03-01T00:00:23Z,a,2026-03-01T00:00:00Z\n" +
		"pending,2026-03-01T00:00:21Z,c,2026-03-01T00:00:20Z\n" +
		"pending,2026-03-01T00:01:02Z,d,2026-03-01T00:01:00Z\n"
	wantAsks = []estimate.Interval{ivl(0, 1, 1), ivl(2, 5, 1), ivl(3, 8, 1), ivl(3, math.Inf(1), 1)}
)

func TestPollerAsks(t *testing.T) {
	dir := writeFiles(t, map[string]string{"1.csv": asksA, "2.csv": asksB})
	for _, maxOpen := range []int{0, 1, 2} {
		got, st := readPoller(t, []string{dir}, PollerOptions{MaxOpen: maxOpen})
		if !reflect.DeepEqual(got, wantAsks) {
			t.Errorf("MaxOpen %d: intervals %v, want %v", maxOpen, got, wantAsks)
		}
		if st.Rows != 9 || st.Items != 4 || st.Final != 3 || st.Pending != 1 || !st.PerAsk || st.Spilled != (maxOpen > 0) {
			t.Errorf("MaxOpen %d: stats %+v", maxOpen, st)
		}
	}
	exact := writeFiles(t, map[string]string{"x.csv": "created_at,settled_at\n2026-03-01T00:00:00Z,2026-03-01T00:00:09Z\n"})
	if !IsPollerLog([]string{dir}, PollerOptions{}) || IsPollerLog([]string{exact}, PollerOptions{}) {
		t.Error("IsPollerLog does not tell the poller log from a settle-time log")
	}
}

// TestPollerItems: the same items as one row per item.
func TestPollerItems(t *testing.T) {
	dir := writeFiles(t, map[string]string{"items.csv": "created_at,last_pending_at,first_final_at,status\n" +
		"2026-03-01T00:00:00Z,2026-03-01T00:00:03Z,2026-03-01T00:00:08Z,settled\n" +
		"2026-03-01T00:00:10Z,,2026-03-01T00:00:11Z,failed\n" +
		"2026-03-01T00:00:20Z,2026-03-01T00:00:23Z,,pending\n" +
		"2026-03-01T00:01:00Z,2026-03-01T00:01:02Z,2026-03-01T00:01:05Z,done\n"})
	got, st := readPoller(t, []string{dir}, PollerOptions{})
	if !reflect.DeepEqual(got, wantAsks) {
		t.Errorf("intervals %v, want %v", got, wantAsks)
	}
	if st.Rows != 4 || st.Items != 4 || st.PerAsk {
		t.Errorf("stats %+v", st)
	}
}

func TestPollerErrors(t *testing.T) {
	const askHead = "id,created_at,asked_at,status\n"
	const itemHead = "created_at,last_pending_at,first_final_at,status\n"
	for _, c := range []struct{ log, want string }{
		{askHead + "a,2026-03-01T00:00:00Z,2026-03-01T00:00:08Z,settled\na,2026-03-01T00:00:00Z,2026-03-01T00:00:09Z,pending\n",
			`item "a": an ask at 2026-03-01T00:00:09Z saw it pending after one at 2026-03-01T00:00:08Z saw it final`},
		{askHead + "a,2026-03-01T00:00:10Z,2026-03-01T00:00:08Z,settled\n", "log.csv:2:3: column asked_at: asked_at before created_at"},
		{askHead + "a,2026-03-01T00:00:00Z,2026-03-01T00:00:08Z,maybe\n", `log.csv:2:4: column status: unknown status "maybe"`},
		{askHead + ",2026-03-01T00:00:00Z,2026-03-01T00:00:08Z,done\n", "log.csv:2:1: column id: empty id"},
		{askHead + "a,2026-03-01T00:00:00Z,2026-03-01T00:00:08Z,done\na,2026-03-01T00:00:01Z,2026-03-01T00:00:09Z,done\n",
			`log.csv:3:2: column created_at: item "a": created_at differs`},
		{askHead + "a,yesterday,2026-03-01T00:00:08Z,done\n", "log.csv:2:2: column created_at: "},
		{askHead + "a,2026-03-01T00:00:00Z\n", "log.csv:2: 2 fields, want 4"},
		{itemHead + "2026-03-01T00:00:00Z,,,pending\n", "log.csv:2:2: column last_pending_at: empty last_pending_at and first_final_at"},
		{itemHead + "2026-03-01T00:00:00Z,2026-03-01T00:00:09Z,2026-03-01T00:00:08Z,done\n", "log.csv:2:3: column first_final_at: first_final_at before last_pending_at"},
		{itemHead + "2026-03-01T00:00:00Z,2026-03-01T00:00:09Z,,done\n", `log.csv:2:4: column status: status "done" with first_final_at ""`},
		{"created_at,settled_at\n2026-03-01T00:00:00Z,2026-03-01T00:00:09Z\n", "not a poller log: need id, created_at, asked_at, status"},
		{"id,asked_at\na,2026-03-01T00:00:09Z\n", "needs the columns id, created_at, asked_at and status"},
		{askHead, "empty input: no data rows"},
	} {
		dir := writeFiles(t, map[string]string{"log.csv": c.log})
		_, err := EachPoller([]string{filepath.Join(dir, "log.csv")}, PollerOptions{}, func(estimate.Interval) {})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.log, err, c.want)
		}
	}
}

// TestPollerSkipBad: bad rows are counted and the rest read.
func TestPollerSkipBad(t *testing.T) {
	dir := writeFiles(t, map[string]string{"log.csv": "id,created_at,asked_at,status\n" +
		"a,2026-03-01T00:00:00Z,2026-03-01T00:00:08Z,maybe\n" +
		"a,2026-03-01T00:00:00Z,2026-03-01T00:00:02Z,pending\n" +
		"a,2026-03-01T00:00:00Z,2026-03-01T00:00:04Z,done\n"})
	opt := PollerOptions{}
	opt.SkipBad = true
	got, st := readPoller(t, []string{dir}, opt)
	if !reflect.DeepEqual(got, []estimate.Interval{ivl(2, 4, 1)}) || st.Skipped[skipStatus] != 1 {
		t.Errorf("intervals %v, skipped %v", got, st.Skipped)
	}
}

func ivl(lo, hi, w float64) estimate.Interval { return estimate.Interval{Lo: lo, Hi: hi, W: w} }

// An ask whose created_at is the item's first row's text is not parsed
// again; one written otherwise is, and agrees when it is the same
// instant (a at 00:00:00 written with an offset, +1 s, 3 s and 8 s:
// (3, 8]) and is a bad row when it is not (b's second row); after a
// spill, where the rows of b meet only when read back, an error.
func TestPollerCreatedText(t *testing.T) {
	log := "id,created_at,asked_at,status\n" +
		"a,2026-03-01T00:00:00Z,2026-03-01T00:00:01Z,pending\n" +
		"b,2026-03-01T00:00:10Z,2026-03-01T00:00:11Z,pending\n" +
		"a,2026-03-01T01:00:00+01:00,2026-03-01T00:00:03Z,pending\n" +
		"b,2026-03-01T00:00:12Z,2026-03-01T00:00:13Z,pending\n" +
		"a,2026-03-01T00:00:00Z,2026-03-01T00:00:08Z,settled\n" +
		"b,2026-03-01T00:00:10Z,2026-03-01T00:00:14Z,settled\n"
	dir := writeFiles(t, map[string]string{"asks.csv": log})
	want := []estimate.Interval{{Lo: 1, Hi: 4, W: 1}, {Lo: 3, Hi: 8, W: 1}}
	opt := PollerOptions{}
	opt.SkipBad = true
	got, st := readPoller(t, []string{filepath.Join(dir, "asks.csv")}, opt)
	if !reflect.DeepEqual(got, want) || st.Skipped[skipOrder] != 1 || st.Rows != 6 {
		t.Errorf("%+v, %+v; want %+v and b's second row skipped", got, st, want)
	}
	opt.MaxOpen = 1
	_, err := EachPoller([]string{filepath.Join(dir, "asks.csv")}, opt, func(estimate.Interval) {})
	if err == nil || !strings.Contains(err.Error(), `item "b": rows give two creation times`) {
		t.Errorf("spilled: %v, want b's two creation times", err)
	}
}
