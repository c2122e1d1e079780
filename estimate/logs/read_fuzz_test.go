package logs

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// readFuzzCheck reads the file at p and checks what any read must hold:
// ages and signals in [0, MaxAge], counts that agree, an error of
// bounded length, and a replay of the items with no negative lag and
// none beyond MaxAge.
func readFuzzCheck(t *testing.T, p string, opt Options) {
	readFuzzCheckWith(t, func(fn func(estimate.Item)) (Stats, error) { return Each([]string{p}, opt, fn) })
}

// readFuzzCheckWith is readFuzzCheck of what each reads.
func readFuzzCheckWith(t *testing.T, each func(fn func(estimate.Item)) (Stats, error)) {
	var n, final int64
	var items []estimate.Item
	st, err := each(func(it estimate.Item) {
		if len(items) < 10_000 {
			items = append(items, it)
		}
		n++
		if it.Status.Final() {
			final++
		}
		if math.IsNaN(it.Age) || math.IsInf(it.Age, 0) || it.Age < 0 || it.Age > maxAgeSeconds {
			t.Fatalf("item %+v: bad age", it)
		}
		if it.HasSignal() && (math.IsInf(it.Signal, 0) || it.Signal < 0 || it.Signal > maxAgeSeconds) {
			t.Fatalf("item %+v: bad signal", it)
		}
	})
	if n != st.Items || (err == nil && (final != st.Final || st.Final == 0)) {
		t.Fatalf("delivered %d (%d final), stats %+v, err %v", n, final, st, err)
	}
	if err != nil && len(err.Error()) > 4096 { // quotes at most 200 bytes of the input
		t.Fatalf("error of %d bytes", len(err.Error()))
	}
	checkReplay(t, items)
}

// checkReplay replays items under a schedule that stops at 1m and one
// that never stops: no lag is negative or longer than MaxAge.
func checkReplay(t *testing.T, items []estimate.Item) {
	if len(items) == 0 {
		return
	}
	for _, dsl := range []string{"1s until 1m", "at 0s 1s, 1h"} {
		s, err := schedule.Parse(dsl)
		if err != nil {
			t.Fatal(err)
		}
		m, err := fit.Replay(s, items, fit.ReplayOptions{})
		if err != nil {
			continue // a horizon or count the replay refuses, with an error
		}
		for _, x := range []float64{m.Lag.Mean, m.Lag.P50, m.Lag.Max} {
			if x < 0 || x > maxAgeSeconds || (m.Detected > 0 && math.IsNaN(x)) {
				t.Fatalf("%s: lag %+v on %d items", dsl, m.Lag, len(items))
			}
		}
	}
}

func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("created_at,settled_at,status\n2026-01-01T00:00:00Z,2026-01-01T00:00:01.5Z,settled\n2026-01-01T00:00:02Z,,pending\n"), uint8(0))
	f.Add([]byte("\xEF\xBB\xBFduration;status\r\n1.5;ok\r\n\"2m\";\"pending\"\r\n"), uint8(1))
	f.Add([]byte("created_at,settled_at,signal\n1700000000,1700000001.25,0.5\n"), uint8(2))
	f.Add([]byte("lo_s,hi_s,final,pending\n0,1,3,1\n1,,0,2\n"), uint8(4))
	f.Add([]byte("a,\"b\nc\",created_at,settled_at\n1,\"x\"\"y\",2026-01-01 00:00:00,2026-01-01 00:00:09\n"), uint8(8))
	p := filepath.Join(f.TempDir(), "f.csv") // rewritten by each run
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		opt := Options{SkipBad: mode&8 != 0}
		if mode&1 != 0 {
			opt.Delimiter = ';'
		}
		if mode&2 != 0 {
			opt.TimeUnit = "ms"
		}
		if mode&16 != 0 {
			opt.ObservedAt = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
		}
		if mode&4 != 0 {
			opt.Histogram = true
			EachWeighted([]string{p}, opt, func(it estimate.Item, w float64) {
				if math.IsNaN(it.Age) || it.Age < 0 || it.Age > maxAgeSeconds || !(w > 0) || w > MaxCount || w != math.Trunc(w) {
					t.Fatalf("histogram item %+v weight %v", it, w)
				}
			})
			return
		}
		readWatchdog(t, func() { readFuzzCheck(t, p, opt) })
	})
}

// TestReadCorruptParquet: damaged Parquet files fail with a clear error.
func TestReadCorruptParquet(t *testing.T) {
	var b bytes.Buffer
	if err := WriteParquet(&b, readLogRows(200, 4)); err != nil {
		t.Fatal(err)
	}
	valid := b.Bytes()
	dir := t.TempDir()
	flipped := bytes.Clone(valid)
	for i := 100; i < 400; i += 3 {
		flipped[i] ^= 0x5a
	}
	for name, data := range map[string][]byte{
		"truncated": valid[:len(valid)*2/3],
		"no footer": valid[:len(valid)-8],
		"magic":     []byte("PAR1garbagePAR1"),
		"flipped":   flipped,
	} {
		p := filepath.Join(dir, name+".parquet")
		os.WriteFile(p, data, 0o644)
		_, _, err := Read([]string{p}, Options{})
		if err == nil {
			t.Errorf("%s: read without error", name)
			continue
		}
		t.Logf("%s: %v", name, err)
		if !bytes.Contains([]byte(err.Error()), []byte(p)) {
			t.Errorf("%s: error %q does not name the file", name, err)
		}
	}
}

// readWatchdog runs f and fails, with every goroutine's stack, if it
// takes over 10 s: a hang is a bug as much as a panic.
func readWatchdog(t *testing.T, f func()) {
	done := make(chan struct{})
	timer := time.AfterFunc(10*time.Second, func() {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		panic("read hangs:\n" + string(buf[:n]))
	})
	defer timer.Stop()
	f()
	close(done)
}
