package estimate

import (
	"runtime"
	"strings"
	"testing"
)

// TestSampleMergeMemoryFollowsRows: merging two samples once allocated
// room for the sample size asked (a forged sample=1073741824 ran out of
// memory in rowSample.merge); it now allocates for the rows there are.
// 2²² rows would take 190 MB; 400 rows take 16 KB.
func TestSampleMergeMemoryFollowsRows(t *testing.T) {
	items := sampleLog(200, 11)
	a, b := sampledSketch(items[:100], 1<<22), sampledSketch(items[100:], 1<<22)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("merge of %d rows allocated %d KB, want at most 1024", len(items), got>>10)
	}
	checkBottomK(t, "merged", a, items, 1<<22)
}

// TestSketchSampleCeiling: a sketch file's sample= may not exceed
// MaxSample, as --sample may not.
func TestSketchSampleCeiling(t *testing.T) {
	for _, c := range []struct {
		n  string
		ok bool
	}{{"1048576", true}, {"1048577", false}, {"1073741824", false}, {"1e300", false}} {
		text := "# pollfit sketch v2 holdout=0.3 seed=1 sample=" + c.n + "\npart,kind,bin,age_s,weight,sum_s,mixed\n"
		s, err := ReadSketch(strings.NewReader(text), "f.sketch.csv")
		if c.ok {
			if err != nil || s.Sample != MaxSample {
				t.Errorf("sample=%s: %v", c.n, err)
			}
			continue
		}
		want := `f.sketch.csv:1: bad field "sample=` + c.n + `" (want sample=a whole number of rows, at most 1048576)`
		if err == nil || err.Error() != want {
			t.Errorf("sample=%s: got %v, want %s", c.n, err, want)
		}
	}
}

// TestSketchRowBounds: a sample row's signal age is at most 100 years
// either way, as the log reader's, and a bin's mixed is 0 or 1 (±1e300
// and "maybe" were once read).
func TestSketchRowBounds(t *testing.T) {
	head := "# pollfit sketch v2 holdout=0.3 seed=1 sample=10\n" + sketchHeader + "\n"
	sample := head + "fit,settled,30001,1,2,2,0\n" + sampleHeader + "\n"
	for _, c := range []struct{ in, want string }{
		{sample + "fit,settled,1,,1e300,1\n", `s.csv:5:5: column signal_s: "1e300" (want an age in seconds, at most 100 years, or empty)`},
		{sample + "fit,settled,1,,-1e300,1\n", `s.csv:5:5: column signal_s: "-1e300"`},
		{sample + "fit,settled,1,,3153600001,1\n", `s.csv:5:5: column signal_s: "3153600001"`},
		{head + "fit,settled,30001,1,2,2,maybe\n", `s.csv:3:7: column mixed: "maybe" (want 0 or 1)`},
		{head + "fit,settled,30001,1,2,2,2\n", `s.csv:3:7: column mixed: "2" (want 0 or 1)`},
	} {
		_, err := ReadSketch(strings.NewReader(c.in), "s.csv")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
	for _, ok := range []string{sample + "fit,settled,1,,3153600000,1\n", head + "fit,settled,30001,1,2,2,1\n"} {
		if _, err := ReadSketch(strings.NewReader(ok), "s.csv"); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}
