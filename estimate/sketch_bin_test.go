package estimate

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBinTables: each table gives its logarithm's bin for every age
// tried: each bin's lower edge and the floats either side of it, whole
// and round ages (1 s, 60 s, every millisecond to 200 s), and 200 000
// ages spread log-uniformly over the grid and beyond its ends.
func TestBinTables(t *testing.T) {
	for name, tab := range map[string]*binTable{"sketch": sketchTable, "age": ageTable} {
		check := func(a float64) {
			if got, want := tab.find(a), tab.bin(a); got != want {
				t.Fatalf("%s: age %v (bits %#x): table bin %d, log bin %d", name, a, math.Float64bits(a), got, want)
			}
		}
		tab.find(1) // builds the table
		for i := 1; i <= tab.bins+1; i++ {
			e := tab.search.edge[i]
			check(e)
			check(math.Nextafter(e, 0))
			check(math.Nextafter(e, math.Inf(1)))
			if tab.bin(e) < i || tab.bin(math.Nextafter(e, 0)) >= i {
				t.Fatalf("%s: edge %d at %v is not the least age of bin %d", name, i, e, i)
			}
		}
		for _, a := range []float64{0, 1e-4, 1e-3, 1, 10, 60, 3600, 86400, 1e10, 2e10, math.MaxFloat64, math.Inf(1)} {
			check(a)
		}
		for ms := 1; ms < 200000; ms++ {
			check(float64(ms) / 1000)
		}
		r := rand.New(rand.NewPCG(1, 2))
		for range 200_000 {
			check(math.Pow(10, -4+15*r.Float64()))
		}
	}
}

func BenchmarkBuildBinTable(b *testing.B) {
	for b.Loop() {
		t := &binTable{bin: sketchBin, lo: sketchMin, hi: sketchMax, bins: sketchBins, perDecade: sketchPerDecade, nudge: sketchNudge, bits: 12}
		t.build()
	}
}

// TestModMersenne: the folding reduction is x % P, at the ends of its
// range and on random values below 2⁶³.
func TestModMersenne(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	xs := []int64{0, 1, hashP - 1, hashP, hashP + 1, 2 * hashP, hashP * hashP, 1<<62 - 1, 1<<63 - 1}
	for range 100_000 {
		xs = append(xs, r.Int64(), r.Int64N(4*hashP))
	}
	for _, x := range xs {
		if got, want := modMersenne(x), x%hashP; got != want {
			t.Fatalf("modMersenne(%d) = %d, want %d", x, got, want)
		}
	}
}
