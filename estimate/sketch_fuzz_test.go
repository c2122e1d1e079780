package estimate

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// FuzzReadSketch: ReadSketch never panics, its errors are short whatever
// the input, and a sketch it accepts holds no negative or non-finite
// weight, no age beyond MaxAge, counts that add up, and writes out as a
// file that reads back to the same bins.
func FuzzReadSketch(f *testing.F) {
	f.Add([]byte("# pollfit sketch v1 holdout=0.3 seed=1\n" + sketchHeader + "\nfit,settled,33418,9.8123,12,117.74,1\nheldout,pending,0,0,2,0,0\n"))
	f.Add([]byte(sqlSketchHeader + "\nfit,failed,130001,1e10,1,1e10,0,0.3,1\nheldout,settled,1,0.001,3,0.003,0,0.3,1\n"))
	f.Add([]byte("# pollfit sketch v1 holdout=0 seed=18446744073709551615\n" + sketchHeader + "\n"))
	f.Add([]byte("# pollfit sketch v2 holdout=0.3 seed=1 by=\"a b\"\n" + segHeader + "\ncard,fit,settled,33418,9.8123,12,117.74,1\n\"x,\"\"y\",heldout,pending,0,0,2,0,0\n"))
	f.Add([]byte(sqlSegHeader + "\n,fit,failed,130001,1e10,1,1e10,0,0.3,1,m\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadSketch(bytes.NewReader(data), "f.sketch.csv")
		if err != nil {
			if n := len(err.Error()); n > 4096 {
				t.Fatalf("error of %d bytes on a %d-byte input", n, len(data))
			}
			return
		}
		checkSketchPart(t, &s.Fit)
		checkSketchPart(t, &s.HeldOut)
		var out bytes.Buffer
		if err := WriteSketch(&out, s); err != nil {
			t.Fatal(err)
		}
		back, err := ReadSketch(&out, "back")
		if err != nil {
			t.Fatalf("our own sketch does not read back: %v\n%s", err, out.Bytes())
		}
		for i, p := range []*SketchPart{&s.Fit, &s.HeldOut} {
			q := []*SketchPart{&back.Fit, &back.HeldOut}[i]
			if s.By != "" { // the whole adds the rows in another order
				for b := range nSketchBins {
					for j, x := range p.kinds() {
						x, y := x.get(b), q.kinds()[j].get(b)
						if x.first != y.first || x.mixed != y.mixed || !sameSum(x.w, y.w) || !sameSum(x.sum, y.sum) {
							t.Fatalf("part %d bin %d: %+v, read back %+v", i, b, x, y)
						}
					}
				}
				continue
			}
			for b := range nSketchBins {
				if p.settled.get(b) != q.settled.get(b) || p.failed.get(b) != q.failed.get(b) || p.pending.get(b) != q.pending.get(b) {
					t.Fatalf("part %d: bin %d differs after a round trip", i, b)
				}
			}
		}
	})
}

// checkSketchPart checks a part's bins against the fuzz invariants.
func checkSketchPart(t *testing.T, p *SketchPart) {
	t.Helper()
	items, weights := p.Bins()
	var total, final float64
	for i, it := range items {
		w := weights[i]
		if math.IsNaN(it.Age) || it.Age < 0 || it.Age > maxAgeSeconds || !(w > 0) || math.IsInf(w, 0) {
			t.Fatalf("bin item %+v weight %v", it, w)
		}
		total += w
		if it.Status.Final() {
			final += w
		}
	}
	if !sameSum(total, p.Items) || !sameSum(final, p.Final) {
		t.Fatalf("bins hold %g items (%g final), counts say %g (%g)", total, final, p.Items, p.Final)
	}
}

// sameSum reports whether two sums of the same terms in another order agree.
func sameSum(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// TestReadSketchAgeLimit: a bin row whose age, or whose mean age
// sum_s/weight, is beyond MaxAge (100 years, 3.1536e9 s) is an error
// naming the line; a long field is quoted clipped to 200 bytes.
func TestReadSketchAgeLimit(t *testing.T) {
	head := "# pollfit sketch v1 holdout=0.3 seed=1\n" + sketchHeader + "\n"
	for _, c := range []struct{ row, want string }{
		// 1e10 s is in the last bin (130001), past 10^10 s: 317 years.
		{"fit,settled,130001,1e10,1,1e10,0", "f:3:4: column age_s: age beyond 100 years (age_s 1e+10"},
		// bin 1 starts at 1 ms; two items averaging 5e9 s.
		{"fit,settled,1,0.001,2,1e10,1", "f:3:4: column age_s: age beyond 100 years (age_s 0.001, mean sum_s/weight 5e+09 s)"},
		{"fit," + strings.Repeat("k", 5000) + ",1,0.001,2,0.002,1", `f:3:2: column kind: "` + strings.Repeat("k", 200) + `"... (want settled, failed or pending)`},
	} {
		_, err := ReadSketch(strings.NewReader(head+c.row+"\n"), "f")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60s: %v, want %q", c.row, err, c.want)
		}
	}
	// 100 years exactly, in bin ⌊10⁴·log10(3.1536e12)⌋ + 1 = 124989, is accepted.
	if _, err := ReadSketch(strings.NewReader(head+"fit,settled,124989,3.1536e9,1,3.1536e9,0\n"), "f"); err != nil {
		t.Errorf("100 years: %v", err)
	}
}

// FuzzMergeSketch: two sketches that read merge without a panic, or
// with an error only for a split or segment column that differs; the
// merge's counts are the sum of the two's, its sample at most the
// smaller Sample rows, and it writes out as a file that reads back.
func FuzzMergeSketch(f *testing.F) {
	a := "# pollfit sketch v2 holdout=0.3 seed=1 sample=4\n" + sketchHeader + "\nfit,settled,33418,9.8123,12,117.74,1\nheldout,pending,0,0,2,0,0\n" +
		sampleHeader + "\nfit,settled,9.8,1700000000000000000,,1\n"
	b := "# pollfit sketch v2 holdout=0.3 seed=1 sample=1073741824\n" + sketchHeader + "\nfit,failed,1,0.001,3,0.003,0\n"
	f.Add([]byte(a), []byte(a))
	f.Add([]byte(a), []byte(b))
	f.Add([]byte(a), []byte(strings.Replace(a, "seed=1", "seed=2", 1)))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		s, err := ReadSketch(bytes.NewReader(x), "x")
		if err != nil {
			return
		}
		u, err := ReadSketch(bytes.NewReader(y), "y")
		if err != nil {
			return
		}
		items, sample := s.Fit.Items+u.Fit.Items, min(s.Sample, u.Sample)
		err = s.Merge(u)
		if err != nil {
			if n := len(err.Error()); n > 4096 {
				t.Fatalf("error of %d bytes", n)
			}
			return
		}
		if !sameSum(s.Fit.Items, items) || s.Sample != sample {
			t.Fatalf("merged %g items (want %g), sample %d (want %d)", s.Fit.Items, items, s.Sample, sample)
		}
		if n := len(s.Fit.sample.rows); n > max(sample, 0) {
			t.Fatalf("merged sample of %d rows, more than %d", n, sample)
		}
		checkSketchPart(t, &s.Fit)
		var out bytes.Buffer
		if err := WriteSketch(&out, s); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadSketch(&out, "back"); err != nil {
			t.Fatalf("a merged sketch does not read back: %v\n%s", err, out.Bytes())
		}
	})
}
