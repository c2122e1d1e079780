package estimate

import (
	"bytes"
	"math"
	"math/big"
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
		it := Item{Age: math.Exp(r.NormFloat64()*1.5 + 2), Status: Settled, Created: 1_700_000_000e9 + int64(k)*1e9, Dated: true}
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

// sameSketch checks that b is a: the same split, counts and least ages
// exactly, sums of ages to 1e-12 relative.
func sameSketch(t *testing.T, a, b *Sketch) {
	t.Helper()
	if a.Holdout != b.Holdout || a.Seed != b.Seed {
		t.Fatalf("split %g/%d, want %g/%d", b.Holdout, b.Seed, a.Holdout, a.Seed)
	}
	for k, pair := range [][2]*SketchPart{{&a.Fit, &b.Fit}, {&a.HeldOut, &b.HeldOut}} {
		p, q := pair[0], pair[1]
		if p.Items != q.Items || p.Final != q.Final || p.Failed != q.Failed || p.Pending != q.Pending {
			t.Errorf("part %d: counts %v/%v/%v/%v, want %v/%v/%v/%v", k, q.Items, q.Final, q.Failed, q.Pending, p.Items, p.Final, p.Failed, p.Pending)
		}
		for i := range nSketchBins {
			for j, x := range p.kinds() {
				x, y := x.get(i), q.kinds()[j].get(i)
				if x.w != y.w || x.first != y.first || x.mixed != y.mixed || math.Abs(x.sum-y.sum) > 1e-12*x.sum {
					t.Fatalf("part %d bin %d %s: %+v, want %+v", k, i, kindStatuses[j], y, x)
				}
			}
		}
	}
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
	sameSketch(t, a, b)
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
		for i := range nSketchBins {
			if a, b := w.settled.get(i), m.settled.get(i); a.w != b.w || math.Abs(a.sum-b.sum) > 1e-9*a.sum {
				t.Fatalf("part %d bin %d: %v, merged %v", k, i, a, b)
			}
		}
	}
	other, _ := NewSketch(0.3, 3)
	if err := merged.Merge(other); err == nil || !strings.Contains(err.Error(), "same hold-out share and seed") {
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
	sameSketch(t, s, got)
	if got.Sample != s.Sample {
		t.Errorf("read back a sample of %d rows a part, wrote %d", got.Sample, s.Sample)
	}
	for _, p := range [][2]*SketchPart{{&s.Fit, &got.Fit}, {&s.HeldOut, &got.HeldOut}} {
		a, wa, ea := p[0].Sampled()
		b, wb, eb := p[1].Sampled()
		if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(wa, wb) || ea != eb || len(a) == 0 {
			t.Errorf("read back an item sample of %d rows (exact %v), wrote %d (exact %v)", len(b), eb, len(a), ea)
		}
	}
}

func TestSketchFileErrors(t *testing.T) {
	head := "# pollfit sketch v1 holdout=0.3 seed=1\n" + sketchHeader + "\n"
	for _, c := range []struct{ in, want string }{
		{"lo_s,hi_s,final,pending\n", "s.csv:1: not a pollfit sketch"},
		{"# pollfit sketch v4 holdout=0.3\n", "s.csv:1: sketch version \"4\": this pollfit reads versions 1 to 3"},
		{"# pollfit sketch v1 holdout=1\n" + sketchHeader + "\n", "s.csv:1: hold-out share 1"},
		{head + "fit,settled,3000,1e9,1,1e9,0\n", "s.csv:3:4: column age_s: 1e+09 is not in bin 3000"},
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

// refHash is the split's hash as the package doc defines it, in big
// integers: no overflow to get wrong.
func refHash(seed uint64, createdMS, ageUS int64, status int64) uint64 {
	p := big.NewInt(1<<31 - 1)
	mod := func(x *big.Int) *big.Int { return new(big.Int).Mod(x, p) } // Euclidean: ≥ 0
	round := func(h *big.Int, x int64) *big.Int {
		y := mod(new(big.Int).Add(new(big.Int).Mul(h, big.NewInt(1103515245)), big.NewInt(x)))
		sq := mod(new(big.Int).Mul(y, y))
		return mod(new(big.Int).Add(new(big.Int).Mul(sq, big.NewInt(48271)), y))
	}
	h := mod(new(big.Int).SetUint64(seed))
	h = round(h, status)
	h = round(h, mod(big.NewInt(createdMS)).Int64())
	h = round(h, mod(big.NewInt(ageUS)).Int64())
	return round(h, 0).Uint64()
}

// rowHashes, four rows at a time, is rowHash row by row: on rows with
// and without creation times (before 1970 too), every status, ages from
// 0 to beyond a century, any seed, and lengths that are not a multiple
// of four.
func TestRowHashes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, seed := range []uint64{0, 1, 7, 1<<31 - 1, math.MaxUint64} {
		for n := range 11 {
			items := make([]Item, n)
			for i := range items {
				items[i] = Item{Age: math.Pow(10, r.Float64()*16-7) * float64(r.IntN(2)), Status: Status(r.IntN(5)),
					Created: r.Int64N(4e18) - 1e18, Dated: r.IntN(4) > 0}
			}
			hs := make([]uint64, n)
			rowHashes(seed, items, hs)
			for i, it := range items {
				if want := rowHash(seed, it); hs[i] != want {
					t.Fatalf("seed %d, row %d of %d (%+v): %d, want rowHash's %d", seed, i, n, it, hs[i], want)
				}
			}
		}
	}
}

// The hash is the documented integer arithmetic: creation time in whole
// milliseconds (rounded down, 0 when unknown), age in whole microseconds
// (rounded), the status code, any seed.
func TestRowHashDefinition(t *testing.T) {
	for _, c := range []struct {
		seed   uint64
		it     Item
		ms, us int64
	}{
		{1, Item{Created: 1_793_534_400_123_456_789, Dated: true, Age: 12.3456, Status: Settled}, 1_793_534_400_123, 12_345_600},
		{7, Item{Created: -1_500_000, Dated: true, Age: 0.0000004, Status: Failed}, -2, 0},
		{math.MaxUint64, Item{Age: 3e9, Status: Pending}, 0, 3e15},
		{0, Item{Created: 0, Dated: true, Age: 1.0000005, Status: Settled}, 0, 1_000_001},
	} {
		want := refHash(c.seed, c.ms, c.us, int64(c.it.Status))
		if got := rowHash(c.seed, c.it); got != want || got >= 1<<31-1 {
			t.Errorf("rowHash(%d, %+v) = %d, want %d", c.seed, c.it, got, want)
		}
	}
	if got, want := holdThreshold(0.3), uint64(644245095); got != want { // ⌈0.3 × 2147483647⌉
		t.Errorf("threshold of 0.3: %d, want %d", got, want)
	}
}

// The held-out share does not depend on the age: about the share asked
// for in every decile of ages, as among rows created a millisecond apart.
func TestSketchSplitByAge(t *testing.T) {
	items := sketchItems(40000, 5)
	const share = 0.3
	var n, out [10]float64
	for _, it := range items {
		d := min(int(10*(1-math.Exp(-it.Age/10))), 9) // deciles of an exponential, roughly
		n[d]++
		if held(rowHash(3, it), share) {
			out[d]++
		}
	}
	for d := range n {
		if sd := math.Sqrt(n[d] * share * (1 - share)); n[d] > 0 && math.Abs(out[d]-share*n[d]) > 4*sd {
			t.Errorf("ages in class %d: %g of %g held out, want about %g", d, out[d], n[d], share*n[d])
		}
	}
}

// Ages on a bin's lower edge fall in that bin: 1 s is the first age of
// bin 30001 (10^(30000/10000) ms), whatever log10's last bits.
func TestSketchBinEdges(t *testing.T) {
	for _, c := range []struct {
		age float64
		bin int
	}{
		{0, 0}, {0.000999, 0}, {0.001, 1}, {0.01, 10001}, {0.1, 20001}, {1, 30001},
		{10, 40001}, {100, 50001}, {1000, 60001}, {1e9, 120001}, {9.99999e9, 130000}, {1e10, 130001},
	} {
		if got := sketchBin(c.age); got != c.bin {
			t.Errorf("bin of %g s: %d, want %d", c.age, got, c.bin)
		}
	}
	// An engine whose log10 is ln x / ln 10 (Snowflake's LOG(10, x))
	// gives 2.9999999999999996 for log10(1000): the nudge keeps 1 s in
	// bin 30001, as every age on a decade's edge.
	for e := range 13 {
		x := math.Pow(10, float64(e))
		lg := math.Log(x) / math.Log(10) * sketchPerDecade
		if got := int(math.Floor(lg+sketchNudge)) + 1; got != e*sketchPerDecade+1 {
			t.Errorf("10^%d ms by ln x / ln 10: bin %d, want %d", e, got, e*sketchPerDecade+1)
		}
	}
}
