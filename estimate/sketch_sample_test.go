package estimate

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// sampleLog is sketchItems with signals on some rows and every tenth row
// repeated (a log may hold equal rows).
func sampleLog(n int, seed uint64) []Item {
	items := sketchItems(n, seed)
	for i := range items {
		if i%3 == 0 {
			items[i] = items[i].WithSignal(items[i].Age / 2)
		}
	}
	for i := 0; i < n; i += 10 {
		items = append(items, items[i])
	}
	return items
}

// bottomK is the part's sample worked out from the whole log at once:
// the rows the split puts in the part, sorted by (hash, row), equal rows
// counted, the k least kept.
func bottomK(items []Item, holdout float64, seed uint64, heldOut bool, k int) (rows []Item, counts []float64) {
	type keyed struct {
		r  sampleRow
		it Item
	}
	var all []keyed
	for _, it := range items {
		h := rowHash(seed, it)
		if held(h, holdout) == heldOut {
			all = append(all, keyed{newSampleRow(h, it, 1), it})
		}
	}
	slices.SortFunc(all, func(a, b keyed) int { return compareRows(a.r, b.r) })
	for i, a := range all {
		if i > 0 && compareRows(all[i-1].r, a.r) == 0 {
			counts[len(counts)-1]++
			continue
		}
		if len(rows) == k {
			break
		}
		rows, counts = append(rows, a.it), append(counts, 1)
	}
	return rows, counts
}

func sampledSketch(items []Item, k int) *Sketch {
	s := &Sketch{Holdout: 0.3, Seed: 5, Sample: k}
	for _, it := range items {
		s.Add(it, 1)
	}
	return s
}

// checkBottomK checks both parts of s against bottomK of items: the same
// rows, counted alike, weighted up to the part's count when capped.
func checkBottomK(t *testing.T, what string, s *Sketch, items []Item, k int) {
	t.Helper()
	for _, part := range []struct {
		held bool
		p    *SketchPart
	}{{false, &s.Fit}, {true, &s.HeldOut}} {
		want, counts := bottomK(items, s.Holdout, s.Seed, part.held, k)
		got, ws, scale := part.p.Sampled()
		exact := scale == 1
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s (held out %v): %d rows, want %d (bottom-k of the whole)", what, part.held, len(got), len(want))
		}
		var n float64
		for _, c := range counts {
			n += c
		}
		if wantExact := n == part.p.Items; exact != wantExact {
			t.Errorf("%s (held out %v): exact %v with %g of %g rows", what, part.held, exact, n, part.p.Items)
		}
		for i := range ws {
			if w := counts[i] * part.p.Items / n; math.Abs(ws[i]-w) > 1e-12*w {
				t.Fatalf("%s (held out %v): row %d weighs %g, want %g", what, part.held, i, ws[i], w)
			}
		}
	}
}

// Bottom-k merges exactly: 30 random shards merged give the sample of
// the whole, the one bottomK works out from all the rows at once.
func TestSketchSampleMerge(t *testing.T) {
	items := sampleLog(6000, 7)
	const k = 300
	r := rand.New(rand.NewPCG(3, 4))
	shards := make([][]Item, 30)
	for _, it := range items {
		i := r.IntN(len(shards))
		shards[i] = append(shards[i], it)
	}
	merged := sampledSketch(nil, k)
	for _, sh := range shards {
		if err := merged.Merge(sampledSketch(sh, k)); err != nil {
			t.Fatal(err)
		}
	}
	checkBottomK(t, "30 shards merged", merged, items, k)
	checkBottomK(t, "the whole", sampledSketch(items, k), items, k)
	// Sketches of a larger sample merge into the smaller one's.
	big := sampledSketch(shards[0], 4*k)
	if err := big.Merge(sampledSketch(slices.Concat(shards[1:]...), k)); err != nil || big.Sample != k {
		t.Fatalf("merge of samples of %d and %d: %v, sample %d", 4*k, k, err, big.Sample)
	}
	checkBottomK(t, "merged into a larger sample", big, items, k)
	// A capped sample merged into an empty one, then rows added one by
	// one: the cut comes along.
	later, first := sampledSketch(nil, k), sampledSketch(items[:4000], k)
	first.Fit.Sampled() // compacted to k rows
	first.HeldOut.Sampled()
	if err := later.Merge(first); err != nil {
		t.Fatal(err)
	}
	for _, it := range items[4000:] {
		later.Add(it, 1)
	}
	checkBottomK(t, "rows added after a merge", later, items, k)
	none := sampledSketch(items, k)
	if none.Merge(sampledSketch(items[:10], 0)); none.HasSample() || len(none.Fit.sample.rows) != 0 {
		t.Errorf("merged with a sketch without a sample: sample %d, %d rows", none.Sample, len(none.Fit.sample.rows))
	}
}

// The same rows give the same sample in any order; a part with at most
// k rows keeps them all, and no part ever holds more than slack(k).
func TestSketchSampleOrder(t *testing.T) {
	items := sampleLog(3000, 8)
	const k = 100
	a := sampledSketch(items, k)
	rev := slices.Clone(items)
	slices.Reverse(rev)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(rev)/2, func(i, j int) { rev[i], rev[j] = rev[j], rev[i] })
	b := &Sketch{Holdout: 0.3, Seed: 5, Sample: k}
	for _, it := range rev {
		b.Add(it, 1)
		for _, p := range []*SketchPart{&b.Fit, &b.HeldOut} {
			if len(p.sample.rows) > slack(k) || cap(p.sample.rows) > slack(k) || cap(p.sample.scratch) > slack(k)-k {
				t.Fatalf("a part holds %d rows (room for %d, and %d more), more than %d", len(p.sample.rows), cap(p.sample.rows), cap(p.sample.scratch), slack(k))
			}
		}
	}
	for _, p := range [][2]*SketchPart{{&a.Fit, &b.Fit}, {&a.HeldOut, &b.HeldOut}} {
		x, wx, _ := p[0].Sampled()
		y, wy, _ := p[1].Sampled()
		if !reflect.DeepEqual(x, y) || !reflect.DeepEqual(wx, wy) || len(x) != k {
			t.Fatalf("another order: %d rows, want the same %d", len(y), len(x))
		}
	}
	few := slices.Concat(items[:100], items[3000:3005]) // 5 rows twice
	small := sampledSketch(few, k)
	for _, p := range []*SketchPart{&small.Fit, &small.HeldOut} {
		got, ws, scale := p.Sampled()
		exact := scale == 1
		var n float64
		for _, w := range ws {
			n += w
		}
		if len(got) > k || !exact || n != p.Items {
			t.Errorf("%d rows of %g: exact %v, weights %g", len(got), p.Items, exact, n)
		}
	}
	checkBottomK(t, "a small log", small, few, k)
}

// A sketch's sample written and read back is the same sample, and
// sketch files merge their samples.
func TestSketchSampleFile(t *testing.T) {
	items := sampleLog(2000, 9)
	const k = 150
	roundTrip := func(s *Sketch) *Sketch {
		t.Helper()
		var buf bytes.Buffer
		if err := WriteSketch(&buf, s); err != nil {
			t.Fatal(err)
		}
		got, err := ReadSketch(&buf, "s.csv")
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	whole := roundTrip(sampledSketch(items, k))
	if whole.Sample != k {
		t.Fatalf("sample %d read back, want %d", whole.Sample, k)
	}
	checkBottomK(t, "read back", whole, items, k)
	a, b := roundTrip(sampledSketch(items[:700], k)), roundTrip(sampledSketch(items[700:], k))
	if err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
	checkBottomK(t, "files merged", roundTrip(a), items, k)
	exact := roundTrip(sampledSketch(items[:100], k))
	checkBottomK(t, "exact, read back", exact, items[:100], k)
	if _, _, scale := exact.Fit.Sampled(); scale != 1 {
		t.Error("an exact sample read back is not exact")
	}
	if s := roundTrip(sampledSketch(items, 0)); s.HasSample() {
		t.Error("a sketch without a sample read back with one")
	}
}

func TestSketchSampleFileErrors(t *testing.T) {
	head := "# pollfit sketch v1 holdout=0.3 seed=1 sample=10\n" + sketchHeader + "\nfit,settled,30001,1,2,2,0\n" + sampleHeader + "\n"
	for _, c := range []struct{ in, want string }{
		{strings.Replace(head, " sample=10", "", 1), "s.csv:4: sample rows in a sketch whose first line has no sample= field"},
		{strings.Replace(head, "sample=10", "sample=1.5", 1), "s.csv:1: bad field \"sample=1.5\""},
		{head + "fit,settled,1,,\n", "s.csv:5: 5 fields, want 6"},
		{head + "all,settled,1,,,1\n", "s.csv:5:1: column part: \"all\" (want fit or heldout)"},
		{head + "fit,done,1,,,1\n", "s.csv:5:2: column status"},
		{head + "fit,settled,-1,,,1\n", "s.csv:5:3: column age_s: \"-1\""},
		{head + "fit,settled,1,x,,1\n", "s.csv:5:4: column created_ns: \"x\""},
		{head + "fit,settled,1,,NaN,1\n", "s.csv:5:5: column signal_s: \"NaN\""},
		{head + "fit,settled,1,,,0\n", "s.csv:5:6: column weight: \"0\""},
		{head + "fit,settled,1,,,3\n", "part fit: the sample's weights add up to 3, more than the 2 rows"},
	} {
		_, err := ReadSketch(strings.NewReader(c.in), "s.csv")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
	if _, err := ReadSketch(strings.NewReader(head+"fit,settled,1,1700000000000000000,0.5,2\n"), "s.csv"); err != nil {
		t.Errorf("a good sample row: %v", err)
	}
}

// The batch probe on a sketch's item sample finds what Periodicity finds
// on every row when the sample holds them all, and nothing without one.
func TestSamplePeriodicity(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 40))
	items := batchLog(r, 3000, 0.6, 300, 2, 3)
	s, err := NewSketch(0.3, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		s.Add(it, 1)
	}
	want := Periodicity(accumulate(items), PeriodOptions{})
	if got := s.SamplePeriodicity(PeriodOptions{}); want == nil || !reflect.DeepEqual(got, want) {
		t.Errorf("from the sample %+v, from every row %+v", got, want)
	}
	s.Sample = 0
	if got := s.SamplePeriodicity(PeriodOptions{}); got != nil {
		t.Errorf("a sketch without a sample found %+v", got)
	}
}
