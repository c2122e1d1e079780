package backoff

import (
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

func TestMonteCarlo(t *testing.T) {
	// Metric: the number of asks in the first minute. Full jitter on a
	// 10 s cap waits 5 s on average after the early growth, so more asks
	// than without jitter, and the runs differ.
	count := func(s *schedule.Schedule) float64 {
		return float64(s.Timeline().Count(time.Minute))
	}
	plain := MonteCarlo(mustParse(t, "exponential(initial=1s, max=10s)"), 1, 50, time.Minute, count)
	// Asks 0 1 3 7 15 25 35 45 55: 9 asks.
	if plain != (Spread{Median: 9, P10: 9, P90: 9}) {
		t.Errorf("deterministic spread %+v, want all 9", plain)
	}
	j := mustParse(t, "exponential(initial=1s, max=10s, jitter=full)")
	a := MonteCarlo(j, 1, 50, time.Minute, count)
	b := MonteCarlo(j, 1, 50, time.Minute, count)
	if a != b || !(a.P10 < a.P90) || a.Median <= 9 {
		t.Errorf("jittered spread %+v (again %+v): want repeatable, spread, more than 9 asks", a, b)
	}
}
