package simulate

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func load(t *testing.T, f Fleet, seed uint64) Load {
	t.Helper()
	l, err := f.Load(rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// 100 items at once asking at 0, 1 and 3 s: 300 asks in 10 s, 100 in
// each of seconds 0, 1 and 3.
func TestFleetBurst(t *testing.T) {
	l := load(t, Fleet{Burst: 100, Duration: 10 * time.Second, Policy: policy(t, "at 0s 1s 3s")}, 1)
	if l != (Load{Mean: 30, Peak: 100, Echo: 100}) {
		t.Errorf("got %+v", l)
	}
}

// A burst of 1000 with exponential backoff: without jitter every retry
// wave is the whole burst; with full jitter the waves spread, and the
// busiest second after the first holds far fewer.
func TestFleetBurstJitter(t *testing.T) {
	f := Fleet{Burst: 1000, Duration: time.Minute, Policy: policy(t, "exponential(initial=1s, max=10s)")}
	if l := load(t, f, 1); l.Peak != 1000 || l.Echo != 1000 {
		t.Errorf("no jitter: %+v", l)
	}
	f.Policy = policy(t, "exponential(initial=1s, max=10s, jitter=full)")
	// The first retry is U(0, 1): all 1000 land in second 0; the second
	// U(0, 2) after it, so at most about half of them share a second.
	if l := load(t, f, 1); l.Peak < 1000 || l.Echo > 700 {
		t.Errorf("full jitter: %+v", l)
	}
}

// A stream of 2 items/s asking every 10 s up to 60 s: 7 asks each, so
// 14 requests/s in the steady state.
func TestFleetSteadyState(t *testing.T) {
	l := load(t, Fleet{Arrivals: Rate{2, time.Second}, MaxAge: time.Minute, Policy: policy(t, "10s")}, 1)
	// sd of the mean over 600 s is √(2·600·7²)/600 ≈ 0.4.
	if l.PerItem != 7 || math.Abs(l.Mean-14) > 1.6 {
		t.Errorf("got %+v, want 7 asks per item, mean ≈ 14/s", l)
	}
	// Settling at 25 s: asks at 0, 10, 20, 30 (the first at or after 25).
	l = load(t, Fleet{Arrivals: Rate{2, time.Second}, MaxAge: time.Minute, Settle: []float64{25}, Policy: policy(t, "10s")}, 1)
	if l.PerItem != 4 || math.Abs(l.Mean-8) > 1.2 {
		t.Errorf("settle 25 s: got %+v, want 4 asks per item, mean ≈ 8/s", l)
	}
}

func TestFleetStuck(t *testing.T) {
	f := Fleet{Burst: 1, Duration: time.Second, Policy: policy(t, "perl.Constant(delay=0)")}
	if _, err := f.Load(rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("a policy asking without waiting was accepted")
	}
}
