package estimate

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// A Smoother keeps the log's deadline apart (the one planted at 60 s,
// as Deadlines finds it) at every bandwidth, and its densities, made on
// five goroutines at once, are those made one at a time from the
// Kaplan–Meier estimate: the work it shares is not changed by its use.
func TestSmoother(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	s := accumulate(deadlineLog(r, 20000, 0.3, 60)).Survival()
	sm := NewSmoother(s, DensityOptions{})
	found := Deadlines(s, DeadlineOptions{})
	if got := sm.Deadlines(); len(got) != 1 || len(found) != 1 || got[0] != found[0] || got[0].Age != 60 {
		t.Fatalf("deadlines %+v, want Deadlines' %+v, one at 60 s", got, found)
	}
	bws := []float64{0.02, 0.05, 0.1, 0.2, 0.4}
	dists := make([]*Dist, len(bws))
	var wg sync.WaitGroup
	for i, h := range bws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dists[i] = sm.Density(h)
		}()
	}
	wg.Wait()
	for i, h := range bws {
		want := Density(s, DensityOptions{Bandwidth: h})
		d := dists[i]
		if bw, _ := d.Bandwidth(); bw != h {
			t.Errorf("bandwidth %g, want %g", bw, h)
		}
		if a := d.Atoms(); len(a) != 1 || a[0] != found[0] {
			t.Errorf("bandwidth %g: atoms %+v, want %+v", h, a, found)
		}
		for _, x := range []float64{0.5, 3, 20, 59, 61, 200} {
			if d.PDF(x) != want.PDF(x) || d.CDF(x) != want.CDF(x) {
				t.Errorf("bandwidth %g at %g s: PDF %g, CDF %g; want %g, %g", h, x, d.PDF(x), d.CDF(x), want.PDF(x), want.CDF(x))
			}
		}
	}
}
