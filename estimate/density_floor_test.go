package estimate

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestDensityResolutionFloor: a million ages drawn from LogNormal(0, 1),
// rounded to the millisecond and summed into the accumulator's bins
// (log10-spaced, 1000 a decade, as a sketch of a large log holds them),
// lie on a comb of bins ln(10)/1000 = 0.0023 apart on the log-age axis,
// finer than 4 cells of ISJ's grid. ISJ alone fits the comb (a bandwidth
// near 0.001 and a PDF 15% off the law); floored at ResolutionFactor
// gaps, 4·ln(10)/1000 = 0.0092, the PDF is within 1% of the lognormal's
// closed form from 0.3 s to 5 s (5% allowed). With 10k ages the bins are sparse, the
// ages no comb, and ISJ's bandwidth (above 0.1) stands.
func TestDensityResolutionFloor(t *testing.T) {
	floor := ResolutionFactor * math.Ln10 / histPerDecade
	truth := distuv.LogNormal{Mu: 0, Sigma: 1}
	for _, n := range []int{10000, 1000000} {
		r := rand.New(rand.NewPCG(3, 4))
		var a Accumulator
		for range n {
			a.Add(Item{Age: math.Round(math.Exp(r.NormFloat64())*1000) / 1000, Status: Settled})
		}
		d := Density(a.Survival(), DensityOptions{})
		h, method := d.Bandwidth()
		switch {
		case n == 10000 && (method != "isj" || h < 0.1):
			t.Errorf("%d ages: bandwidth %g (%s); want ISJ's, above 0.1", n, h, method)
		case n == 1000000 && (method != "resolution" || math.Abs(h/floor-1) > 0.05):
			t.Errorf("%d ages: bandwidth %g (%s); want the resolution floor ≈ %g", n, h, method, floor)
		}
		for _, x := range []float64{0.3, 0.5, 0.7, 1, 1.3, 2, 3, 5} {
			if got, want := d.PDF(x), truth.Prob(x); math.Abs(got/want-1) > 0.05 {
				t.Errorf("%d ages: PDF(%g) = %g, want ≈ %g", n, x, got, want)
			}
		}
	}
}
