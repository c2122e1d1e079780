package estimate

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// refBins is a kindBins worked out the plain way: a map of every bin
// used, walked in sorted order.
type refBins map[int]binStat

// checkBins checks t's bins, their order and get against r's.
func checkBins(t *testing.T, name string, got *kindBins, r refBins) {
	t.Helper()
	want := make([]int32, 0, len(r))
	for b := range r {
		want = append(want, int32(b))
	}
	slices.Sort(want)
	if bins := got.nonEmpty(); !slices.Equal(bins, want) {
		t.Fatalf("%s: %d bins, want %d in order", name, len(bins), len(want))
	}
	for b := range nSketchBins {
		if got.get(b) != r[b] {
			t.Fatalf("%s: bin %d %+v, want %+v", name, b, got.get(b), r[b])
		}
	}
}

// fillBins adds n random rows to t and r, over bins 1..spread (few, so
// that rows share them) with a few ages a bin.
func fillBins(rng *rand.Rand, n, spread int, t *kindBins, r refBins) {
	for range n {
		b := 1 + rng.IntN(spread)
		age, w := float64(b)+float64(rng.IntN(3))/4, 1+float64(rng.IntN(2))
		addLeast(t.at(b), age, w)
		k := r[b]
		addLeast(&k, age, w)
		r[b] = k
	}
}

// TestKindBins: a kind's bins, kept sparse while few and in pages once
// many, read, walk, merge and clone the same as a plain map of bins, on
// both sides of the change and across it.
func TestKindBins(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for _, c := range []struct{ rows, spread int }{
		{0, 1}, {50, 40}, {3 * sparseBins, sparseBins - 1}, {sparseBins, sparseBins}, {4 * sparseBins, 3 * sparseBins},
	} {
		var a, b kindBins
		ra, rb := refBins{}, refBins{}
		fillBins(rng, c.rows, c.spread, &a, ra)
		fillBins(rng, c.rows/3, c.spread/2+1, &b, rb)
		if sparse := len(ra) <= sparseBins; sparse != (a.pages == nil) {
			t.Fatalf("%d bins used: dense %v", len(ra), a.pages != nil)
		}
		checkBins(t, "filled", &a, ra)
		ca, cb := a.clone(), b.clone()
		ca.merge(&b) // a's kind (sparse or dense) takes b's
		cb.merge(&a) // and the other way round
		for bin, k := range rb {
			m := ra[bin]
			mergeLeast(&m, &k)
			ra[bin] = m
		}
		checkBins(t, "merged into a", &ca, ra)
		checkBins(t, "merged into b", &cb, ra)
		checkBins(t, "b, its clone merged into", &b, rb) // the clones share nothing
	}
}

// TestEachBin: a part's bins walk in increasing order, each with its
// three kinds, whichever of them it has.
func TestEachBin(t *testing.T) {
	var p SketchPart
	want := map[int][3]float64{}
	for _, c := range []struct {
		bin, kind int
		w         float64
	}{{9, 2, 1}, {3, 0, 2}, {3, 1, 3}, {100000, 1, 4}, {3, 2, 5}, {7, 0, 6}, {9, 0, 7}} {
		addLeast(p.kinds()[c.kind].at(c.bin), 1, c.w)
		k := want[c.bin]
		k[c.kind] += c.w
		want[c.bin] = k
	}
	var bins []int
	p.eachBin(func(b int, k [3]binStat) error {
		bins = append(bins, b)
		if got := [3]float64{k[0].w, k[1].w, k[2].w}; got != want[b] {
			t.Errorf("bin %d: weights %v, want %v", b, got, want[b])
		}
		return nil
	})
	if !slices.Equal(bins, []int{3, 7, 9, 100000}) {
		t.Errorf("bins %v, want 3 7 9 100000", bins)
	}
}

// TestGroupBinsStaySparse: a sketch by a column of 45 values, 4,000
// rows each, keeps each value's bins sparse (a few hundred kB a value,
// where every bin costs 25 MB); the whole's 180,000 rows turn dense.
func TestGroupBinsStaySparse(t *testing.T) {
	s, err := NewGroupedSketch("channel", 0.2, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 45 * 4000 {
		it := Item{Age: 0.1 * (1 + rng.ExpFloat64()*30), Status: Settled}
		if err := s.AddBy(string(rune('a'+i%45)), it, 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range s.Groups {
		if g.Fit.settled.pages != nil || g.HeldOut.settled.pages != nil {
			t.Fatalf("value %s: %d rows made its bins dense", g.Value, int(g.Fit.Items+g.HeldOut.Items))
		}
	}
	if s.Fit.settled.pages == nil {
		t.Fatal("the whole sketch's bins, over 180,000 rows, stayed sparse")
	}
}
