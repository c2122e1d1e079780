package fit

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// TestResultLetsStudyGo: a study's result holds its samples, not the
// study: once the result is all that is left, the study (with its law
// and replay caches and the cross-validation's halves, megabytes for a
// large log) is collected. Before, the result's FitOn and HeldOut
// pointed into the study and kept it whole as long as the result: a
// --by fit of 15 values held every value's study to the end.
func TestResultLetsStudyGo(t *testing.T) {
	smp := ItemSample(testItems(3000, 5))
	opt := StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 6}}, Holdout: 0.3, Seed: 1}
	st, err := newStudy(context.Background(), smp, nil, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	gone := make(chan struct{})
	runtime.SetFinalizer(st, func(*study) { close(gone) })
	res, err := st.run()
	if err != nil {
		t.Fatal(err)
	}
	st = nil
	for range 5 {
		runtime.GC()
		select {
		case <-gone:
			if res.FitOn.Len() == 0 || res.HeldOut.Len() == 0 {
				t.Error("the result lost its samples")
			}
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
	runtime.KeepAlive(res)
	t.Error("the study is still reachable from its result")
}
