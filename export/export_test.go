package export

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// seeds are the schedules of the golden files and of the generated-Go
// run: the four seed schedules of the task, then explicit asks, a
// late start, wall-clock aligned asks, signals and sub-millisecond
// durations.
var seeds = []struct{ name, dsl string }{
	{"seed1", "at 0s 3s 8s 16s 29s, 15s until 2m, 30s"},
	{"seed2", "at 0s 2s 5s 8s 12s, 5s until 2m, 15s"},
	{"seed3", "at 0s 1s, 2s until 2m, 5s"},
	{"seed4", "1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m"},
	{"late_start", "at 5s 10s 20s"},
	{"aligned", "at 0s 1s, 2s until 2m, 5s until 10m, every 5m at +2s +5s until 1h"},
	{"aligned_only", "every 1m at +0s +30s until 10m"},
	{"signal", "at 0s 3s 8s, 10s until 1m, reset on signal"},
	{"aligned_signal", "2s until 20s, 30s, every 1h at +0s, reset on signal"},
	{"submillisecond", "at 250us 1.5ms, 1.000001s until 3s, every 1h at +0s, reset on signal"},
}

// seedMeta is the meta of seed1's golden files, with text that tries
// to break out of comments.
var seedMeta = &Meta{
	Comment: "fitted for checkout\nsecond line */ not code\r\n",
	Source:  "payments.csv",
	Budget:  "8 asks per item",
	Metrics: map[string]float64{"mean_asks": 6.25, "p95_delay_s": 4.5},
}

func mustParse(t testing.TB, dsl string) *schedule.Schedule {
	t.Helper()
	s, err := schedule.Parse(dsl)
	if err != nil {
		t.Fatalf("parse %q: %v", dsl, err)
	}
	return s
}

func metaFor(name string) *Meta {
	if name == "seed1" {
		return seedMeta
	}
	return nil
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./export -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test ./export -update after checking):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestGolden(t *testing.T) {
	vd := schemaValidator(t)
	for _, sd := range seeds {
		s := mustParse(t, sd.dsl)
		var dsl, js, gosrc bytes.Buffer
		if err := DSL(&dsl, s, metaFor(sd.name)); err != nil {
			t.Fatal(err)
		}
		if err := JSON(&js, s, metaFor(sd.name)); err != nil {
			t.Fatal(err)
		}
		opt := GoOptions{Package: "poll", Var: "Poll", Meta: metaFor(sd.name), Args: []string{"export", "--schedule", sd.dsl, "--format", "go"}}
		if err := Go(&gosrc, s, opt); err != nil {
			t.Fatal(err)
		}
		goldenApps(t, sd.name, s, opt.Args[:len(opt.Args)-2])
		golden(t, sd.name+".dsl", dsl.Bytes())
		golden(t, sd.name+".json", js.Bytes())
		golden(t, sd.name+".go.golden", gosrc.Bytes())

		// The DSL reads back to the same schedule, comments and all.
		if back := mustParse(t, dsl.String()); !back.Equal(schedule.Canonical(s)) {
			t.Errorf("%s: DSL output reads back as %q", sd.name, schedule.Format(back))
		}
		if errs := vd.check(t, js.Bytes()); len(errs) > 0 {
			t.Errorf("%s: JSON output breaks the schema: %v", sd.name, errs)
		}
		checkJSONRoundTrip(t, s, metaFor(sd.name), js.Bytes())
	}
}

// goldenApps compares the JavaScript, TypeScript and Kotlin output for
// a seed with its golden files (every seed is in whole microseconds).
func goldenApps(t *testing.T, name string, s *schedule.Schedule, args []string) {
	t.Helper()
	var js, ts, kt bytes.Buffer
	if err := JS(&js, s, JSOptions{Meta: metaFor(name), Args: args}); err != nil {
		t.Fatal(err)
	}
	golden(t, name+".mjs.golden", js.Bytes())
	if err := TS(&ts, s, JSOptions{Meta: metaFor(name), Args: args}); err != nil {
		t.Fatal(err)
	}
	golden(t, name+".ts.golden", ts.Bytes())
	if err := Kotlin(&kt, s, KotlinOptions{Meta: metaFor(name), Args: args}); err != nil {
		t.Fatal(err)
	}
	golden(t, name+".kt.golden", kt.Bytes())
}

// checkJSONRoundTrip checks JSON → schedule → JSON is the identity.
func checkJSONRoundTrip(t *testing.T, s *schedule.Schedule, meta *Meta, js []byte) {
	t.Helper()
	back, m, err := ReadJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatalf("ReadJSON of our own output for %q: %v\n%s", schedule.Format(s), err, js)
	}
	if !back.Equal(schedule.Canonical(s)) {
		t.Errorf("ReadJSON gives %q, want %q", schedule.Format(back), schedule.Format(s))
	}
	var again bytes.Buffer
	if err := JSON(&again, back, m); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), js) {
		t.Errorf("JSON → schedule → JSON changed the document:\n%s\nvs\n%s", again.Bytes(), js)
	}
}

// TestDSLComment checks that comment text cannot break out of the
// comment: every line before the schedule starts with "#".
func TestDSLComment(t *testing.T) {
	s := mustParse(t, "5s until 1m")
	var b bytes.Buffer
	meta := &Meta{Comment: "a\nb\rc\u2028d\x00e\x1b[31m", Source: "x\ny.csv", Metrics: map[string]float64{"ask\nrate": 1}}
	if err := DSL(&b, s, meta); err != nil {
		t.Fatal(err)
	}
	want := "# a\n# b\n# c\n# d e [31m\n# fitted from: x y.csv\n# ask rate: 1\n5s until 1m\n"
	if b.String() != want {
		t.Errorf("DSL = %q, want %q", b.String(), want)
	}
}

func TestMS(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0"}, {time.Nanosecond, "0.000001"}, {250 * time.Microsecond, "0.25"},
		{1500 * time.Microsecond, "1.5"}, {1500 * time.Millisecond, "1500"},
		{time.Second + time.Microsecond, "1000.001"}, {2 * time.Hour, "7200000"},
		{1<<63 - 1, "9223372036854.775807"},
	} {
		if got := string(ms(tc.d)); got != tc.want {
			t.Errorf("ms(%d) = %s, want %s", tc.d, got, tc.want)
		}
		back, err := readMS("x", ms(tc.d))
		if err != nil || back != tc.d {
			t.Errorf("readMS(%s) = %d, %v; want %d", tc.want, back, err, tc.d)
		}
	}
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{{"1e3", time.Second}, {"1.50", 1500 * time.Microsecond}, {"25E-2", 250 * time.Microsecond}, {"0.0", 0}} {
		if got, err := readMS("x", json.Number(tc.in)); err != nil || got != tc.want {
			t.Errorf("readMS(%s) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// TestRandomRoundTrip: random valid schedules go DSL → JSON → DSL and
// JSON → schedule → JSON unchanged, and the JSON fits the schema.
func TestRandomRoundTrip(t *testing.T) {
	vd := schemaValidator(t)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		s := randomSchedule(t, r)
		var js bytes.Buffer
		if err := JSON(&js, s, nil); err != nil {
			t.Fatal(err)
		}
		if errs := vd.check(t, js.Bytes()); len(errs) > 0 {
			t.Fatalf("%q: schema: %v", schedule.Format(s), errs)
		}
		checkJSONRoundTrip(t, s, nil, js.Bytes())
		back, _, err := ReadJSON(&js)
		if err != nil {
			t.Fatal(err)
		}
		var dsl bytes.Buffer
		if err := DSL(&dsl, back, nil); err != nil {
			t.Fatal(err)
		}
		if got, want := strings.TrimSpace(dsl.String()), schedule.Format(s); got != want {
			t.Errorf("DSL → JSON → DSL: %q, want %q", got, want)
		}
	}
}

// randomSchedule builds a random valid schedule: up to four age-based
// clauses (explicit asks or intervals, sometimes a forever tail), up
// to two aligned clauses, sometimes reset on signal; durations in
// whole milliseconds or seconds, sometimes with stray microseconds or
// nanoseconds.
func randomSchedule(t testing.TB, r *rand.Rand) *schedule.Schedule {
	unit := []time.Duration{time.Millisecond, 10 * time.Millisecond, time.Second, 1500 * time.Microsecond, 1000001}[r.IntN(5)]
	s := &schedule.Schedule{ResetOnSignal: r.IntN(2) == 0}
	prev, have := time.Duration(0), false
	n := r.IntN(5)
	for i := 0; i < n; i++ {
		if r.IntN(2) == 0 {
			c := schedule.Clause{}
			for k := 1 + r.IntN(4); k > 0; k-- {
				a := prev + unit*time.Duration(1+r.IntN(5))
				if !have && r.IntN(2) == 0 {
					a = 0
				}
				c.At = append(c.At, a)
				prev, have = a, true
			}
			s.Clauses = append(s.Clauses, c)
			continue
		}
		every := unit * time.Duration(1+r.IntN(20))
		if i == n-1 && r.IntN(2) == 0 {
			s.Clauses = append(s.Clauses, schedule.Clause{Every: every, Forever: true})
			break
		}
		until := prev + every*time.Duration(1+r.IntN(10)) + time.Duration(r.IntN(int(every)))
		s.Clauses = append(s.Clauses, schedule.Clause{Every: every, Until: until})
		prev += (until - prev) / every * every
		have = true
	}
	for k := r.IntN(3) - 1; k > 0 || len(s.Clauses) == 0 && len(s.Aligned) == 0; k-- {
		period := unit * time.Duration(2+r.IntN(100))
		a := schedule.Aligned{}
		for o := time.Duration(r.IntN(3)) * unit; o < period && len(a.Offsets) < 3; o += unit * time.Duration(1+r.IntN(40)) {
			a.Offsets = append(a.Offsets, o)
		}
		a.Period = period
		if r.IntN(2) == 0 {
			a.Until = unit * time.Duration(1+r.IntN(500))
		}
		s.Aligned = append(s.Aligned, a)
	}
	if err := s.Validate(); err != nil {
		t.Fatalf("randomSchedule made an invalid schedule %q: %v", schedule.Format(s), err)
	}
	return s
}
