package export

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// TestJSONSubMillisecond: hand-written documents with ages below a
// millisecond (0.5 ms, 250 µs, 1e-3 ms, in plain and exponent notation)
// read to the schedule written out by hand here, in nanoseconds; write
// back with the same decimal milliseconds; and read the same through
// ParseSpec's @file, as eval -s @file.json and export --from do.
func TestJSONSubMillisecond(t *testing.T) {
	us := time.Microsecond
	cases := []struct {
		doc     string
		want    *schedule.Schedule
		msTexts []string // in the document JSON writes back
		dsl     string
	}{
		{`{"version": 1, "clauses": [{"kind": "at", "at_ms": [0, 0.25, 5e-1]}, {"kind": "every", "every_ms": 1.5, "until_ms": 10.25}]}`,
			&schedule.Schedule{Clauses: []schedule.Clause{{At: []time.Duration{0, 250 * us, 500 * us}}, {Every: 1500 * us, Until: 10250 * us}}},
			[]string{`"at_ms": [0, 0.25, 0.5]`, `"every_ms": 1.5`, `"until_ms": 10.25`, `"end_ms": 9.5`},
			"at 0s 250us 500us, 1.5ms until 10.25ms"},
		{`{"version": 1, "schedule": "at 0s 0.001ms 250µs", "clauses": [{"kind": "at", "at_ms": [0, 1e-3, 0.250]}]}`,
			&schedule.Schedule{Clauses: []schedule.Clause{{At: []time.Duration{0, us, 250 * us}}}},
			[]string{`"at_ms": [0, 0.001, 0.25]`, `"end_ms": 0.25`},
			"at 0s 1us 250us"},
		{`{"version": 1, "clauses": [{"kind": "every", "every_ms": 60000, "forever": true}], "aligned": [{"period_ms": 1000.5, "offsets_ms": [0.25, 0.5], "until_ms": 60000}]}`,
			&schedule.Schedule{Clauses: []schedule.Clause{{Every: time.Minute, Forever: true}},
				Aligned: []schedule.Aligned{{Period: 1000500 * us, Offsets: []time.Duration{250 * us, 500 * us}, Until: time.Minute}}},
			[]string{`"period_ms": 1000.5`, `"offsets_ms": [0.25, 0.5]`},
			"1m, every 1.0005s at +250us +500us until 1m"},
	}
	dir := t.TempDir()
	for i, c := range cases {
		s, _, err := ReadJSON(strings.NewReader(c.doc))
		if err != nil {
			t.Errorf("case %d: %v", i, err)
			continue
		}
		if !s.Equal(c.want) || schedule.Format(s) != c.dsl {
			t.Errorf("case %d: read %q, want %q", i, schedule.Format(s), c.dsl)
		}
		var out bytes.Buffer
		if err := JSON(&out, s, nil); err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(out.String()), " ")
		for _, want := range c.msTexts {
			if !strings.Contains(strings.ReplaceAll(flat, "[ ", "["), strings.ReplaceAll(want, "[ ", "[")) {
				t.Errorf("case %d: written %s, want %s in it", i, flat, want)
			}
		}
		back, _, err := ReadJSON(&out)
		if err != nil || !back.Equal(c.want) {
			t.Errorf("case %d: round trip %v, %v", i, back, err)
		}
		p := filepath.Join(dir, "s.json")
		os.WriteFile(p, []byte(c.doc), 0o644)
		if s, err := ParseSpec("@" + p); err != nil || !s.Equal(c.want) {
			t.Errorf("case %d: ParseSpec(@file) = %v, %v", i, s, err)
		}
	}
	// Below a nanosecond is refused, not rounded.
	if _, _, err := ReadJSON(strings.NewReader(`{"version": 1, "clauses": [{"kind": "at", "at_ms": [0, 0.0000001]}]}`)); err == nil ||
		!strings.Contains(err.Error(), "clauses[0].at_ms[1]: 0.0000001 ms is not a whole number of nanoseconds") {
		t.Errorf("0.1 ns: %v", err)
	}
}
