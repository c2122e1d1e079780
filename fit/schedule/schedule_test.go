package schedule

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

const s = time.Second

// The four versions of the seed post, with their asks by 30 s, 2 min and
// 15 min worked out by hand:
//
// Before: asks 0 3 8 16 29 (5 by 30 s), then every 15 s from 29 s while
// ≤ 120 s: 44 59 74 89 104 119 (11 by 2 min), then every 30 s from 119 s:
// 149 + 30k ≤ 900 for k = 0..26, 27 more by 15 min... 149+30·25 = 899, so
// k = 0..25, 26 asks: 37 by 15 min.
//
// 76cd188: 0 2 5 8 12, then 17 22 27 (8 by 30 s), ... 117 = 12 + 5·21
// (26 by 2 min), then 117 + 15k ≤ 900 for k = 1..52 (78 by 15 min).
//
// a74b69e: 0 1, then 3 5 ... 29 (16 by 30 s), ... 119 = 1 + 2·59 (61 by
// 2 min), then 119 + 5k ≤ 900 for k = 1..156 (217 by 15 min).
//
// Now: 0..30 every second (31), 32..120 every 2 s (45 more: 76), 125..300
// every 5 s (36 more: 112 by 5 min), 315..900 every 15 s (40 more: 152),
// and it stops at 15 min.
var seeds = []struct {
	name, dsl        string
	by30, by2m, by15 int64
	stops            bool
}{
	{"Before", "at 0s 3s 8s 16s 29s, 15s until 2m, 30s", 5, 11, 37, false},
	{"76cd188", "at 0s 2s 5s 8s 12s, 5s until 2m, 15s", 8, 26, 78, false},
	{"a74b69e", "at 0s 1s, 2s until 2m, 5s", 16, 61, 217, false},
	{"Now", "1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m", 31, 76, 152, true},
}

func TestSeedSchedules(t *testing.T) {
	for _, c := range seeds {
		sc, err := Parse(c.dsl)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := Format(sc); got != c.dsl {
			t.Errorf("%s: Format = %q, want the input back", c.name, got)
		}
		tl := sc.Timeline()
		for _, k := range []struct {
			at   time.Duration
			want int64
		}{{30 * s, c.by30}, {2 * time.Minute, c.by2m}, {15 * time.Minute, c.by15}} {
			if got := tl.Count(k.at); got != k.want {
				t.Errorf("%s: asks by %v = %d, want %d", c.name, k.at, got, k.want)
			}
		}
		if sc.Stops() != c.stops {
			t.Errorf("%s: Stops = %v, want %v", c.name, sc.Stops(), c.stops)
		}
	}
}

// The off-by-one of the seed post: "Before" was meant to start at 2 s
// apart. The schedule language says the first gaps out loud.
func TestBeforeGaps(t *testing.T) {
	sc, _ := Parse(seeds[0].dsl)
	asks, err := sc.Timeline().Asks(2 * time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{0, 3 * s, 8 * s, 16 * s, 29 * s, 44 * s, 59 * s, 74 * s, 89 * s, 104 * s, 119 * s}
	if len(asks) != len(want) {
		t.Fatalf("asks = %v, want %v", asks, want)
	}
	for i := range want {
		if asks[i] != want[i] {
			t.Fatalf("asks = %v, want %v", asks, want)
		}
	}
	if end, ok := sc.End(); ok {
		t.Errorf("End = %v, want a schedule that never stops", end)
	}
	now, _ := Parse(seeds[3].dsl)
	if end, ok := now.End(); !ok || end != 15*time.Minute {
		t.Errorf("Now: End = %v, %v; want 15m, true", end, ok)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "1:1: empty schedule"},
		{"5", "1:1: duration \"5\" has no unit"},
		{"at 0s 3s 3s", "1:10: ask at 3s is not after the previous ask at 3s\n\tat 0s 3s 3s\n\t         ^"},
		{"5s until 2m, 1s until 1m", "1:14: 1s until 1m never asks"},
		{"5s, 1s until 1m", "1:1: an interval without until must be the last clause"},
		{"1s until 30s,\n  2x until 2m", "2:3: invalid duration \"2x\"\n\t  2x until 2m\n\t  ^"},
		{"1s until", "1:9: expected a duration"},
		{"1s until 30s,", "1:14: expected a clause after ,"},
		{"1s until 30s 2s", "1:14: unexpected \"2s\""},
		{"every 5m +2s", "1:10: expected at after every PERIOD"},
		{"every 5m at +5m", "1:1: offset +5m is not within the period 5m"},
		{"1s, reset on sig", "1:14: expected \"signal\""},
		{"0s", "1:1: interval must be positive, not 0s"},
		{"-1s until 5s", "1:1: negative duration"},
	} {
		_, err := Parse(c.in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want error %q", c.in, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Parse(%q) error:\n%s\nwant prefix:\n%s", c.in, err, c.want)
		}
	}
}

func TestDurations(t *testing.T) {
	for _, c := range []struct {
		in   string
		d    time.Duration
		back string
	}{
		{"0", 0, "0s"}, {"0s", 0, "0s"}, {"500ms", 500 * time.Millisecond, "500ms"},
		{"1.5s", 1500 * time.Millisecond, "1.5s"}, {"90s", 90 * s, "1m30s"},
		{"2m", 2 * time.Minute, "2m"}, {"1h30m", 90 * time.Minute, "1h30m"},
		{"3.5d", 84 * time.Hour, "3d12h"}, {"1d12h", 36 * time.Hour, "1d12h"},
		{"250us", 250 * time.Microsecond, "250us"}, {"3605s", 3605 * s, "1h5s"},
		{"61.25s", 61250 * time.Millisecond, "1m1.25s"},
	} {
		d, err := ParseDuration(c.in)
		if err != nil || d != c.d {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", c.in, d, err, c.d)
		}
		if got := FormatDuration(c.d); got != c.back {
			t.Errorf("FormatDuration(%v) = %q, want %q", c.d, got, c.back)
		}
	}
	for _, bad := range []string{"5", "1.5", "-2s", "2x", "d", "1e3d", ""} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) succeeded, want an error", bad)
		}
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"at 0s, 1s until 30s":                           "1s until 30s",
		"at 0 1s, at 2s, 5s":                            "at 0s 1s 2s, 5s",
		"reset on signal, every 5m at +2s, 1s until 1m": "1s until 1m, every 5m at +2s, reset on signal",
		"1S UNTIL 30S":                                  "",
		"  1s   until 30s # fast first\n, 2s until 2m":  "1s until 30s, 2s until 2m",
		"EVERY 1h AT +0s UNTIL 1d":                      "every 1h at +0s until 1d",
		"200ms until 3s, 200ms until 5s":                "200ms until 5s",
		"at 0s, 2s until 21s, 2s until 1m, 2s":          "2s",
		"1s until 10s, at 11s, 1s until 20s":            "1s until 10s, at 11s, 1s until 20s",
	} {
		sc, err := Parse(in)
		if want == "" {
			if err == nil {
				t.Errorf("Parse(%q) succeeded; units are case-sensitive as in Go", in)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got := Format(sc); got != want {
			t.Errorf("Format(Parse(%q)) = %q, want %q", in, got, want)
		}
	}
}

// randomSchedule draws a valid schedule.
func randomSchedule(r *rand.Rand) *Schedule {
	sc := &Schedule{ResetOnSignal: r.IntN(3) == 0}
	prev := time.Duration(-1)
	n := r.IntN(4)
	if n == 0 && r.IntN(2) == 0 {
		n = 1
	}
	unit := []time.Duration{time.Millisecond, 100 * time.Millisecond, s, time.Minute}[r.IntN(4)]
	for i := 0; i < n; i++ {
		if r.IntN(3) == 0 && (i == 0 || !sc.Clauses[i-1].IsAt()) {
			c := Clause{}
			for k := 1 + r.IntN(4); k > 0; k-- {
				prev += time.Duration(1+r.IntN(20)) * unit
				c.At = append(c.At, prev)
			}
			if i == 0 && r.IntN(2) == 0 {
				c.At[0] = 0
			}
			prev = c.At[len(c.At)-1]
			sc.Clauses = append(sc.Clauses, c)
			continue
		}
		prev = max(prev, 0)
		c := Clause{Every: time.Duration(1+r.IntN(30)) * unit}
		if i > 0 && !sc.Clauses[i-1].IsAt() && r.IntN(3) == 0 {
			c.Every = sc.Clauses[i-1].Every // adjacent equal intervals, which Canonical merges
		}
		if i == n-1 && r.IntN(2) == 0 {
			c.Forever = true
		} else {
			c.Until = prev + c.Every*time.Duration(1+r.IntN(50)) + time.Duration(r.IntN(int(c.Every)))
			prev = c.last(prev)
		}
		sc.Clauses = append(sc.Clauses, c)
	}
	for k := r.IntN(3); k > 0 || (len(sc.Clauses) == 0 && len(sc.Aligned) == 0); k-- {
		p := time.Duration(1+r.IntN(10)) * time.Minute
		a := Aligned{Period: p}
		for o := time.Duration(r.IntN(5)) * s; o < p && len(a.Offsets) < 3; o += time.Duration(1+r.IntN(40)) * s {
			a.Offsets = append(a.Offsets, o)
		}
		if r.IntN(2) == 0 {
			a.Until = time.Duration(1+r.IntN(120)) * time.Minute
		}
		sc.Aligned = append(sc.Aligned, a)
	}
	return sc
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		x := randomSchedule(r)
		if err := x.Validate(); err != nil {
			t.Fatalf("random schedule %d invalid: %v\n%#v", i, err, x)
		}
		text := Format(x)
		y, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(Format(x)) for %q: %v", text, err)
		}
		if c := Canonical(x); !y.Equal(c) || Format(c) != text {
			t.Fatalf("Parse(Format(x)) != x for %q: got %q", text, Format(y))
		}
		if again := Format(y); again != text {
			t.Fatalf("Format not stable: %q then %q", text, again)
		}
	}
}

// TestCanonicalAsksAlike: the canonical form asks at the same ages as
// the schedule it came from (the explicit list of asks, enumerated
// clause by clause), so merging clauses never moves an ask.
func TestCanonicalAsksAlike(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	merged := 0
	for i := 0; i < 2000; i++ {
		sc := randomSchedule(r)
		c := Canonical(sc)
		if len(c.Clauses) < len(sc.Clauses) {
			merged++
		}
		limit := 3 * time.Hour
		if sc.Timeline().Count(limit) > 100_000 {
			continue
		}
		if a, b := expand(sc.Clauses, limit), expand(c.Clauses, limit); !slices.Equal(a, b) {
			t.Fatalf("%#v asks at %v, its canonical form %q at %v", sc.Clauses, a, Format(c), b)
		}
	}
	if merged < 100 {
		t.Errorf("only %d of 2000 random schedules had clauses to merge: the test does not exercise merging", merged)
	}
}

// TestTimelineBruteForce checks Count and Next against the explicit list
// of asks, enumerated clause by clause independently of Timeline.
func TestTimelineBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 500; i++ {
		sc := randomSchedule(r)
		if len(sc.Clauses) == 0 {
			continue
		}
		limit := 3 * time.Hour
		tl := sc.Timeline()
		if tl.Count(limit) > 100_000 {
			continue // keep the brute force quick
		}
		asks := expand(sc.Clauses, limit)
		for k := 0; k < 200; k++ {
			x := time.Duration(r.Int64N(int64(limit / 2)))
			if k < len(asks) && k%2 == 0 {
				x = asks[k] // exact ties
			}
			var count int64
			next, hasNext := time.Duration(0), false
			for _, a := range asks {
				if a <= x {
					count++
				} else if !hasNext || a < next {
					break
				}
			}
			for _, a := range asks {
				if a >= x {
					next, hasNext = a, true
					break
				}
			}
			if got := tl.Count(x); got != count {
				t.Fatalf("%s: Count(%v) = %d, want %d", Format(sc), x, got, count)
			}
			if got, ok := tl.Next(x); ok != hasNext || (ok && got != next) {
				t.Fatalf("%s: Next(%v) = %v, %v; want %v, %v", Format(sc), x, got, ok, next, hasNext)
			}
		}
	}
}

// expand lists the age-based asks ≤ limit straight from the definition.
func expand(cs []Clause, limit time.Duration) []time.Duration {
	var asks []time.Duration
	prev := time.Duration(0)
	for i, c := range cs {
		if c.IsAt() {
			asks = append(asks, c.At...)
			prev = c.At[len(c.At)-1]
			continue
		}
		if i == 0 {
			asks = append(asks, 0)
		}
		for a := prev + c.Every; c.Forever && a <= limit || !c.Forever && a <= c.Until; a += c.Every {
			asks = append(asks, a)
			prev = a
		}
	}
	var out []time.Duration
	for _, a := range asks {
		if a <= limit {
			out = append(out, a)
		}
	}
	return out
}

func TestAligned(t *testing.T) {
	sc, err := Parse("every 5m at +2s +5s until 12m")
	if err != nil {
		t.Fatal(err)
	}
	// Created at 12:03:00 UTC: boundaries at 12:05, 12:10, 12:15; asks at
	// ages 2m2s, 2m5s, 7m2s, 7m5s (12:15:02 is age 12m2s > 12m).
	created := time.Date(2026, 1, 1, 12, 3, 0, 0, time.UTC).UnixNano()
	asks, err := sc.ItemAsks(created, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{122 * s, 125 * s, 422 * s, 425 * s}
	if len(asks) != len(want) {
		t.Fatalf("asks = %v, want %v", asks, want)
	}
	for i := range want {
		if asks[i] != want[i] {
			t.Fatalf("asks = %v, want %v", asks, want)
		}
	}
	a := sc.Aligned[0]
	if n := a.Count(created, 7*time.Minute+3*s); n != 3 {
		t.Errorf("Count by 7m3s = %d, want 3", n)
	}
	// An item created exactly at a boundary plus an offset is asked at age 0.
	at := time.Date(2026, 1, 1, 12, 5, 2, 0, time.UTC).UnixNano()
	if n, ok := a.Next(at, 0); !ok || n != 0 {
		t.Errorf("Next(0) for an item created on an ask = %v, %v; want 0, true", n, ok)
	}
	// Before the Unix epoch the boundaries still fall on the clock.
	old := time.Date(1969, 12, 31, 23, 58, 0, 0, time.UTC).UnixNano()
	if n, ok := a.Next(old, 0); !ok || n != 2*time.Minute+2*s {
		t.Errorf("Next before the epoch = %v, %v; want 2m2s", n, ok)
	}
}

func TestMaxAsks(t *testing.T) {
	sc, err := Parse("1ms")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Timeline().Asks(24 * time.Hour); err == nil || !strings.Contains(err.Error(), "more than the 10000000") {
		t.Errorf("Asks over a day at 1ms = %v, want a refusal", err)
	}
	if n := sc.Timeline().Count(24 * time.Hour); n != 86_400_001 {
		t.Errorf("Count = %d, want 86400001 (counting needs no expansion)", n)
	}
}

// maxErrLen bounds the length of any error Parse returns.
const maxErrLen = 4096

func FuzzParse(f *testing.F) {
	for _, c := range seeds {
		f.Add(c.dsl)
	}
	f.Add("every 5m at +2s +5s until 1h, reset on signal")
	f.Add("at 0 1s # comment\n, 2s until 1d")
	f.Fuzz(func(t *testing.T, in string) {
		sc, err := Parse(in)
		if err != nil {
			// An error quotes at most 200 bytes of the input (at most 4
			// characters each when escaped) and echoes a window of the
			// line: its length is bounded whatever the input's.
			if n := len(err.Error()); n > maxErrLen {
				t.Fatalf("error of %d bytes on a %d-byte input", n, len(in))
			}
			return
		}
		checkTimeline(t, in, sc.Timeline())
		text := Format(sc)
		back, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(Format(Parse(%q))) = %v", in, err)
		}
		if Format(back) != text {
			t.Fatalf("Format not stable for %q", in)
		}
	})
}

func TestParseRobustness(t *testing.T) {
	if _, err := Parse(strings.Repeat(" ", MaxText+1)); err == nil || !strings.Contains(err.Error(), "is longer than the 262144 pollfit reads") {
		t.Errorf("Parse of a huge text: %v", err)
	}
	long := "every 1m at +1s" + strings.Repeat(" +2s", 50_000) + " +x"
	cases := []struct{ src, want string }{
		{"every 1ns at +0s", "1:7: period 1ns is shorter than the minimum 1ms"},
		{"every 999us at +0s", "1:7: period 999us is shorter than the minimum 1ms"},
		{"at 1s, 10us", "1:8: interval 10us is shorter than the minimum 1ms"},
		{"1s until 36501d", `1:10: duration "36501d" is longer than the maximum 36500d (100 years)`},
		{"106751d2562047h", `1:1: duration "106751d2562047h" is longer than the maximum`},
		{"1s until 900000h", `1:10: duration "900000h" is longer than the maximum`},
		{"every 1m at" + offsets(20) + ", every 1h at" + offsets(20) + ", every 1d at" + offsets(200), "1:" + strconv.Itoa(len("every 1m at"+offsets(20)+", every 1h at"+offsets(20)+", ")+1) + ": aligned clauses combine more than 65536 offset choices"},
	}
	for _, c := range cases {
		_, err := Parse(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%.40q) = %v, want %q", c.src, err, c.want)
		}
	}
	_, err := Parse(long)
	if err == nil || len(err.Error()) > 600 || !strings.Contains(err.Error(), "...") {
		t.Fatalf("error on a %d-byte line: %d bytes, want a short window: %.300s", len(long), len(err.Error()), err)
	}
	// A long unexpected token is quoted clipped to 200 bytes (found by
	// FuzzParse: testdata/fuzz/FuzzParse/59ffd16a6786c97a).
	for _, src := range []string{"1s " + strings.Repeat("\x82", 5000), "1s until 5m " + strings.Repeat("y", 5000)} {
		if _, e := Parse(src); e == nil || len(e.Error()) > maxErrLen {
			t.Errorf("error on a long token: %d bytes, want at most %d", len(e.Error()), maxErrLen)
		}
	}
	lines := strings.Split(err.Error(), "\n")
	if caret := strings.Index(lines[2], "^"); lines[1][caret] != 'x' {
		t.Errorf("caret under %q, want under the x:\n%s", lines[1][caret:], err)
	}
}

// offsets is " +1ms +2ms ... +nms".
func offsets(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, " +%dms", i+1)
	}
	return b.String()
}

// TestAlignedOverflowSafe: Count and Next work in ages, agreeing with
// the absolute-time formulas where those do not overflow, and staying
// right for creation times and ages where they would.
func TestAlignedOverflowSafe(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 20000 {
		p := time.Duration(1 + rng.Int64N(int64(time.Hour)))
		a := Aligned{Period: p, Offsets: []time.Duration{time.Duration(rng.Int64N(int64(p)))}}
		created := rng.Int64N(4e18) - 2e18
		age := time.Duration(rng.Int64N(int64(24 * time.Hour)))
		o := int64(a.Offsets[0])
		k := -floorDiv(-(created + int64(age) - o), int64(p))
		want := time.Duration(k*int64(p) + o - created)
		if got, ok := a.Next(created, age); !ok || got != want {
			t.Fatalf("%+v created %d: Next(%v) = %v, want %v", a, created, age, got, want)
		}
		lo := created - o
		wantN := floorDiv(lo+int64(age), int64(p)) - (-floorDiv(-lo, int64(p))) + 1
		if n := a.Count(created, age); n != wantN {
			t.Fatalf("%+v created %d: Count(%v) = %d, want %d", a, created, age, n, wantN)
		}
	}
	a := Aligned{Period: time.Millisecond, Offsets: []time.Duration{0}}
	if n := a.Count(math.MaxInt64-5, MaxAge); n != int64(MaxAge/time.Millisecond)+1 && n != int64(MaxAge/time.Millisecond) {
		t.Errorf("Count near the end of int64 = %d", n)
	}
	if _, ok := a.Next(0, math.MaxInt64); ok {
		t.Error("Next beyond int64 reported an ask")
	}
}

// TestAlignedAppendAsks: the asks AppendAsks lists are those Next walks
// to one by one (sorted, the same set), Count of them, within Until,
// and none past the largest Duration.
func TestAlignedAppendAsks(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 3))
	for range 5000 {
		p := time.Duration(1 + rng.Int64N(int64(10*time.Minute)))
		a := Aligned{Period: p}
		for range 1 + rng.IntN(3) {
			a.Offsets = append(a.Offsets, time.Duration(rng.Int64N(int64(p))))
		}
		slices.Sort(a.Offsets)
		a.Offsets = slices.Compact(a.Offsets)
		if rng.IntN(2) == 0 {
			a.Until = time.Duration(rng.Int64N(int64(time.Hour)))
		}
		it := a.ForItem(rng.Int64N(4e18), nil)
		age := time.Duration(rng.Int64N(int64(time.Hour)))
		got := it.AppendAsks([]time.Duration{-1}, age)[1:]
		slices.Sort(got)
		var want []time.Duration
		for at, ok := it.Next(0); ok && at <= age; at, ok = it.Next(at + 1) {
			want = append(want, at)
		}
		if !slices.Equal(got, want) || int64(len(got)) != it.Count(age) {
			t.Fatalf("%+v: AppendAsks(%v) = %v, Next walks %v, Count %d", a, age, got, want, it.Count(age))
		}
	}
	it := Aligned{Period: 1000 * time.Hour, Offsets: []time.Duration{0}}.ForItem(0, nil)
	if got := it.AppendAsks(nil, math.MaxInt64); len(got) != int(math.MaxInt64/int64(1000*time.Hour))+1 || got[len(got)-1] < 0 {
		t.Errorf("AppendAsks to the largest Duration: %d asks, last %v", len(got), got[len(got)-1])
	}
}

// checkTimeline checks the fuzz invariants of a parsed schedule's asks:
// none negative, none beyond MaxAge, each after the one before, and
// Count agreeing with the asks listed up to a short horizon.
func checkTimeline(t *testing.T, in string, tl *Timeline) {
	t.Helper()
	if last, ok := tl.Last(); ok && (last < 0 || last > MaxAge) {
		t.Fatalf("%q: last ask %v outside [0, MaxAge]", in, last)
	}
	asks, err := tl.Asks(time.Minute)
	if err != nil {
		return // a 1ms interval over a minute is fine; a refusal names MaxAsks
	}
	for i, a := range asks {
		if a < 0 || a > MaxAge || (i > 0 && a <= asks[i-1]) {
			t.Fatalf("%q: ask %d at %v after %v", in, i, a, asks[max(i-1, 0)])
		}
	}
	if n := tl.Count(time.Minute); n != int64(len(asks)) {
		t.Fatalf("%q: Count(1m) = %d, Asks lists %d", in, n, len(asks))
	}
}
