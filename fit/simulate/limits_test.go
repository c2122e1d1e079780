package simulate

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestLimits: counts beyond their ceilings fail before anything is
// allocated (a billion runs would otherwise preallocate ~100 GB).
func TestLimits(t *testing.T) {
	c := Crowd{Clients: 200, Capacity: 20, Policy: policy(t, "constant(100ms)")}
	if _, err := c.Repeat(context.Background(), 1, 1_000_000_000); err == nil || !strings.Contains(err.Error(), "1000000000 runs is more than the 10000000 pollfit makes") {
		t.Errorf("runs: %v", err)
	}
	if _, err := c.Repeat(context.Background(), 1, 0); err == nil || !strings.Contains(err.Error(), "need at least one run") {
		t.Errorf("0 runs: %v", err)
	}
	c.Clients = 100_000_000
	if _, err := c.Repeat(context.Background(), 1, 1); err == nil || !strings.Contains(err.Error(), "100000000 clients is more than the 1000000 pollfit simulates") {
		t.Errorf("clients: %v", err)
	}
	f := Fleet{Arrivals: Rate{1e9, time.Second}, Policy: policy(t, "constant(1s)")}
	if _, err := f.Repeat(context.Background(), 1, 1); err == nil || !strings.Contains(err.Error(), "more than the 10000000 pollfit simulates") {
		t.Errorf("fleet items: %v", err)
	}
	f = Fleet{Burst: 1, Policy: policy(t, "constant(1s)"), Duration: 365 * 24 * time.Hour}
	if _, err := f.Repeat(context.Background(), 1, 1); err == nil || !strings.Contains(err.Error(), "longer than the 744h0m0s pollfit simulates") {
		t.Errorf("fleet span: %v", err)
	}
	defer func() { fleetAskLimit = MaxFleetAsks }()
	fleetAskLimit = 1000
	f = Fleet{Burst: 20, Policy: policy(t, "constant(1ms)"), MaxAge: 30 * 24 * time.Hour}
	if _, err := f.Repeat(context.Background(), 1, 1); err == nil || !strings.Contains(err.Error(), "fleet: more than 1000 asks to simulate") {
		t.Errorf("fleet asks: %v", err)
	}
	if _, err := f.Repeat(context.Background(), 1, MaxRuns+1); err == nil || !strings.Contains(err.Error(), "runs is more than") {
		t.Errorf("fleet runs: %v", err)
	}
}
