package estimate

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// Each fold is the day's histogram folded at its period, bin by bin, as
// the definition says: the folds of folds, of the day's used bins alone
// and of the blocks of a period add the same whole counts.
func TestFoldIsTheDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	for _, n := range []int{5000, 60000} { // a sparse day's histogram and a dense one
		acc := accumulate(batchLog(r, n, 0.3, 300, 2, 3))
		pf, day := newPhaseFolder(acc), acc.phaseDay()
		if dense := acc.phase != nil; dense != (n > sparsePhase) {
			t.Fatalf("%d items: dense %v", n, dense)
		}
		cands := pf.candidates(10, 3600)
		for i := len(cands) - 1; i >= 0; i-- { // as Periodicity: large first
			pf.fold(cands[i])
		}
		for _, P := range cands {
			nP := int(math.Round(P * 10))
			want := make([]float64, nP)
			for i, v := range day {
				want[i%nP] += v
			}
			got := pf.fold(P)
			for j := range want {
				if got[j] != want[j] {
					t.Fatalf("%d items, fold at %v s, bin %d: %v, want %v", n, P, j, got[j], want[j])
				}
			}
		}
	}
}

// The weight of each part of the day, and of its answers in the arc, is
// the day's histogram summed bin by bin, as the definition says.
func TestPartSumsAreTheDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(75, 76))
	acc := accumulate(batchLog(r, 20000, 0.3, 300, 2, 3))
	pf, day := newPhaseFolder(acc), acc.phaseDay()
	for _, c := range []struct {
		P     float64
		g, nc int
	}{{300, 3, 200}, {300, 48, 150}, {900, 96, 30}, {60, 1440, 200}} {
		arc := make([]bool, c.nc)
		for i := range arc {
			arc[i] = r.IntN(3) == 0
		}
		inArc, tot := pf.partSums(c.P, arc, c.g)
		nP, per := int(math.Round(c.P*10)), len(day)/c.g
		wantIn, wantTot := make([]float64, c.g), make([]float64, c.g)
		for i, v := range day {
			wantTot[i/per] += v
			if arc[(i%nP)*len(arc)/nP] {
				wantIn[i/per] += v
			}
		}
		for k := range c.g {
			if inArc[k] != wantIn[k] || tot[k] != wantTot[k] {
				t.Fatalf("period %v s, part %d of %d: %v of %v in the arc, want %v of %v", c.P, k, c.g, inArc[k], tot[k], wantIn[k], wantTot[k])
			}
		}
	}
}

// The H-test's sums run four bins side by side; each sum still takes
// the bins in order, so every sum is the one a bin at a time gives, and
// the sums are Σ w·z^k to rounding.
func TestPowerSumsBinByBin(t *testing.T) {
	r := rand.New(rand.NewPCG(73, 74))
	for _, n := range []int{37, 1001, 20000} { // every count of bins left over (mod 4) turns up
		pf := newPhaseFolder(accumulate(batchLog(r, n, 0.2, 300, 2, 3)))
		for _, P := range pf.candidates(10, 3600) {
			m := pf.harmonics(P)
			got, want := pf.powerSums(P, m), powerSumsBinByBin(pf, P, m)
			for k := 1; k <= m; k++ {
				if got[k] != want[k] {
					t.Fatalf("%d items, period %v s, harmonic %d: %v, want %v", n, P, k, got[k], want[k])
				}
			}
		}
	}
	var z, w [4]complex128
	sums := make([]complex128, 21)
	for i := range z {
		z[i], w[i] = cmplx.Rect(1, r.Float64()*2*math.Pi), complex(float64(1+r.IntN(9)), 0)
	}
	addPowers4(sums, z, w)
	for k := 1; k < len(sums); k++ {
		var want complex128
		for i := range z {
			want += w[i] * cmplx.Pow(z[i], complex(float64(k), 0))
		}
		if cmplx.Abs(sums[k]-want) > 1e-12*cmplx.Abs(w[0]+w[1]+w[2]+w[3]) {
			t.Errorf("harmonic %d: %v, want %v", k, sums[k], want)
		}
	}
}

// powerSumsBinByBin is powerSums taking one bin at a time through its
// powers.
func powerSumsBinByBin(pf *phaseFolder, P float64, m int) []complex128 {
	sums := make([]complex128, m+1)
	for b, w := range pf.fold(P) {
		if w == 0 {
			continue
		}
		z := cmplx.Rect(1, 2*math.Pi*(float64(b)*0.1+pf.off)/P)
		zk := complex(w, 0)
		for k := 1; k <= m; k++ {
			zk *= z
			sums[k] += zk
		}
	}
	return sums
}
