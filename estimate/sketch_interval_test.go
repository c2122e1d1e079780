package estimate

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
)

// intervalSketch adds, for 3000 items created a second apart, the
// intervals a poller asking at 0, 1, 3 and 8 s logs of ages cycling
// through 0.5, 2, 5 and 20 s: (0, 1], (1, 3], (3, 8] and pending at 8.
func intervalSketch(t *testing.T, from, to int) *Sketch {
	t.Helper()
	s, err := NewSketch(0.3, 7)
	if err != nil {
		t.Fatal(err)
	}
	ivs := []Interval{{Lo: 0, Hi: 1}, {Lo: 1, Hi: 3}, {Lo: 3, Hi: 8}, {Lo: 8, Hi: math.Inf(1)}}
	for i := from; i < to; i++ {
		iv := ivs[i%4]
		iv.W, iv.Created = 1, int64(1_772_000_000+i)*1e9
		if err := s.AddInterval(iv); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestSketchIntervals: the interval part keeps each pair of ends
// exactly (every item has the same ends), the split sends about 30% of
// the items to the held-out part and keeps them all, the file (version
// 3) reads back the same, and two sketches of halves merge into the
// sketch of the whole.
func TestSketchIntervals(t *testing.T) {
	s := intervalSketch(t, 0, 3000)
	if got := s.Fit.Items + s.HeldOut.Items; got != 3000 {
		t.Fatalf("%v items, want 3000", got)
	}
	if h := s.HeldOut.Items; math.Abs(h-900) > 4*math.Sqrt(3000*0.3*0.7) {
		t.Errorf("%v held out of 3000, want about 900", h)
	}
	if p := s.Fit.Pending + s.HeldOut.Pending; p != 750 {
		t.Errorf("%v pending, want the 750 asked last at 8s", p)
	}
	set, err := s.Fit.IntervalSet()
	if err != nil {
		t.Fatal(err)
	}
	var ends [][2]float64
	for _, iv := range set.Intervals() {
		ends = append(ends, [2]float64{iv.Lo, iv.Hi})
	}
	if want := [][2]float64{{0, 1}, {1, 3}, {3, 8}, {8, math.Inf(1)}}; !reflect.DeepEqual(ends, want) {
		t.Errorf("the fitting part's intervals %v, want %v", ends, want)
	}
	var buf bytes.Buffer
	if err := WriteSketch(&buf, s); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "# pollfit sketch v3 ") || !strings.Contains(buf.String(), "\n"+intervalHeader+"\n") {
		t.Fatalf("file:\n%s", buf.String())
	}
	back, err := ReadSketch(&buf, "s.csv")
	if err != nil {
		t.Fatal(err)
	}
	m := intervalSketch(t, 0, 1500)
	if err := m.Merge(intervalSketch(t, 1500, 3000)); err != nil {
		t.Fatal(err)
	}
	for name, o := range map[string]*Sketch{"read back": back, "merged": m} {
		if !reflect.DeepEqual(o.Fit.Intervals(), s.Fit.Intervals()) || !reflect.DeepEqual(o.HeldOut.Intervals(), s.HeldOut.Intervals()) ||
			o.Fit.Items != s.Fit.Items || o.HeldOut.Final != s.HeldOut.Final {
			t.Errorf("%s: %v / %v, want %v / %v", name, o.Fit.Intervals(), o.HeldOut.Intervals(), s.Fit.Intervals(), s.HeldOut.Intervals())
		}
	}
}

// TestSketchIntervalErrors: bad rows of the interval part name the line
// and column; a segmented sketch refuses intervals.
func TestSketchIntervalErrors(t *testing.T) {
	head := "# pollfit sketch v3 holdout=0.3 seed=7\n" + sketchHeader + "\n" + intervalHeader + "\n"
	for row, want := range map[string]string{
		"fit,1,2,3,4\n":          "s.csv:4: 5 columns, want the 6",
		"test,1,2,3,4,5\n":       `s.csv:4:1: column part: "test"`,
		"fit,x,2,3,4,5\n":        `s.csv:4:2: column lo_bin: "x"`,
		"fit,1,2,-3,4,5\n":       `s.csv:4:4: column weight: "-3"`,
		"heldout,5,2,3,40,50\n":  "lo_bin ≤ hi_bin",
		"heldout,1,2,3,40,20\n":  "sum_lo_s < sum_hi_s",
		"heldout,1,2,3,40,inf\n": `column sum_hi_s: "inf"`,
	} {
		if _, err := ReadSketch(strings.NewReader(head+row), "s.csv"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", row, err, want)
		}
	}
	g := &Sketch{By: "method"}
	if err := g.AddInterval(Interval{Lo: 1, Hi: 2, W: 1}); err != ErrGroupedIntervals {
		t.Errorf("segmented: %v", err)
	}
	if err := (&Sketch{}).AddInterval(Interval{Lo: 3, Hi: 2, W: 1}); err == nil || !strings.Contains(err.Error(), "(3, 2]") {
		t.Errorf("bad bounds: %v", err)
	}
}
