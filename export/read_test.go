package export

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// base is a valid hand-written version 1 document for seed 4 with an
// aligned clause; its derived fields were worked out by hand: the
// intervals end at 30s, 2m, 5m and 15m exactly, so the last age-based
// ask is at 15m = 900000 ms, after the aligned until of 10m.
const base = `{
  "version": 1,
  "schedule": "1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m, every 1m at +0s +30s until 10m",
  "clauses": [
    {"kind": "every", "every_ms": 1000, "until_ms": 30000},
    {"kind": "every", "every_ms": 2000, "until_ms": 120000},
    {"kind": "every", "every_ms": 5000, "until_ms": 300000},
    {"kind": "every", "every_ms": 15000, "until_ms": 900000}
  ],
  "aligned": [{"period_ms": 60000, "offsets_ms": [0, 30000], "until_ms": 600000}],
  "reset_on_signal": false,
  "stops": true,
  "end_ms": 900000
}`

func TestReadJSON(t *testing.T) {
	s, meta, err := ReadJSON(strings.NewReader(base))
	if err != nil {
		t.Fatal(err)
	}
	want := &schedule.Schedule{
		Clauses: []schedule.Clause{
			{Every: time.Second, Until: 30 * time.Second},
			{Every: 2 * time.Second, Until: 2 * time.Minute},
			{Every: 5 * time.Second, Until: 5 * time.Minute},
			{Every: 15 * time.Second, Until: 15 * time.Minute},
		},
		Aligned: []schedule.Aligned{{Period: time.Minute, Offsets: []time.Duration{0, 30 * time.Second}, Until: 10 * time.Minute}},
	}
	if !s.Equal(want) || meta != nil {
		t.Errorf("ReadJSON = %q, %v; want %q, nil", schedule.Format(s), meta, schedule.Format(want))
	}
}

func TestReadJSONErrors(t *testing.T) {
	for _, tc := range []struct{ name, from, to, want string }{
		{"version", `"version": 1`, `"version": 2`, "version: unsupported version 2 (this pollfit reads version 1)"},
		{"version type", `"version": 1`, `"version": "1"`, "version: expected a number, found a string"},
		{"every zero", `"every_ms": 5000`, `"every_ms": 0`, "clauses[2].every_ms: must be positive"},
		{"every negative", `"every_ms": 5000`, `"every_ms": -5`, "clauses[2].every_ms: must be positive, found -5"},
		{"every string", `"every_ms": 5000`, `"every_ms": "5s"`, "clauses[2].every_ms: expected a number of milliseconds, found a string"},
		{"sub-nanosecond", `"every_ms": 5000`, `"every_ms": 0.0000001`, "clauses[2].every_ms: 0.0000001 ms is not a whole number of nanoseconds"},
		{"too long", `"every_ms": 5000`, `"every_ms": 1e20`, "clauses[2].every_ms: 1e20 ms is too long"},
		{"huge exponent", `"every_ms": 5000`, `"every_ms": 1e999999999`, "clauses[2].every_ms: 1e999999999 ms is out of range"},
		{"unknown key", `"until_ms": 300000`, `"until_ms": 300000, "jitter": 0.1`, "clauses[2].jitter: unknown key (expected one of kind, every_ms, until_ms, forever)"},
		{"kind", `{"kind": "every", "every_ms": 5000`, `{"kind": "often", "every_ms": 5000`, `clauses[2].kind: expected "at" or "every", found "often"`},
		{"no until", `"every_ms": 5000, "until_ms": 300000`, `"every_ms": 5000`, `clauses[2]: needs until_ms or "forever": true`},
		{"both", `"until_ms": 300000`, `"until_ms": 300000, "forever": true`, `clauses[2]: give until_ms or "forever": true, not both`},
		{"forever false", `"until_ms": 300000`, `"forever": false`, "clauses[2].forever: must be true when given"},
		{"forever not last", `"every_ms": 5000, "until_ms": 300000`, `"every_ms": 5000, "forever": true`, "clauses[2]: an interval without until must be the last clause"},
		{"never asks", `"every_ms": 5000, "until_ms": 300000`, `"every_ms": 5000, "until_ms": 121000`, "clauses[2]: 5s until 2m1s never asks: the previous ask is at 2m"},
		{"ask order", `{"kind": "every", "every_ms": 5000, "until_ms": 300000}`, `{"kind": "at", "at_ms": [130000, 125000]}`, "clauses[2].at_ms[1]: ask at 2m5s is not after the previous ask at 2m10s"},
		{"empty at", `{"kind": "every", "every_ms": 5000, "until_ms": 300000}`, `{"kind": "at", "at_ms": []}`, "clauses[2].at_ms: must not be empty"},
		{"offset", `"offsets_ms": [0, 30000]`, `"offsets_ms": [0, 60000]`, "aligned[0]: offset +1m is not within the period 1m"},
		{"aligned until zero", `"until_ms": 600000}`, `"until_ms": 0}`, "aligned[0].until_ms: must be positive"},
		{"aligned type", `"reset_on_signal": false`, `"reset_on_signal": false, "aligned": {}`, "aligned: expected an array, found an object"},
		{"schedule mismatch", `15s until 15m, every`, `15s until 14m, every`, `schedule: "1s until 30s, 2s until 2m, 5s until 5m, 15s until 14m, every 1m at +0s +30s until 10m" does not match the clauses`},
		{"stops", `"stops": true`, `"stops": false`, "stops: is false but the clauses say true"},
		{"end", `"end_ms": 900000`, `"end_ms": 600000`, "end_ms: is 600000 but the clauses end at 900000"},
		{"meta", `"end_ms": 900000`, `"end_ms": 900000, "meta": {"metrics": {"x": "high"}}`, "meta.metrics.x: expected a finite number, found a string"},
		{"syntax", `"stops": true,`, `"stops": true`, "13:3: invalid character"},
		{"trailing", `"end_ms": 900000
}`, `"end_ms": 900000
} {}`, "14:3: data after the end of the document"},
	} {
		doc := strings.Replace(base, tc.from, tc.to, 1)
		if doc == base {
			t.Fatalf("%s: replacement did not apply", tc.name)
		}
		_, _, err := ReadJSON(strings.NewReader(doc))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	_, _, err := ReadJSON(strings.NewReader(strings.Replace(base, `"every_ms": 5000`, `"every_ms": 0`, 1)))
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Path != "clauses[2].every_ms" {
		t.Errorf("error %#v is not a *FieldError at clauses[2].every_ms", err)
	}
}

// TestReadFitOutput reads the form "pollfit fit --json" writes: a
// "schedule" key holding schedule text, other keys ignored; and a
// "schedule" key holding a whole document.
func TestReadFitOutput(t *testing.T) {
	s, _, err := ReadJSON(strings.NewReader(`{"schedule": "at 0s 1s, 2s until 2m, 5s", "metrics": {"mean_asks": 9}}`))
	if err != nil || schedule.Format(s) != "at 0s 1s, 2s until 2m, 5s" {
		t.Errorf("fit output: %v, %v", s, err)
	}
	s, _, err = ReadJSON(strings.NewReader(`{"input": "x.csv", "schedule": ` + base + `}`))
	if err != nil || len(s.Clauses) != 4 {
		t.Errorf("nested document: %v, %v", s, err)
	}
	_, _, err = ReadJSON(strings.NewReader(`{"input": "x.csv", "schedule": ` + strings.Replace(base, `"every_ms": 5000`, `"every_ms": 0`, 1) + `}`))
	if err == nil || !strings.HasPrefix(err.Error(), "schedule.clauses[2].every_ms: must be positive") {
		t.Errorf("nested document error: %v", err)
	}
	for in, want := range map[string]string{
		`{"schedule": "at 1s 1s"}`:             "schedule: 1:7: ask at 1s is not after the previous ask at 1s",
		`{"schedule": 5}`:                      "schedule: expected a string, found a number",
		`{"fitted": true}`:                     `not a pollfit schedule: no "version" or "schedule" key`,
		`[1, 2]`:                               "expected a JSON object, found an array",
		``:                                     "empty document",
		`{"version": 1, "clauses": []}`:        "empty schedule: no clauses and no aligned asks",
		`{"version": 1, "clauses": [{}]}`:      `clauses[0].kind: expected "at" or "every", found null`,
		`{"version": 1, "reset_on_signal": 1}`: "reset_on_signal: expected true or false, found a number",
	} {
		_, _, err := ReadJSON(strings.NewReader(in))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ReadJSON(%s): error %v, want %q", in, err, want)
		}
	}
}

func TestParseSpec(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	js := write("s.json", base)
	dsl := write("s.txt", "# fitted yesterday\nat 0s 1s,\n  2s until 2m, 5s\n")
	bad := write("bad.txt", "at 0s 1s,\n  2x until 2m\n")
	badJSON := write("bad.json", "{\"version\": 1,\n \"clauses\": [{\"kind\": \"at\", \"at_ms\": [-1]}]}")
	for spec, want := range map[string]string{
		"5s until 1m": "5s until 1m",
		"@" + js:      "1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m, every 1m at +0s +30s until 10m",
		"@" + dsl:     "at 0s 1s, 2s until 2m, 5s",
	} {
		s, err := ParseSpec(spec)
		if err != nil || schedule.Format(s) != want {
			t.Errorf("ParseSpec(%s) = %v, %v; want %q", spec, s, err, want)
		}
	}
	for spec, want := range map[string]string{
		"@" + bad:                      bad + ":2:3: invalid duration \"2x\"",
		"@" + badJSON:                  badJSON + ": clauses[0].at_ms[0]: must not be negative, found -1",
		"@" + filepath.Join(dir, "no"): "open " + filepath.Join(dir, "no"),
	} {
		_, err := ParseSpec(spec)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ParseSpec(%s): error %v, want %q", spec, err, want)
		}
	}
}

// FuzzReadJSON: ReadJSON never panics, and what it accepts writes out
// as a document that reads back to the same (canonical) schedule.
func FuzzReadJSON(f *testing.F) {
	f.Add([]byte(base))
	f.Add([]byte(`{"schedule": "at 0s 1s, 2s until 2m, 5s"}`))
	f.Add([]byte(`{"version": 1, "clauses": [{"kind": "at", "at_ms": [0.5, 1e3]}], "aligned": [{"period_ms": 1000, "offsets_ms": [0], "forever": true}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, meta, err := ReadJSON(bytes.NewReader(data))
		if err != nil {
			if len(err.Error()) > 4096 {
				t.Fatalf("error of %d bytes on a %d-byte document", len(err.Error()), len(data))
			}
			return
		}
		if last, ok := s.Timeline().Last(); ok && (last < 0 || last > schedule.MaxAge) {
			t.Fatalf("last ask at %v, outside [0, MaxAge]", last)
		}
		if asks, err := s.Timeline().Asks(time.Second); err == nil {
			for i, a := range asks {
				if a < 0 || (i > 0 && a <= asks[i-1]) {
					t.Fatalf("ask %d at %v after %v", i, a, asks[max(i-1, 0)])
				}
			}
		}
		var out bytes.Buffer
		if err := JSON(&out, s, meta); err != nil {
			t.Fatalf("JSON of an accepted document: %v", err)
		}
		back, _, err := ReadJSON(&out)
		if err != nil {
			t.Fatalf("ReadJSON of our own output: %v\n%s", err, out.Bytes())
		}
		if !back.Equal(schedule.Canonical(s)) {
			t.Fatalf("round trip gave %q, want %q", schedule.Format(back), schedule.Format(s))
		}
	})
}
