package fit

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

func TestReplayItemByHand(t *testing.T) {
	s := mustSchedule(t, "at 0s 10s 20s, reset on signal")
	sec := func(xs ...float64) []time.Duration {
		var out []time.Duration
		for _, x := range xs {
			out = append(out, time.Duration(x*1e9))
		}
		return out
	}
	for _, c := range []struct {
		it                    estimate.Item
		asks                  []time.Duration
		seen, missed, pending bool
		lag                   time.Duration
	}{
		// Seen at 10 s, 5 s after the answer at 5 s.
		{estimate.Item{Age: 5, Status: estimate.Settled}, sec(0, 10), true, false, false, 5 * time.Second},
		// An ask at exactly the answer's age sees it.
		{estimate.Item{Age: 10, Status: estimate.Failed}, sec(0, 10), true, false, false, 0},
		// After the last ask: missed, every ask counted.
		{estimate.Item{Age: 25, Status: estimate.Settled}, sec(0, 10, 20), false, true, false, 0},
		// Pending at 12 s: the asks up to its censoring age.
		{estimate.Item{Age: 12, Status: estimate.Pending}, sec(0, 10), false, false, true, 0},
		// A signal at 7 s: asks at 0, then 7 (the signal), then 17, 27;
		// the answer at 15 s is seen at 17 s.
		{estimate.Item{Age: 15, Status: estimate.Settled, Signal: 7, Signalled: true}, sec(0, 7, 17), true, false, false, 2 * time.Second},
	} {
		r := ReplayItem(s, c.it, 30*time.Second)
		if !slices.Equal(r.Asks, c.asks) || r.Seen != c.seen || r.Missed != c.missed || r.Pending != c.pending || r.Lag != c.lag {
			t.Errorf("item %+v: %+v, want asks %v seen %v missed %v pending %v lag %v", c.it, r, c.asks, c.seen, c.missed, c.pending, c.lag)
		}
	}
	// A horizon of 9 s misses the answer at 5 s: asks at 0 only.
	if r := ReplayItem(s, estimate.Item{Age: 5, Status: estimate.Settled}, 9*time.Second); !r.Missed || !slices.Equal(r.Asks, sec(0)) {
		t.Errorf("horizon 9s: %+v", r)
	}
}

// Summed over a log, the asks ReplayItem lists are Replay's requests
// and its lags Replay's mean lag, for age, aligned and signal schedules.
func TestReplayItemMatchesReplay(t *testing.T) {
	batch := loggen.Items(loggen.Rows(loggen.Batch, 500, 21))
	pay := loggen.Items(loggen.Rows(loggen.Payments, 500, 22))
	for _, c := range []struct {
		its []estimate.Item
		src string
	}{
		{batch, "1s until 30s, 5s until 5m"}, {batch, "30s, every 5m at +4s +8s until 1h"},
		{pay, "2s until 30s, 10s until 10m, reset on signal"}, {pay, "at 0s 1s 3s, 5s until 2m"},
	} {
		s := mustSchedule(t, c.src)
		m, err := Replay(s, c.its, ReplayOptions{Horizon: 10 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		var asks, lag, seen float64
		for _, it := range c.its {
			r := ReplayItem(s, it, m.Horizon)
			asks += float64(len(r.Asks))
			if r.Seen {
				lag, seen = lag+r.Lag.Seconds(), seen+1
			}
		}
		if got := asks / float64(len(c.its)); math.Abs(got-m.RequestsPerItem) > 1e-9 {
			t.Errorf("%s: %g asks per item, Replay %g", c.src, got, m.RequestsPerItem)
		}
		if seen != m.Detected || math.Abs(lag/seen-m.Lag.Mean) > 1e-9 {
			t.Errorf("%s: %g seen, mean lag %g; Replay %g, %g", c.src, seen, lag/seen, m.Detected, m.Lag.Mean)
		}
	}
}

func mustSchedule(t *testing.T, src string) *schedule.Schedule {
	t.Helper()
	s, err := schedule.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
