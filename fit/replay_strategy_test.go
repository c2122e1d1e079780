package fit

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
)

// exponential(initial=1s, factor=2, max=30s) waits 1 2 4 8 16, then 30
// (32 capped) for ever: asks at 0 1 3 7 15 31, then every 30 s.
func TestReplayDeterministicStrategy(t *testing.T) {
	items := testItems(2000, 3)
	st, err := backoff.Parse("exponential(initial=1s, factor=2, max=30s)")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReplayStrategy(st, items, ReplayOptions{}, 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := schedule.Parse("at 0s 1s 3s 7s 15s 31s, 30s")
	want, err := Replay(s, items, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Schedule != want.Schedule || got.Lag != want.Lag || got.RequestsPerItem != want.RequestsPerItem || got.Spread != nil {
		t.Errorf("strategy replay = %+v\nwant the schedule's %+v", got, want)
	}
}

func TestReplayRandomStrategy(t *testing.T) {
	items := testItems(2000, 4)
	st, err := backoff.Parse("exponential(initial=1s, factor=2, max=30s, jitter=full)")
	if err != nil {
		t.Fatal(err)
	}
	a, err := ReplayStrategy(st, items, ReplayOptions{}, 7, 9)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ReplayStrategy(st, items, ReplayOptions{}, 7, 9)
	c, _ := ReplayStrategy(st, items, ReplayOptions{}, 8, 9)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	jc, _ := json.Marshal(c)
	if string(ja) != string(jb) {
		t.Errorf("same seed, different results:\n%s\n%s", ja, jb)
	}
	if string(ja) == string(jc) {
		t.Errorf("different seeds, same results")
	}
	if a.Spread == nil || a.Spread.Runs != 9 || !(a.Spread.LagMean[0] <= a.Lag.Mean && a.Lag.Mean <= a.Spread.LagMean[1]) {
		t.Errorf("spread %+v does not bracket the median lag %v", a.Spread, a.Lag.Mean)
	}
	// Full jitter waits U(0, cap) instead of cap: each realisation asks at
	// least as often as the plain strategy, so even its median costs more.
	plain, _ := backoff.Parse("exponential(initial=1s, factor=2, max=30s)")
	p, _ := ReplayStrategy(plain, items, ReplayOptions{}, 7, 1)
	if !(a.RequestsPerItem > p.RequestsPerItem) || math.IsNaN(a.Lag.Mean) {
		t.Errorf("jittered requests/item %v not above plain %v", a.RequestsPerItem, p.RequestsPerItem)
	}
}
