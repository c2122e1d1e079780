package fit

import (
	"sync"
	"sync/atomic"
	"testing"
)

// Callers on many goroutines asking for one key share one making; past
// max keys, values are made each time and not kept.
func TestOnceMap(t *testing.T) {
	var o onceMap[int, int]
	o.max = 2
	var made atomic.Int32
	mk := func(v int) func() int {
		return func() int { made.Add(1); return v * v }
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := o.get(3, mk(3)); got != 9 {
				t.Errorf("get(3) = %d, want 9", got)
			}
		}()
	}
	wg.Wait()
	if n := made.Load(); n != 1 {
		t.Errorf("16 callers of one key made it %d times, want once", n)
	}
	o.get(4, mk(4))
	for range 3 {
		if got := o.get(5, mk(5)); got != 25 {
			t.Errorf("get(5) = %d, want 25", got)
		}
	}
	// 3 and 4 made once each, 5 three times (the map was full).
	if n, held := made.Load(), o.len(); n != 5 || held != 2 {
		t.Errorf("made %d values holding %d, want 5 made and 2 held", n, held)
	}
}
