package backoff

import (
	"math"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

func TestSummarise(t *testing.T) {
	// 1..11: type-7 quantiles at h = 10p: 10th → 2, median → 6, 90th → 10.
	x := []float64{11, 3, 1, 2, 4, 5, 6, 7, 8, 9, 10, math.NaN()}
	if s := Summarise(x); s != (Spread{Median: 6, P10: 2, P90: 10}) {
		t.Errorf("Summarise = %+v", s)
	}
	// 1..4: h = 0.3, 1.5, 2.7 → 1.3, 2.5, 3.7.
	s := Summarise([]float64{4, 3, 2, 1})
	if math.Abs(s.P10-1.3) > 1e-12 || s.Median != 2.5 || math.Abs(s.P90-3.7) > 1e-12 {
		t.Errorf("Summarise(1..4) = %+v", s)
	}
	if s := Summarise(nil); !math.IsNaN(s.Median) {
		t.Errorf("Summarise(nil) = %+v", s)
	}
}

func TestMonteCarlo(t *testing.T) {
	// Metric: the number of asks in the first minute. Full jitter on a
	// 10 s cap waits 5 s on average after the early growth, so more asks
	// than without jitter, and the runs differ.
	count := func(s *schedule.Schedule) float64 {
		return float64(s.Timeline().Count(time.Minute))
	}
	plain := MonteCarlo(mustParse(t, "exponential(initial=1s, max=10s)"), 1, 50, time.Minute, count)
	// Asks 0 1 3 7 15 25 35 45 55: 9 asks.
	if plain != (Spread{9, 9, 9}) {
		t.Errorf("deterministic spread %+v, want all 9", plain)
	}
	j := mustParse(t, "exponential(initial=1s, max=10s, jitter=full)")
	a := MonteCarlo(j, 1, 50, time.Minute, count)
	b := MonteCarlo(j, 1, 50, time.Minute, count)
	if a != b || !(a.P10 < a.P90) || a.Median <= 9 {
		t.Errorf("jittered spread %+v (again %+v): want repeatable, spread, more than 9 asks", a, b)
	}
}
