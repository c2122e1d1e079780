package export

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// parseMS reads an exact decimal number of milliseconds, with at most
// six decimal places, as a duration.
func parseMS(t *testing.T, s string) time.Duration {
	t.Helper()
	whole, frac, _ := strings.Cut(s, ".")
	q, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || len(frac) > 6 {
		t.Fatalf("%q is not a decimal number of milliseconds (%v)", s, err)
	}
	ns := int64(0)
	if frac != "" {
		if ns, err = strconv.ParseInt(frac+strings.Repeat("0", 6-len(frac)), 10, 64); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
	}
	return time.Duration(q)*time.Millisecond + time.Duration(ns)
}

// TestAsks checks the asks of the seeds without aligned clauses and of
// 200 random schedules, each line read back, against the schedule
// package's Timeline.Asks up to End, or up to a horizon for schedules
// that never stop, in both the line and the JSON form.
func TestAsks(t *testing.T) {
	var all []*schedule.Schedule
	for _, sd := range seeds {
		all = append(all, mustParse(t, sd.dsl))
	}
	r := rand.New(rand.NewPCG(11, 12))
	for range 200 {
		all = append(all, randomSchedule(t, r))
	}
	n := 0
	for _, s := range all {
		if len(s.Aligned) > 0 {
			continue
		}
		h, stops := s.End()
		if !stops {
			h = time.Duration(1+r.IntN(60)) * time.Second
		}
		opt := AsksOptions{Horizon: h}
		if stops && r.IntN(2) == 0 {
			opt.Horizon = 0 // the End by default
		}
		want, err := s.Timeline().Asks(h)
		if err != nil {
			t.Fatal(err)
		}
		if got := asksLines(t, s, opt); !durationsEqual(got, want) {
			t.Errorf("%s up to %v: asks %v, want %v", s, h, got, want)
		}
		opt.JSON = true
		if got := asksJSON(t, s, opt, h); !durationsEqual(got, want) {
			t.Errorf("%s up to %v: JSON asks %v, want %v", s, h, got, want)
		}
		n++
	}
	if n < 50 {
		t.Fatalf("only %d schedules without aligned clauses", n)
	}
}

func asksLines(t *testing.T, s *schedule.Schedule, opt AsksOptions) []time.Duration {
	t.Helper()
	var b bytes.Buffer
	if err := Asks(&b, s, opt); err != nil {
		t.Fatal(err)
	}
	var got []time.Duration
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		got = append(got, parseMS(t, line))
	}
	return got
}

func asksJSON(t *testing.T, s *schedule.Schedule, opt AsksOptions, h time.Duration) []time.Duration {
	t.Helper()
	var b bytes.Buffer
	if err := Asks(&b, s, opt); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schedule      string        `json:"schedule"`
		GiveUpMS      json.Number   `json:"give_up_ms"`
		ResetOnSignal bool          `json:"reset_on_signal"`
		AsksMS        []json.Number `json:"asks_ms"`
	}
	dec := json.NewDecoder(&b)
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schedule != schedule.Format(s) || parseMS(t, string(doc.GiveUpMS)) != h || doc.ResetOnSignal != s.ResetOnSignal {
		t.Errorf("%s: JSON head %+v", s, doc)
	}
	var got []time.Duration
	for _, a := range doc.AsksMS {
		got = append(got, parseMS(t, string(a)))
	}
	return got
}

func durationsEqual(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestAsksRefuses(t *testing.T) {
	for _, tc := range []struct {
		dsl  string
		opt  AsksOptions
		want string
	}{
		{"at 0s, 5s", AsksOptions{}, `export: "5s" never stops, so the asks format needs a give-up age: give Horizon`},
		{"at 0s, every 5m at +0s until 1h", AsksOptions{}, "export: the asks format lists ages, and the aligned asks"},
		{"at 0s, 1ms", AsksOptions{Horizon: 1000 * time.Hour}, "export: Horizon 41d16h: schedule asks 3600000001 times by 41d16h, more than the 10000000 pollfit will list; give a shorter Horizon"},
	} {
		err := Asks(&bytes.Buffer{}, mustParse(t, tc.dsl), tc.opt)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s %+v: error %v, want %q", tc.dsl, tc.opt, err, tc.want)
		}
	}
}
