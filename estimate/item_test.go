package estimate

import (
	"testing"
	"time"
)

// The zero Item knows nothing: no creation time, no signal. The Unix
// epoch and a signal at age 0 are values, not sentinels.
func TestItemZeroValue(t *testing.T) {
	var it Item
	if it.HasCreated() || it.HasSignal() || it.Status != Pending {
		t.Errorf("zero item: created %t, signal %t, status %v; want nothing known, pending", it.HasCreated(), it.HasSignal(), it.Status)
	}
	epoch := Item{Age: 1, Status: Settled}.WithCreated(time.Unix(0, 0))
	if !epoch.HasCreated() || epoch.Created != 0 {
		t.Errorf("an item created at the Unix epoch: known %t at %d ns; want known at 0", epoch.HasCreated(), epoch.Created)
	}
	s := epoch.WithSignal(0)
	if !s.HasSignal() || s.Signal != 0 || epoch.HasSignal() {
		t.Errorf("WithSignal(0): signal %t at %g (and the original %t); want a signal at 0 on the copy only", s.HasSignal(), s.Signal, epoch.HasSignal())
	}
	// 2026-01-01T00:00:01.5Z is 1767225601.5 s after the epoch.
	if c := (Item{}).WithCreated(time.Date(2026, 1, 1, 0, 0, 1, 5e8, time.UTC)).Created; c != 1_767_225_601_500_000_000 {
		t.Errorf("WithCreated(2026-01-01T00:00:01.5Z) = %d ns", c)
	}
}
