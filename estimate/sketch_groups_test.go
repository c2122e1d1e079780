package estimate

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// segValue gives item k one of a few values, some needing CSV quotes.
func segValue(k int) string {
	return []string{"wallet", "card", `a "quoted", value`, ""}[k*7%11%4]
}

// A grouped sketch's group is the sketch of that value's rows alone,
// and the whole is the sketch of all rows: the split ignores the value.
func TestGroupedSketch(t *testing.T) {
	items := sketchItems(6000, 5)
	s, err := NewGroupedSketch("method", 0.3, 7)
	if err != nil {
		t.Fatal(err)
	}
	byValue := map[string][]Item{}
	for k, it := range items {
		v := segValue(k)
		if err := s.AddBy(v, it, 1); err != nil {
			t.Fatal(err)
		}
		byValue[v] = append(byValue[v], it)
	}
	if want := []string{"wallet", "card", `a "quoted", value`, ""}; len(s.Values()) != 4 {
		t.Fatalf("values %q, want the 4 of %q", s.Values(), want)
	}
	for v, its := range byValue {
		alone, seg := mustSketch(t, its, 0.3, 7), s.Group(v)
		sameSketch(t, alone, seg)
		sameSample(t, v, alone, seg)
	}
	small, _ := NewGroupedSketch("method", 0.3, 7)
	small.GroupSample = 100 // fewer than any value's rows: each sample is the least 100 by hash
	for k, it := range items {
		small.AddBy(segValue(k), it, 1)
	}
	for v, its := range byValue {
		alone := &Sketch{Holdout: 0.3, Seed: 7, Sample: 100}
		for _, it := range its {
			alone.Add(it, 1)
		}
		sameSample(t, v, alone, small.Group(v))
	}
	whole := *s
	whole.DropGroups()
	sameSketch(t, mustSketch(t, items, 0.3, 7), &whole)
	if s.Group("bank") != nil {
		t.Error("a value never added has a group")
	}
}

// A grouped sketch writes and reads back the same; two halves merge
// into the whole, value by value.
func TestGroupedSketchFileAndMerge(t *testing.T) {
	items := sketchItems(4000, 9)
	all, _ := NewGroupedSketch("pay method", 0.3, 2)
	a, _ := NewGroupedSketch("pay method", 0.3, 2)
	b, _ := NewGroupedSketch("pay method", 0.3, 2)
	for k, it := range items {
		all.AddBy(segValue(k), it, 1)
		half := a
		if k%3 == 0 {
			half = b
		}
		half.AddBy(segValue(k), it, 1)
	}
	var buf bytes.Buffer
	if err := WriteSketch(&buf, all); err != nil {
		t.Fatal(err)
	}
	if first := strings.SplitN(buf.String(), "\n", 2)[0]; first != `# pollfit sketch v2 holdout=0.3 seed=2 sample=32768 by="pay method"` {
		t.Errorf("first line %q", first)
	}
	back, err := ReadSketch(bytes.NewReader(buf.Bytes()), "s.csv")
	if err != nil {
		t.Fatal(err)
	}
	if back.By != "pay method" || !reflect.DeepEqual(back.Values(), all.Values()) {
		t.Fatalf("read back by %q values %q, want %q", back.By, back.Values(), all.Values())
	}
	if err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
	sameSketch(t, all, back)
	sameSketch(t, all, a)
	for _, v := range all.Values() {
		sameSketch(t, all.Group(v), back.Group(v))
		sameSketch(t, all.Group(v), a.Group(v))
	}
	plain := mustSketch(t, items, 0.3, 2)
	if err := a.Merge(plain); err == nil || !strings.Contains(err.Error(), `merge a sketch without groups into one by "pay method"`) {
		t.Errorf("merging a sketch without groups: %v", err)
	}
}

// Version 1 files still read; a grouped file's errors name the line
// and column, counting the segment column.
func TestGroupedSketchErrors(t *testing.T) {
	v1 := "# pollfit sketch v1 holdout=0.3 seed=1\n" + sketchHeader + "\nfit,settled,30001,1,2,2,0\n"
	s, err := ReadSketch(strings.NewReader(v1), "old.csv")
	if err != nil || s.Fit.Items != 2 || s.By != "" {
		t.Fatalf("version 1: %v, %+v", err, s)
	}
	head := "# pollfit sketch v2 holdout=0.3 seed=1 by=method\n" + segHeader + "\n"
	for _, c := range []struct{ in, want string }{
		{head + "card,fit,settled,30000,1,1,1,0\n", "s.csv:3:5: column age_s: 1 is not in bin 30000"},
		{head + "card,fit,settled,30001,1,x,1,0\n", `s.csv:3:6: column weight: "x"`},
		{head + "card,all,settled,30001,1,1,1,0\n", "s.csv:3:2: column part"},
		{head + `"card,fit,settled,30001,1,1,1,0` + "\n", "s.csv:3:1: column segment: "},
		{head + "fit,settled,30001,1,1,1,0\n", "s.csv:3: 7 fields, want 8"},
		{"# pollfit sketch v2 holdout=0.3 seed=1 by=method\n" + sketchHeader + "\n", "s.csv:2: want the header \"segment,part"},
		{"# pollfit sketch v1 holdout=0.3 seed=1 by=method\n", "a version 1 sketch has no groups"},
		{sqlSegHeader + "\ncard,fit,settled,30001,1,1,1,0,0.3,1,method\nbank,fit,settled,30001,1,1,1,0,0.3,1,region\n", "s.csv:3:9: split 0.3,1,region differs from the first row's (0.3,1,method)"},
	} {
		_, err := ReadSketch(strings.NewReader(c.in), "s.csv")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
	big, _ := NewGroupedSketch("id", 0, 1)
	for k := range MaxSketchGroups {
		big.AddBy(strings.Repeat("x", k+1), Item{Age: 1, Status: Settled}, 1)
	}
	if err := big.AddBy("new", Item{Age: 1, Status: Settled}, 1); err == nil || !strings.Contains(err.Error(), "more than 64 values of id") {
		t.Errorf("value 65: %v", err)
	}
}

// A SQL engine's grouped export reads as pollfit's grouped sketch.
func TestReadSQLGroupedSketch(t *testing.T) {
	s, _ := NewGroupedSketch("method", 0.3, 4)
	s.Sample = 0 // a SQL engine's sketch has no item sample
	for k, it := range sketchItems(3000, 6) {
		s.AddBy(segValue(k), it, 1)
	}
	var buf bytes.Buffer
	if err := WriteSketch(&buf, s); err != nil {
		t.Fatal(err)
	}
	out := strings.ToUpper(sqlSegHeader) + "\r\n"
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n")[2:] {
		out += l + ",0.3,4,method\r\n"
	}
	if !IsSketch([]byte(out[:20])) {
		t.Fatal("a grouped SQL sketch is not recognised by its first 20 bytes")
	}
	got, err := ReadSketch(strings.NewReader(out), "q.csv")
	if err != nil {
		t.Fatal(err)
	}
	if got.By != "method" {
		t.Fatalf("by %q", got.By)
	}
	sameSketch(t, s, got)
	for _, v := range s.Values() {
		sameSketch(t, s.Group(v), got.Group(v))
	}
}

// sameSample fails unless b's parts keep the item samples a's do: the
// same rows with the same weights, standing for as many rows.
func sameSample(t *testing.T, what string, a, b *Sketch) {
	t.Helper()
	for k, pair := range [][2]*SketchPart{{&a.Fit, &b.Fit}, {&a.HeldOut, &b.HeldOut}} {
		ai, aw, as := pair[0].Sampled()
		bi, bw, bs := pair[1].Sampled()
		if len(ai) == 0 || !reflect.DeepEqual(ai, bi) || !reflect.DeepEqual(aw, bw) || as != bs {
			t.Errorf("%s part %d: sample of %d rows (scale %g), want %d (scale %g)", what, k, len(bi), bs, len(ai), as)
		}
	}
}
