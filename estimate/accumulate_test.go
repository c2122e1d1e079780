package estimate

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestAccumulatorExactAges(t *testing.T) {
	// A bin whose items share one age reproduces it exactly, even when
	// the sum of the ages would not divide back exactly.
	var a Accumulator
	for range 1000 {
		a.Add(Item{Age: 0.1, Status: Settled})
		a.Add(Item{Age: 60.013, Status: Failed})
	}
	tj, _ := a.Survival().Jumps()
	if len(tj) != 2 || tj[0] != 0.1 || tj[1] != 60.013 {
		t.Errorf("jump ages %v, want exactly [0.1 60.013]", tj)
	}
	if a.Settled != 1000 || a.Failed != 1000 || a.Final != 2000 {
		t.Errorf("settled %v failed %v final %v", a.Settled, a.Failed, a.Final)
	}
}

func TestAccumulatorWeightsAndMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	var whole, w, h1, h2 Accumulator
	for i := range 3000 {
		it := Item{Age: math.Round(math.Exp(3 + r.NormFloat64())), Status: Settled,
			Created: genStart + int64(r.IntN(86400))*1e9, Dated: true}
		if r.Float64() < 0.3 {
			it.Status = Pending
		}
		k := 1 + r.IntN(3)
		for range k {
			whole.Add(it)
		}
		w.AddWeighted(it, float64(k))
		if i%2 == 0 {
			h1.AddWeighted(it, float64(k))
		} else {
			h2.AddWeighted(it, float64(k))
		}
	}
	h1.Merge(&h2)
	sw, sh, s1 := whole.Survival(), w.Survival(), h1.Survival()
	for x := 0.0; x < 2000; x += 0.5 {
		if a, b, c := sw.At(x), sh.At(x), s1.At(x); !near(a, b, 1e-12) || !near(a, c, 1e-12) {
			t.Fatalf("S(%v): duplicated %v, weighted %v, merged %v", x, a, b, c)
		}
	}
	if whole.Items != w.Items || w.Items != h1.Items || whole.phaseW != h1.phaseW {
		t.Errorf("items: %v %v %v", whole.Items, w.Items, h1.Items)
	}
	wd, md := whole.phaseDay(), h1.phaseDay()
	for i := range wd {
		if wd[i] != md[i] {
			t.Fatalf("phase bin %d: %v vs merged %v", i, wd[i], md[i])
		}
	}
	if got := h1.TimestampResolution(); got != 1 {
		t.Errorf("timestamp resolution %v, want 1", got)
	}
	if got := h1.AgeResolution(); got != 1 {
		t.Errorf("age resolution %v, want 1", got)
	}
}

func TestAccumulatorDropped(t *testing.T) {
	var a Accumulator
	a.Add(Item{Age: math.NaN(), Status: Settled})
	a.Add(Item{Age: -1, Status: Settled})
	a.Add(Item{Age: math.Inf(1), Status: Pending})
	a.AddWeighted(Item{Age: 1, Status: Settled}, 0)
	a.AddWeighted(Item{Age: 1, Status: Settled}, math.NaN())
	a.Add(Item{Age: 0, Status: Settled}) // answered at once
	a.Add(Item{Age: 2e7, Status: Pending})
	if a.Dropped != 5 || a.Items != 2 || a.Final != 1 || a.Pending != 1 {
		t.Errorf("dropped %d items %v final %v pending %v", a.Dropped, a.Items, a.Final, a.Pending)
	}
	s := a.Survival()
	if s.At(0) != 0.5 || s.End() != 2e7 {
		t.Errorf("S(0) = %v (want 0.5), end %v (want 2e7)", s.At(0), s.End())
	}
}

// roundNonNeg is math.Round for the ages' nanoseconds: halves, the
// floats either side of them, whole numbers and beyond 2⁵³.
func TestRoundNonNeg(t *testing.T) {
	r := rand.New(rand.NewPCG(91, 92))
	xs := []float64{0, 0.5, 1.5, 2.5, 0.49999999999999994, 1 << 52, 1<<52 + 0.5, 1 << 53, 1e18, 4503599627370495.5}
	for range 100000 {
		xs = append(xs, r.Float64()*1e9*math.Pow(10, float64(r.IntN(10)-1)), float64(r.IntN(1e6))+0.5)
	}
	for _, x := range xs {
		for _, y := range []float64{x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1))} {
			if got, want := roundNonNeg(y), int64(math.Round(y)); got != want {
				t.Fatalf("roundNonNeg(%v) = %d, want %d", y, got, want)
			}
		}
	}
}
