package fit

import (
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Worked by hand: "10s until 1m" asks at 0, 10, 20, ... An answer at 3 s
// with a signal at 4 s is seen at 4 with reset (lag 1, asks 0 and 4: 2
// requests) instead of at 10 (lag 7, 2 requests). An answer at 12 s with
// no signal is seen at 20 either way (lag 8, 3 requests).
func TestWithSignals(t *testing.T) {
	s, _ := schedule.Parse("10s until 1m")
	items := []estimate.Item{
		{Age: 3, Status: estimate.Settled, Signal: 4, Signalled: true},
		{Age: 12, Status: estimate.Settled},
	}
	out, ok, err := WithSignals(s, ItemSample(items), time.Minute, Budget{RequestsPerItem: 2.5})
	if err != nil || !ok || !out.ResetOnSignal {
		t.Fatalf("WithSignals = %v, %v, %v; want reset on signal", out, ok, err)
	}
	m, _ := Replay(out, items, ReplayOptions{Horizon: time.Minute})
	if m.Lag.Mean != 4.5 || m.RequestsPerItem != 2.5 {
		t.Errorf("with reset: lag %g, %g requests; want 4.5 and 2.5", m.Lag.Mean, m.RequestsPerItem)
	}
	// A signal long after the answer only adds asks: no reset.
	items[0].Signal = 30
	if _, ok, _ := WithSignals(s, ItemSample(items), time.Minute, Budget{RequestsPerItem: 2.5}); ok {
		t.Errorf("reset chosen though the signal comes after the ask that sees the answer")
	}
	// No signals: unchanged.
	items[0].Signalled = false
	if out, ok, _ := WithSignals(s, ItemSample(items), time.Minute, Budget{Price: 1}); ok || out != s {
		t.Errorf("reset chosen without signals")
	}
}
