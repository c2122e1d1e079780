package estimate

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// sketchItems are n items with ages spread over minutes, some pending,
// some failed, with creation times.
func sketchItems(n int, seed uint64) []Item {
	r := rand.New(rand.NewPCG(seed, 1))
	var out []Item
	for k := range n {
		it := Item{Age: math.Exp(r.NormFloat64()*1.5 + 2), Status: Settled, Created: 1_700_000_000e9 + int64(k)*1e9, Signal: math.NaN()}
		switch r.IntN(10) {
		case 0:
			it.Status = Pending
		case 1:
			it.Status = Failed
		}
		out = append(out, it)
	}
	return out
}

func mustSketch(t *testing.T, items []Item, holdout float64, seed uint64) *Sketch {
	t.Helper()
	s, err := NewSketch(holdout, seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		s.Add(it, 1)
	}
	return s
}

// The split is a hash of each row: the same rows split alike, in any
// order, and about the share asked for goes to the held-out part.
func TestSketchSplit(t *testing.T) {
	items := sketchItems(20000, 1)
	a := mustSketch(t, items, 0.3, 7)
	rev := make([]Item, len(items))
	for i, it := range items {
		rev[len(items)-1-i] = it
	}
	b := mustSketch(t, rev, 0.3, 7)
	if a.HeldOut.Items != b.HeldOut.Items || a.Fit.Final != b.Fit.Final {
		t.Errorf("the split depends on the order: %g vs %g held out", a.HeldOut.Items, b.HeldOut.Items)
	}
	n := float64(len(items))
	if sd := math.Sqrt(n * 0.3 * 0.7); math.Abs(a.HeldOut.Items-0.3*n) > 4*sd || a.Fit.Items+a.HeldOut.Items != n {
		t.Errorf("held out %g of %g, fitted %g; want about %g", a.HeldOut.Items, n, a.Fit.Items, 0.3*n)
	}
	if c := mustSketch(t, items, 0.3, 8); c.HeldOut.Items == a.HeldOut.Items && c.Fit.Final == a.Fit.Final {
		t.Error("another seed splits alike")
	}
}

// Sketches of the parts of a log merge into the sketch of the whole:
// counts exactly, sums of ages to rounding.
func TestSketchMerge(t *testing.T) {
	items := sketchItems(9000, 2)
	whole := mustSketch(t, items, 0.25, 3)
	merged := mustSketch(t, nil, 0.25, 3)
	for day := range 30 {
		part := mustSketch(t, items[day*300:(day+1)*300], 0.25, 3)
		if err := merged.Merge(part); err != nil {
			t.Fatal(err)
		}
	}
	for k, pair := range [][2]*SketchPart{{&whole.Fit, &merged.Fit}, {&whole.HeldOut, &merged.HeldOut}} {
		w, m := pair[0], pair[1]
		if w.Items != m.Items || w.Final != m.Final || w.Failed != m.Failed || w.Pending != m.Pending {
			t.Errorf("part %d: counts %v/%v/%v/%v, merged %v/%v/%v/%v", k, w.Items, w.Final, w.Failed, w.Pending, m.Items, m.Final, m.Failed, m.Pending)
		}
		for i := range w.settled {
			if a, b := w.settled[i], m.settled[i]; a.w != b.w || math.Abs(a.sum-b.sum) > 1e-9*a.sum {
				t.Fatalf("part %d bin %d: %v, merged %v", k, i, a, b)
			}
		}
	}
	other, _ := NewSketch(0.3, 3)
	if err := merged.Merge(other); err == nil || !strings.Contains(err.Error(), "same --holdout and --seed") {
		t.Errorf("merging another split: %v", err)
	}
}

// A sketch written and read back is the same sketch.
func TestSketchFileRoundTrip(t *testing.T) {
	s := mustSketch(t, sketchItems(5000, 3), 0.3, 11)
	var buf bytes.Buffer
	if err := WriteSketch(&buf, s); err != nil {
		t.Fatal(err)
	}
	if !IsSketch(buf.Bytes()) {
		t.Fatal("written sketch not recognised")
	}
	got, err := ReadSketch(&buf, "s.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Errorf("read back %+v, wrote %+v", got.Fit.Items, s.Fit.Items)
	}
}

func TestSketchFileErrors(t *testing.T) {
	head := "# pollfit sketch v1 holdout=0.3 seed=1\n" + sketchHeader + "\n"
	for _, c := range []struct{ in, want string }{
		{"lo_s,hi_s,final,pending\n", "s.csv:1: not a pollfit sketch"},
		{"# pollfit sketch v2 holdout=0.3\n", "s.csv:1: sketch version \"2\": this pollfit reads version 1"},
		{"# pollfit sketch v1 holdout=1\n" + sketchHeader + "\n", "s.csv:1: hold-out share 1"},
		{head + "fit,settled,3000,1e9,1,1e9,0\n", "s.csv:3:4: column age_s: 1e9 is not in bin 3000"},
		{head + "fit,settled,200000,1e9,1,1e9,0\n", "s.csv:3:3: column bin: \"200000\""},
		{head + "fit,settled,3000,0.2,x,1,0\n", "s.csv:3:5: column weight: \"x\""},
		{head + "all,settled,3000,0.2,1,0.2,0\n", "s.csv:3:1: column part"},
		{head + "fit,done,23011,0.2,1,0.2,0\n", "s.csv:3:2: column kind"},
		{head + "fit,settled,3000\n", "s.csv:3: 3 fields, want 7"},
	} {
		_, err := ReadSketch(strings.NewReader(c.in), "s.csv")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}
