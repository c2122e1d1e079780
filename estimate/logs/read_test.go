package logs

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// readWrite writes text to a file named name in a temporary folder and
// returns its path.
func readWrite(t testing.TB, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readText reads a CSV text given as a file called name.
func readText(t testing.TB, name, text string, opt Options) ([]estimate.Item, Stats, error) {
	t.Helper()
	return Read([]string{readWrite(t, name, text)}, opt)
}

func readClose(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestReadBadInputs: every bad input fails naming file, line and column.
func TestReadBadInputs(t *testing.T) {
	const h = "created_at,settled_at,status\n"
	const ok = "2026-01-01T00:00:00Z,2026-01-01T00:00:01Z,settled\n"
	for _, tc := range []struct {
		name, text string
		opt        Options
		want       string // the error text after the temporary folder
	}{
		{"order", h + ok + "2026-01-01T00:00:05Z,2026-01-01T00:00:01Z,settled\n", Options{},
			"p.csv:3:2: column settled_at: settled_at before created_at"},
		{"bad created", h + ok + "yesterday,2026-01-01T00:00:01Z,settled\n", Options{},
			`p.csv:3:1: column created_at: bad timestamp "yesterday"`},
		{"bad month", h + "2026-13-01T00:00:00Z,2026-01-01T00:00:01Z,settled\n", Options{},
			`p.csv:2:1: column created_at: bad timestamp "2026-13-01T00:00:00Z"`},
		{"unknown status", h + ok + "2026-01-01T00:00:00Z,2026-01-01T00:00:01Z,weird\n", Options{},
			`p.csv:3:3: column status: unknown status "weird"`},
		{"final without settle", h + "2026-01-01T00:00:00Z,,settled\n", Options{},
			"p.csv:2:2: column settled_at: empty settled_at for a final status (settled)"},
		{"field count", h + ok + "2026-01-01T00:00:00Z,2026-01-01T00:00:01Z\n", Options{},
			"p.csv:3: 2 fields, the header has 3"},
		{"quote", h + ok + "2026-01-01T00:00:00Z,\"2026-01-01T00:00:01Z\"x,settled\n", Options{},
			"p.csv:3:2: column settled_at: text after the closing quote"},
		{"negative duration", "duration\n1.5\n-2\n", Options{}, "p.csv:3:1: column duration: negative duration -2"},
		{"nan duration", "duration\n1.5\nNaN\n", Options{}, "p.csv:3:1: column duration: duration NaN is not finite"},
		{"inf duration", "duration\n+Inf\n", Options{}, "p.csv:2:1: column duration: duration +Inf is not finite"},
		{"bad duration", "id,duration\n1,1.5\n2,soon\n", Options{}, `p.csv:3:2: column duration: bad duration "soon"`},
		{"missing columns", "id,when\n1,2\n", Options{},
			"p.csv: missing columns: need created_at and settled_at, or duration (header has: id, when)"},
		{"named column absent", h + ok, Options{StatusCol: "state"},
			`p.csv: no column "state" (header has: created_at, settled_at, status)`},
		{"empty", "", Options{}, "p.csv: empty file (no header)"},
		{"header only", h, Options{}, "empty input: no data rows in"},
		{"all pending", h + "2026-01-01T00:00:00Z,,pending\n2026-01-01T00:00:03Z,,\n", Options{},
			"nothing to fit: all 2 items are pending"},
		{"observed before created", h + ok + "2026-01-01T00:00:05Z,,pending\n",
			Options{ObservedAt: time.Date(2026, 1, 1, 0, 0, 2, 0, time.UTC)},
			"p.csv:3:1: column created_at: created_at after the observed-at time"},
		{"signal before created", "created_at,settled_at,signal_at\n2026-01-01T00:00:05Z,2026-01-01T00:00:06Z,2026-01-01T00:00:01Z\n",
			Options{}, "p.csv:2:3: column signal_at: signal_at before created_at"},
		{"epoch range", "created_at,settled_at\n1700000000000,1700000000001\n", Options{},
			"p.csv:2:1: column created_at: epoch 1700000000000 out of range for time unit s (is the time unit smaller?)"},
		{"histogram without flag", "lo_s,hi_s,final,pending\n0,1,3,0\n", Options{}, "looks like a histogram"},
		{"histogram via Each", "lo_s,hi_s,final,pending\n0,1,3,0\n", Options{Histogram: true}, "read it with EachWeighted"},
		{"time layout", h + "01/02/2026 10:00,01/02/2026 10:01,settled\n", Options{TimeFormat: "2006-01-02"},
			`p.csv:2:1: column created_at: bad timestamp "01/02/2026 10:00" for layout "2006-01-02"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readText(t, "p.csv", tc.text, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v\nwant one containing %q", err, tc.want)
			}
			var re *RowError
			if regexp.MustCompile(`p\.csv:\d`).MatchString(tc.want) && !errors.As(err, &re) {
				t.Errorf("%v is not a *RowError", err)
			}
		})
	}
}

// TestReadSkipBad: the bad rows of the table above, skipped and counted.
func TestReadSkipBad(t *testing.T) {
	text := "created_at,settled_at,status\n" +
		"2026-01-01T00:00:00Z,2026-01-01T00:00:01Z,settled\n" +
		"2026-01-01T00:00:05Z,2026-01-01T00:00:01Z,settled\n" + // order
		"yesterday,2026-01-01T00:00:01Z,settled\n" + // timestamp
		"2026-01-01T00:00:00Z,2026-01-01T00:00:03Z,weird\n" + // status
		"2026-01-01T00:00:00Z,2026-01-01T00:00:04Z\n" + // fields
		"2026-01-01T00:00:00Z,2026-01-01T00:00:02Z,failed\n"
	items, st, err := readText(t, "p.csv", text, Options{SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{skipOrder: 1, skipTime: 1, skipStatus: 1, skipFields: 1}
	if len(st.Skipped) != len(want) {
		t.Errorf("skipped %v, want %v", st.Skipped, want)
	}
	for k, n := range want {
		if st.Skipped[k] != n {
			t.Errorf("skipped[%q] = %d, want %d", k, st.Skipped[k], n)
		}
	}
	if len(items) != 2 || items[0].Age != 1 || items[1].Age != 2 || items[1].Status != estimate.Failed {
		t.Errorf("items %v, want ages 1 (settled), 2 (failed)", items)
	}
	if st.Rows != 6 || len(st.Warnings) != 1 || !strings.HasPrefix(st.Warnings[0], "skipped 4 bad rows") {
		t.Errorf("rows %d, warnings %q", st.Rows, st.Warnings)
	}
}

// TestReadSenators reads the lifelines data set with a boolean event
// column, checked against counts made with awk (834 True, 99 False) and
// against ages worked out here with encoding/csv and time.Parse.
func TestReadSenators(t *testing.T) {
	const path = "testdata/read/canadian_senators.csv"
	opt := Options{CreatedCol: "start_date", SettledCol: "end_date", StatusCol: "observed",
		FinalStatus: []string{"True"}, PendingStatus: []string{"False"}}
	items, st, err := Read([]string{path}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 933 || st.Items != 933 || st.Final != 834 || st.Pending != 99 || !st.HasCreated {
		t.Fatalf("stats %+v, want 933 rows, 834 final, 99 pending", st)
	}
	recs := readRecords(t, path)
	const layout = "2006-01-02 15:04:05.999999"
	for i, rec := range recs[1:] {
		c, err1 := time.Parse(layout, rec[5])
		s, err2 := time.Parse(layout, rec[6])
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		want := s.Sub(c).Seconds()
		if !readClose(items[i].Age, want) || items[i].Status.Final() != (rec[9] == "True") || !items[i].HasCreated() || items[i].Created != c.UnixNano() {
			t.Fatalf("row %d: got %+v, want age %v final %v", i+2, items[i], want, rec[9] == "True")
		}
	}
	// Censored rows are censored at collection time.
	if want := time.Date(2013, 10, 1, 22, 20, 10, 165196000, time.UTC); !st.ObservedAt.Equal(want) {
		t.Errorf("observed at %v, want %v", st.ObservedAt, want)
	}
}

// TestReadDialects: one log written in several CSV dialects reads the same.
func TestReadDialects(t *testing.T) {
	plain := "created_at,settled_at,status\n" +
		"2026-01-01T00:00:00Z,2026-01-01T00:00:01.5Z,settled\n" +
		"2026-01-01T00:00:10Z,2026-01-01T00:01:10Z,failed\n" +
		"2026-01-01T00:00:20Z,,pending\n"
	want := []estimate.Item{{Age: 1.5, Status: estimate.Settled}, {Age: 60, Status: estimate.Failed}, {Age: 50, Status: estimate.Pending}}
	for name, text := range map[string]string{
		"plain":     plain,
		"bom crlf":  "\xEF\xBB\xBF" + strings.ReplaceAll(plain, "\n", "\r\n"),
		"quoted":    "\"created_at\",\"settled_at\",\"status\"\n\"2026-01-01T00:00:00Z\",\"2026-01-01T00:00:01.5Z\",settled\n\"2026-01-01T00:00:10Z\",\"2026-01-01T00:01:10Z\",\"failed\"\n2026-01-01T00:00:20Z,\"\",pending",
		"semicolon": strings.ReplaceAll(plain, ",", ";"),
		"spaces":    "Created_At , settled_at, STATUS\n2026-01-01 00:00:00, 2026-01-01 00:00:01.5 ,Settled\n2026-01-01T00:00:10+00:00,2026-01-01T01:01:10+01:00,FAILED\n2026-01-01T00:00:20.000Z,,Pending\n",
		"tsv":       strings.ReplaceAll(plain, ",", "\t"),
		"blank":     strings.ReplaceAll(plain, "\n", "\n\n"),
	} {
		opt := Options{}
		file := "p.csv"
		switch name {
		case "semicolon":
			opt.Delimiter = ';'
		case "tsv":
			file = "p.tsv"
		}
		items, st, err := readText(t, file, text, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(items) != len(want) || st.Final != 2 || st.Pending != 1 {
			t.Fatalf("%s: got %v", name, items)
		}
		for i := range want {
			if items[i].Age != want[i].Age || items[i].Status != want[i].Status {
				t.Errorf("%s: item %d = %+v, want %+v", name, i, items[i], want[i])
			}
		}
	}
}

// TestReadTimestamps: timestamp forms against time.Date.
func TestReadTimestamps(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no zone database")
	}
	base := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		created string
		opt     Options
		want    time.Time
	}{
		{"2026-07-01T12:00:00Z", Options{}, base},
		{"2026-07-01T14:00:00+02:00", Options{}, base},
		{"2026-07-01T14:00:00+0200", Options{}, base},
		{"2026-07-01 12:00:00.123456789", Options{}, base.Add(123456789)},
		{"2026-07-01T12:00:00.5", Options{}, base.Add(500 * time.Millisecond)},
		{"2026-07-01 14:00:00", Options{Location: paris}, base}, // CEST is UTC+2
		{"2026-07-01", Options{}, base.Add(-12 * time.Hour)},
		{`"Wed, 01 Jul 2026 12:00:00 GMT"`, Options{}, base},
		{"1782907200", Options{}, base},
		{"1782907200.25", Options{}, base.Add(250 * time.Millisecond)},
		{"1782907200000", Options{TimeUnit: "ms"}, base},
		{"1782907200000000", Options{TimeUnit: "us"}, base},
		{"1782907200000000000", Options{TimeUnit: "ns"}, base},
		{"01/07/2026 12h00", Options{TimeFormat: "02/01/2006 15h04"}, base},
		{"1867-07-01T12:00:00Z", Options{}, time.Date(1867, 7, 1, 12, 0, 0, 0, time.UTC)},
		{"2024-02-29T12:00:00Z", Options{}, time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC)},
	} {
		// The settle time is a day later in the same form where it can be.
		text := "created_at,duration\n" + tc.created + ",1\n"
		items, _, err := readText(t, "p.csv", text, tc.opt)
		if err != nil {
			t.Errorf("%s: %v", tc.created, err)
			continue
		}
		if got := time.Unix(0, items[0].Created).UTC(); !got.Equal(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.created, got, tc.want)
		}
	}
	if _, _, err := readText(t, "p.csv", "created_at,duration\n2023-02-29T00:00:00Z,1\n", Options{}); err == nil {
		t.Error("2023-02-29 read without error")
	}
}

// The fast timestamp parser reads a fraction of one to nine digits as
// time.Parse does, and leaves a longer one (or none after the point) to
// the general parser.
func TestFastTimeFractions(t *testing.T) {
	p, err := newTimeParser("", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	digits := "9876543210"
	for n := 0; n <= len(digits)*3; n++ {
		zone := []string{"Z", "", "+01:00"}[n/(len(digits)+1)] // no zone: UTC
		text := "2026-07-01T12:00:00." + digits[:n%(len(digits)+1)] + zone
		got, ok := p.fast([]byte(text))
		want, err := time.Parse(time.RFC3339Nano, text)
		if zone == "" {
			want, err = time.Parse("2006-01-02T15:04:05.999999999", text)
		}
		n := n % (len(digits) + 1)
		switch {
		case n == 0 || n > 9:
			if ok {
				t.Errorf("%s: fast parser read it (%d)", text, got)
			}
		case err != nil || !ok:
			t.Errorf("%s: fast %v, time.Parse %v", text, ok, err)
		case got != want.UnixNano():
			t.Errorf("%s: %d ns, want time.Parse's %d", text, got, want.UnixNano())
		}
	}
}

// The fast parser's cache of minutes gives what parsing afresh gives:
// timestamps from a few minutes and dates, valid and not (a 13th month,
// 31 April, 29 February of a common year, hour 24, minute 60, a letter
// for a digit), in an order that returns to each minute again and
// again, each checked against time.Parse.
func TestFastTimeMinuteCache(t *testing.T) {
	r := rand.New(rand.NewPCG(87, 88))
	var stamps []string
	for _, day := range []string{"2026-07-01", "2026-07-02", "2024-02-29", "2023-02-29", "2026-13-01", "2026-04-31", "1999-12-31", "2O26-07-01"} {
		for _, hm := range []string{"12:00", "12:01", "23:59", "00:00", "24:00", "12:60", "1a:00"} {
			for _, sep := range []string{"T", " ", "t"} {
				stamps = append(stamps, day+sep+hm)
			}
		}
	}
	p, err := newTimeParser("", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 20000 {
		text := stamps[r.IntN(len(stamps))] + fmt.Sprintf(":%02d.%03dZ", r.IntN(61), r.IntN(1000))
		got, ok := p.fast([]byte(text))
		fresh, _ := newTimeParser("", "", nil)
		again, ok2 := fresh.fast([]byte(text))
		std := strings.Replace(strings.Replace(text, " ", "T", 1), "t", "T", 1)
		want, err := time.Parse(time.RFC3339Nano, std)
		leap := strings.Contains(text, ":60.") && err != nil // time.Parse has no leap seconds
		switch {
		case ok != ok2 || got != again:
			t.Fatalf("%s: %d, %v after the others; %d, %v afresh", text, got, ok, again, ok2)
		case leap:
			if want60, err := time.Parse(time.RFC3339Nano, strings.Replace(std, ":60.", ":59.", 1)); ok != (err == nil) || ok && got != want60.UnixNano()+1e9 {
				t.Fatalf("%s: %d, %v; want the next minute's :00 (%v)", text, got, ok, err)
			}
		case ok != (err == nil) || ok && got != want.UnixNano():
			t.Fatalf("%s: %d, %v; time.Parse %d, %v", text, got, ok, want.UnixNano(), err)
		}
	}
}

// fast reads the commonest timestamps, to the millisecond in UTC, a word
// at a time. It reads them as the general byte-by-byte path does, and
// what it reads as time.Parse does: with every byte of the word
// ":ss.fffZ" set to every value in turn, and with 100,000 words of bytes
// drawn from digits, the punctuation and their neighbours.
func TestFastTimeMillisWord(t *testing.T) {
	p, err := newTimeParser("", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	check := func(b []byte) {
		t.Helper()
		got, ok := p.fast(b)
		minute, mok := parseMinute(b)
		want, wok := p.fastTail(b, minute)
		if b[16] != ':' { // fast's own check, before either path
			want, wok = 0, false
		}
		if !mok || ok != wok || got != want {
			t.Fatalf("%q: fast %d, %v; byte by byte %d, %v", b, got, ok, want, wok)
		}
		if ok {
			if std, err := stdParse(string(b)); err != nil || got != std {
				t.Fatalf("%q: fast %d; time.Parse %d, %v", b, got, std, err)
			}
		}
	}
	base := []byte("2026-07-01T12:34:56.789Z")
	for i := 16; i < len(base); i++ {
		for c := range 256 {
			b := append([]byte(nil), base...)
			b[i] = byte(c)
			check(b)
		}
	}
	r := rand.New(rand.NewPCG(89, 90))
	palette := []byte("0123456789/:.Zz\x00\x80\xb0\xba\xff\x2f\x3a\x7f")
	for range 100000 {
		b := append([]byte(nil), base...)
		for i := 16; i < len(b); i++ {
			if r.IntN(3) == 0 {
				b[i] = palette[r.IntN(len(palette))]
			}
		}
		check(b)
	}
}

// stdParse is time.Parse of a timestamp fast reads, in UTC when it has
// no zone: after 'z' for 'Z', and with a leap second read as the next
// minute's :00.
func stdParse(s string) (int64, error) {
	s = strings.Replace(s, "z", "Z", 1)
	leap := s[17:19] == "60"
	if leap {
		s = s[:17] + "59" + s[19:]
	}
	layout := time.RFC3339Nano
	if !strings.ContainsAny(s[19:], "Z+-") {
		layout = "2006-01-02T15:04:05.999999999"
	}
	t, err := time.Parse(layout, s)
	if leap {
		t = t.Add(time.Second)
	}
	return t.UnixNano(), err
}

// TestReadDurations: duration logs, numbers and Go durations, with
// pending rows censored at their duration.
func TestReadDurations(t *testing.T) {
	text := "duration,status,signal\n1.5,settled,\n2m,completed,30\n90s,pending,1m\n0,failed,\n"
	items, st, err := readText(t, "p.csv", text, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []estimate.Item{{Age: 1.5, Status: estimate.Settled}, {Age: 120, Status: estimate.Settled, Signal: 30, Signalled: true},
		{Age: 90, Status: estimate.Pending, Signal: 60, Signalled: true}, {Age: 0, Status: estimate.Failed}}
	for i, w := range want {
		g := items[i]
		if g.Age != w.Age || g.Status != w.Status || g.HasCreated() || g.HasSignal() != w.HasSignal() || (w.HasSignal() && g.Signal != w.Signal) {
			t.Errorf("item %d = %+v, want %+v", i, g, w)
		}
	}
	if st.HasCreated || !st.ObservedAt.IsZero() {
		t.Errorf("stats %+v: want no creation times", st)
	}
}

// TestReadObservedAt: pending rows without a settle time are censored at
// the latest timestamp of all inputs, or at the given time, and come last.
func TestReadObservedAt(t *testing.T) {
	a := readWrite(t, "a.csv", "created_at,settled_at\n2026-01-01T00:00:00Z,\n2026-01-01T00:00:00Z,2026-01-01T00:00:04Z\n")
	b := readWrite(t, "b.csv", "created_at,settled_at,signal_at\n2026-01-01T00:00:01Z,2026-01-01T00:00:02Z,2026-01-01T00:00:10Z\n")
	items, st, err := Read([]string{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Latest timestamp: the signal at 00:00:10.
	if len(items) != 3 || items[2].Status != estimate.Pending || items[2].Age != 10 || items[0].Age != 4 || items[1].Signal != 9 {
		t.Errorf("items %+v", items)
	}
	if !st.ObservedAt.Equal(time.Date(2026, 1, 1, 0, 0, 10, 0, time.UTC)) || len(st.Files) != 2 {
		t.Errorf("stats %+v", st)
	}
	obs := time.Date(2026, 1, 1, 0, 1, 0, 0, time.UTC)
	items, _, err = Read([]string{a}, Options{ObservedAt: obs})
	if err != nil {
		t.Fatal(err)
	}
	if items[0].Status != estimate.Pending || items[0].Age != 60 {
		t.Errorf("items %+v, want the pending one first, at 60 s", items)
	}
}

// TestReadSpill: more pending items than fit in memory go through a
// temporary file and come back intact.
func TestReadSpill(t *testing.T) {
	defer func(n int) { pendingSpill = n }(pendingSpill)
	pendingSpill = deferBlock
	var b strings.Builder
	b.WriteString("created_at,settled_at\n")
	const n = 3*deferBlock + 17
	for i := range n {
		b.WriteString(time.Unix(int64(i), 0).UTC().Format(time.RFC3339) + ",\n")
	}
	b.WriteString("1970-01-01T00:00:00Z,1970-01-02T00:00:00Z\n")
	items, st, err := readText(t, "p.csv", b.String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Pending != n || len(items) != n+1 {
		t.Fatalf("stats %+v", st)
	}
	for i, it := range items[1:] {
		if it.Age != 86400-float64(i) || it.Status != estimate.Pending {
			t.Fatalf("pending %d: %+v, want age %d", i, it, 86400-i)
		}
	}
}

// TestReadChunks: small chunks (many, parsed in parallel) give the same
// items as one chunk, with quoted newlines across chunk boundaries, and
// errors keep their line.
func TestReadChunks(t *testing.T) {
	var b strings.Builder
	b.WriteString("created_at,note,settled_at\n")
	var want []float64
	for i := range 500 {
		note := "x"
		if i%7 == 0 {
			note = "\"a,\nb\"\"c\""
		}
		c := time.Unix(1700000000+int64(i), 0).UTC()
		b.WriteString(c.Format(time.RFC3339) + "," + note + "," + c.Add(time.Duration(i)*time.Millisecond).Format(time.RFC3339Nano) + "\n")
		want = append(want, float64(i)/1000)
	}
	defer func(n int) { chunkSize = n }(chunkSize)
	for _, size := range []int{16, 100, 1 << 20} {
		chunkSize = size
		items, _, err := readText(t, "p.csv", b.String(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if !readClose(items[i].Age, want[i]) {
				t.Fatalf("chunk %d: item %d age %v, want %v", size, i, items[i].Age, want[i])
			}
		}
		// Row 400 (after 58 quoted rows of two lines) is on line 2+400+58.
		bad := strings.Replace(b.String(), time.Unix(1700000400, 0).UTC().Format(time.RFC3339)+",x", "never,x", 1)
		_, _, err = readText(t, "p.csv", bad, Options{})
		if err == nil || !strings.Contains(err.Error(), "p.csv:460:1: column created_at") {
			t.Fatalf("chunk %d: error %v", size, err)
		}
	}
}

// TestReadHistogram: weighted items at bin midpoints, worked out by hand.
func TestReadHistogram(t *testing.T) {
	text := "lo_s,hi_s,final,pending\n0,2,10,0\n2,8,5,1\n8,,0,3\n"
	p := readWrite(t, "h.csv", text)
	type wi struct {
		age, w float64
		st     estimate.Status
	}
	var got []wi
	st, err := EachWeighted([]string{p}, Options{Histogram: true}, func(it estimate.Item, w float64) {
		got = append(got, wi{it.Age, w, it.Status})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []wi{{1, 10, estimate.Settled}, {4, 5, estimate.Settled}, {4, 1, estimate.Pending}, {8, 3, estimate.Pending}} // sqrt(2*8) = 4
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if !readClose(got[i].age, want[i].age) || got[i].w != want[i].w || got[i].st != want[i].st {
			t.Errorf("item %d = %v, want %v", i, got[i], want[i])
		}
	}
	if st.Final != 15 || st.Pending != 4 || st.Rows != 3 {
		t.Errorf("stats %+v", st)
	}
	_, err = EachWeighted([]string{readWrite(t, "h.csv", "lo_s,hi_s,final,pending\n8,,2,3\n")}, Options{Histogram: true}, func(estimate.Item, float64) {})
	if err == nil || !strings.Contains(err.Error(), "h.csv:2:3: column final: final count 2 in an open bin") {
		t.Errorf("error %v", err)
	}
}

// TestReadPaths: folders, globs and gzip.
func TestReadPaths(t *testing.T) {
	dir := t.TempDir()
	log := "duration\n1\n2\n"
	for _, name := range []string{"a.csv", "sub/b.csv", "c.txt.bak", ".hidden.csv"} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(log), 0o644)
	}
	_, st, err := Read([]string{dir}, Options{})
	if err != nil || st.Items != 4 || len(st.Files) != 2 {
		t.Errorf("folder: %+v %v", st, err)
	}
	_, st, err = Read([]string{filepath.Join(dir, "*.csv")}, Options{})
	if err != nil || st.Items != 2 {
		t.Errorf("glob: %+v %v", st, err)
	}
	if _, _, err := Read([]string{filepath.Join(dir, "*.parquet")}, Options{}); err == nil || !strings.Contains(err.Error(), "no files match") {
		t.Errorf("glob without match: %v", err)
	}
	if _, _, err := Read([]string{filepath.Join(dir, "nope.csv")}, Options{}); err == nil {
		t.Error("missing file read")
	}
	gz := filepath.Join(dir, "g.csv.gz")
	writeGzip(t, gz, log)
	_, st, err = Read([]string{gz}, Options{})
	if err != nil || st.Items != 2 {
		t.Errorf("gzip: %+v %v", st, err)
	}
}

// TestReadModes: created_at with a duration, epoch signals, bad options.
func TestReadModes(t *testing.T) {
	// created_at + duration: an empty duration is pending, censored at
	// the latest time, 00:00:10 + 5 s.
	items, st, err := readText(t, "p.csv", "created_at,duration\n2026-01-01T00:00:10Z,5\n2026-01-01T00:00:03Z,\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].Age != 5 || items[1].Age != 12 || items[1].Status != estimate.Pending || !st.HasCreated {
		t.Errorf("created+duration: %+v %+v", items, st)
	}
	// In an epoch log a numeric signal is an epoch too; elsewhere an age.
	items, _, err = readText(t, "p.csv", "created_at,settled_at,signal\n1000,1010,1004\n", Options{})
	if err != nil || items[0].Signal != 4 || items[0].Age != 10 {
		t.Errorf("epoch signal: %+v %v", items, err)
	}
	items, _, err = readText(t, "p.csv", "created_at,settled_at,signal\n2026-01-01T00:00:00Z,2026-01-01T00:00:10Z,4\n", Options{})
	if err != nil || items[0].Signal != 4 {
		t.Errorf("age signal: %+v %v", items, err)
	}
	for _, opt := range []Options{{TimeUnit: "min"}, {Delimiter: '"'}, {Delimiter: 'é'}} {
		if _, _, err := readText(t, "p.csv", "duration\n1\n", opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
}

// TestReadProgress: progress grows to the input's size.
func TestReadProgress(t *testing.T) {
	defer func(n int) { chunkSize = n }(chunkSize)
	chunkSize = 64
	var b strings.Builder
	b.WriteString("duration\n")
	for i := range 100 {
		b.WriteString(strings.Repeat("1", 1+i%5) + "\n")
	}
	p := readWrite(t, "p.csv", b.String())
	var last, calls int64
	_, err := Each([]string{p}, Options{Progress: func(done, total int64) {
		if done < last || total != int64(b.Len()) {
			t.Fatalf("progress %d of %d after %d", done, total, last)
		}
		last = done
		calls++
	}}, func(estimate.Item) {})
	if err != nil {
		t.Fatal(err)
	}
	if last != int64(b.Len()) || calls < 3 {
		t.Errorf("progress ended at %d of %d after %d calls", last, b.Len(), calls)
	}
}

// TestReadQuotedHeader: a header name with a comma, quoted.
func TestReadQuotedHeader(t *testing.T) {
	text := "\"Created, UTC\",\"Settled \"\"at\"\"\"\n2026-01-01 00:00:00,2026-01-01 00:00:07\n"
	items, _, err := readText(t, "p.csv", text, Options{CreatedCol: "created, utc", SettledCol: `Settled "at"`})
	if err != nil || len(items) != 1 || items[0].Age != 7 {
		t.Fatalf("%+v %v", items, err)
	}
}

// The status cache gives what a lookup gives, for words of 1 to 12
// bytes (some alike in their first eight or all but the last, some
// unknown, one ending in a NUL, in upper case), more of them than the
// cache holds, read from inside buffers that go on with other bytes.
func TestStatusCacheIsLookup(t *testing.T) {
	words := []string{"settled", "failed", "pending", "paid", "ok", "x", "SETTLED", "declined", "declined2", "settlement", "settlements", "unknown", "pendingX", "pendinga", "failex", "ok\x00", "pending"}
	c := &rowConv{status: estimate.NewStatusWords([]string{"settled", "paid", "ok", "x", "declined", "settlement", "settlements"}, []string{"pending", "pendingX"})}
	var sc statusCache
	r := rand.New(rand.NewPCG(89, 90))
	for range 20000 {
		w := words[r.IntN(len(words))]
		buf := append([]byte(w), []byte("settled,failed\n")[:r.IntN(16)]...) // bytes past the word, or none
		s := buf[: len(w) : len(w)+r.IntN(len(buf)-len(w)+1)]
		got, ok := c.lookupCached(&sc, s)
		want, wok := c.status.Lookup([]byte(w))
		if got != want || ok != wok {
			t.Fatalf("%q (cap %d): %v, %v; lookup %v, %v", w, cap(s), got, ok, want, wok)
		}
	}
}

// Statuses cycling through more words than the reader's status cache
// holds are each read as their own status.
func TestReadManyStatusWords(t *testing.T) {
	words := []string{"settled", "failed", "pending", "paid", "error", "running", "done", "Declined"}
	want := []estimate.Status{estimate.Settled, estimate.Failed, estimate.Pending, estimate.Settled,
		estimate.Failed, estimate.Pending, estimate.Settled, estimate.Failed}
	var b strings.Builder
	b.WriteString("duration,status\n")
	var order []int
	for i := range 200 {
		k := (i*i + i/3) % len(words) // not a plain cycle
		order = append(order, k)
		fmt.Fprintf(&b, "%d,%s\n", i+1, words[k])
	}
	items, _, err := readText(t, "s.csv", b.String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(order) {
		t.Fatalf("%d items, want %d", len(items), len(order))
	}
	for i, it := range items {
		if it.Status != want[order[i]] {
			t.Fatalf("row %d (%s): status %v, want %v", i+2, words[order[i]], it.Status, want[order[i]])
		}
	}
}
