package export

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// pyTenacityProgram retries a call that always fails with
// tenacity.Retrying(wait=w, stop=w.stop) for w = poll.tenacity_wait():
// on a fake clock (time.monotonic, which tenacity and the module read,
// replaced) that sleep advances, with instant calls and with calls that
// take 1.5 s, and on the real clock with a short schedule. It prints the
// sleeps tenacity asked for and the ages of the attempts, in
// nanoseconds.
const pyTenacityProgram = `
import json
import time
from decimal import Decimal

import tenacity

import poll
import fast

def ns(x):
    return int((Decimal(repr(x)) * 1_000_000_000).to_integral_value())

real_monotonic = time.monotonic

def fake(call_s):
    clock = [1000.0]
    time.monotonic = lambda: clock[0]
    sleeps, ages = [], []
    def fail():
        ages.append(ns(clock[0]) - ns(1000.0))
        clock[0] += call_s
        raise OSError("not yet")
    def sleep(s):
        sleeps.append(ns(s))
        clock[0] += s
    w = poll.tenacity_wait()
    try:
        tenacity.Retrying(wait=w, stop=w.stop, sleep=sleep)(fail)
    except tenacity.RetryError:
        pass
    time.monotonic = real_monotonic
    return {"Sleeps": sleeps, "Ages": ages}

def real():
    start = time.monotonic()
    ages = []
    def fail():
        ages.append(ns(time.monotonic() - start))
        raise OSError("not yet")
    w = fast.tenacity_wait()
    try:
        tenacity.Retrying(wait=w, stop=w.stop)(fail)
    except tenacity.RetryError:
        pass
    return {"Sleeps": [], "Ages": ages}

print(json.dumps([fake(0), fake(1.5), real()]))
`

// TestPythonTenacity: tenacity, driven by the module's wait and stop,
// sleeps the schedule's gaps and stops after its last ask. The schedule
// "at 0s 1s 3s, 2s until 9s" asks at 0 1 3 5 7 9 (its asks from the
// schedule package): with instant calls tenacity sleeps the gaps 1 2 2 2 2
// and makes 6 attempts. With calls of 1.5 s, worked out by hand: the call
// at 0 ends at 1.5, past the ask at 1, which is skipped: sleep 1.5 to 3;
// then each call ends 0.5 before the next ask, 5 7 9: sleeps 1.5 0.5 0.5
// 0.5, attempts at 0 3 5 7 9. On the real clock, "at 0s 20ms 50ms": three
// attempts, each at or just after its ask.
func TestPythonTenacity(t *testing.T) {
	py := pythonTool(t, "tenacity", "python3-tenacity")
	dir := t.TempDir()
	for name, dsl := range map[string]string{"poll": "at 0s 1s 3s, 2s until 9s", "fast": "at 0s 20ms 50ms"} {
		var src bytes.Buffer
		if err := Python(&src, mustParse(t, dsl), PythonOptions{}); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, name+".py"), src.Bytes())
	}
	writeFile(t, filepath.Join(dir, "main.py"), []byte(pyTenacityProgram))
	var runs []struct{ Sleeps, Ages []int64 }
	if err := json.Unmarshal(runIn(t, dir, py, "main.py"), &runs); err != nil {
		t.Fatal(err)
	}
	asks, _ := mustParse(t, "at 0s 1s 3s, 2s until 9s").Timeline().Asks(time.Hour)
	var gaps []int64
	for i := 1; i < len(asks); i++ {
		gaps = append(gaps, int64(asks[i]-asks[i-1]))
	}
	s := int64(time.Second)
	for i, want := range []struct{ sleeps, ages []int64 }{
		{gaps, ints(asks)},
		{[]int64{3 * s / 2, s / 2, s / 2, s / 2}, []int64{0, 3 * s, 5 * s, 7 * s, 9 * s}},
	} {
		if !slices.Equal(runs[i].Sleeps, want.sleeps) || !slices.Equal(runs[i].Ages, want.ages) {
			t.Errorf("run %d: sleeps %v, attempts at %v; want %v, %v", i, runs[i].Sleeps, runs[i].Ages, want.sleeps, want.ages)
		}
	}
	real := runs[2].Ages
	if len(real) != 3 {
		t.Fatalf("real clock: attempts at %v, want 3", real)
	}
	for i, ask := range []time.Duration{0, 20 * time.Millisecond, 50 * time.Millisecond} {
		if got := time.Duration(real[i]); got < ask || got > ask+15*time.Millisecond {
			t.Errorf("real clock: attempt %d at %v, want at or just after %v", i, got, ask)
		}
	}
}
