package estimate

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkAccumulatorAdd(b *testing.B) {
	r := rand.New(rand.NewPCG(41, 42))
	items := window(r, lognormalAges(r, 1<<16, 10, 1), 86400, Settled)
	var a Accumulator
	b.ResetTimer()
	for i := range b.N {
		a.Add(items[i&(1<<16-1)])
	}
}

func BenchmarkKaplanMeierAccumulator(b *testing.B) {
	r := rand.New(rand.NewPCG(43, 44))
	a := accumulate(window(r, lognormalAges(r, 100000, 10, 1), 3600, Settled))
	b.ResetTimer()
	for range b.N {
		a.Survival()
	}
}

func BenchmarkDensity(b *testing.B) {
	r := rand.New(rand.NewPCG(45, 46))
	ages := append(lognormalAges(r, 60000, 2, 0.4), lognormalAges(r, 40000, 40, 0.5)...)
	s := accumulate(window(r, ages, 600, Settled)).Survival()
	b.ResetTimer()
	for range b.N {
		Density(s, DensityOptions{})
	}
}

func BenchmarkDistCDF(b *testing.B) {
	r := rand.New(rand.NewPCG(47, 48))
	ages := lognormalAges(r, 10000, 10, 1)
	d := Density(KaplanMeier(ages, trues(len(ages)), nil), DensityOptions{})
	b.ResetTimer()
	x := 0.0
	for i := range b.N {
		x += d.CDF(float64(i%1000) * 0.1)
	}
	_ = x
}

func BenchmarkPeriodicity(b *testing.B) {
	r := rand.New(rand.NewPCG(49, 50))
	a := accumulate(batchLog(r, 100000, 0.5, 300, 2, 3))
	b.ResetTimer()
	for range b.N {
		Periodicity(a, PeriodOptions{})
	}
}

// BenchmarkSketchAdd adds a million lognormal items with creation times
// (ages from 0.1 s to 10 min and beyond: the bins of four decades) one
// by one to a sketch holding out 30%; BenchmarkSketchAddRun adds the
// same in runs of 4096, as the readers' sinks do.
func BenchmarkSketchAdd(b *testing.B) {
	items := sketchBenchItems()
	s, _ := NewSketch(0.3, 1)
	b.ResetTimer()
	for i := range b.N {
		s.Add(items[i&(len(items)-1)], 1)
	}
}

func BenchmarkSketchAddRun(b *testing.B) {
	items := sketchBenchItems()
	ws := make([]float64, 4096)
	for i := range ws {
		ws[i] = 1
	}
	s, _ := NewSketch(0.3, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i += len(ws) {
		j := i & (len(items) - 1)
		s.AddRun(items[j:j+len(ws)], ws)
	}
}

func sketchBenchItems() []Item {
	r := rand.New(rand.NewPCG(41, 42))
	return window(r, lognormalAges(r, 1<<20, 10, 1.5), 86400, Settled)
}
