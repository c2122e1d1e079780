package simulate

import (
	"context"
	"errors"
	"github.com/pollfit/pollfit/internal/quantile"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestSummaryMemoryFlat: folding a million results into a summary
// keeps its memory within a few hundred KB of folding a thousand (the
// results themselves, kept, would take 80 MB), and the spreads agree
// with Summarise on the exact results to the sketch's error bound.
func TestSummaryMemoryFlat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func() Result {
		return Result{LastServed: 20 + 5*rng.NormFloat64(), TypicalServed: 5 * rng.ExpFloat64(), CallsSent: 1000 + rng.IntN(500),
			CallsRefused: rng.IntN(300), PeakCallsPerSecond: 50 + rng.IntN(20), GaveUp: rng.IntN(3)}
	}
	var small, large summary
	for range 1000 {
		small.add(draw())
	}
	before := liveHeap()
	keep := make([]float64, 0, 1_000_000) // the metric checked below, for the exact answer
	for range 1_000_000 {
		r := draw()
		large.add(r)
		keep = append(keep, float64(r.CallsSent))
	}
	exact := quantile.Summarise(keep)
	keep = nil
	after := liveHeap()
	if grown := int64(after) - int64(before); grown > 2<<20 {
		t.Errorf("a million results grew the live heap by %d bytes, want under 2 MB", grown)
	}
	got := large.summary()
	for _, c := range [][2]float64{{got.CallsSent.Median, exact.Median}, {got.CallsSent.P10, exact.P10}, {got.CallsSent.P90, exact.P90}} {
		if math.Abs(c[0]-c[1]) > quantile.RelativeError*c[1] {
			t.Errorf("calls sent: sketch %g, exact %g", c[0], c[1])
		}
	}
	if got.Runs != 1_000_000 || small.summary().Runs != 1000 {
		t.Errorf("runs %d, %d", got.Runs, small.summary().Runs)
	}
	runtime.KeepAlive(&small)
}

// TestRepeatStops: a crowd repeated ten million times stops when its
// context is cancelled, with context.Canceled.
func TestRepeatStops(t *testing.T) {
	c := Crowd{Clients: 50, Capacity: 20, Policy: policy(t, "exponential(initial=100ms, factor=2, max=20s, jitter=full)")}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() { _, err := c.Repeat(ctx, 1, MaxRuns); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("crowd: %v, want context.Canceled", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("Repeat still running a minute after the cancel")
	}
	f := Fleet{Burst: 100, Policy: policy(t, "constant(1s)"), MaxAge: time.Hour}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := f.Repeat(ctx, 1, MaxRuns); !errors.Is(err, context.Canceled) {
		t.Errorf("fleet: %v, want context.Canceled", err)
	}
}
