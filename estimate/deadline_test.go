package estimate

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDeadlinesFound(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	items := deadlineLog(r, 20000, 0.3, 60)
	for name, s := range map[string]*Survival{
		"slices":      kmItems(items),
		"accumulator": accumulate(items).Survival(),
	} {
		d := Deadlines(s, DeadlineOptions{})
		// The share is the KM mass at 60 s above the lognormal background,
		// which puts well under 0.1% into ±0.6 s there.
		if len(d) != 1 || d[0].Age != 60 || !near(d[0].Share, 0.3, 0.015) {
			t.Errorf("%s: deadlines %+v, want one at 60 s with share ≈ 0.3", name, d)
		}
	}
	// Jittered timeouts (60.0–60.3 s) and ages rounded to whole seconds.
	items = deadlineLog(r, 20000, 0.2, 60)
	for i := range items {
		if items[i].Status == Failed {
			items[i].Age += 0.3 * r.Float64()
		}
	}
	d := Deadlines(accumulate(items).Survival(), DeadlineOptions{})
	if len(d) != 1 || !near(d[0].Age, 60.15, 0.05) || !near(d[0].Share, 0.2, 0.015) {
		t.Errorf("jittered: deadlines %+v, want one at ≈ 60.15 s", d)
	}
	for i := range items {
		items[i].Age = math.Floor(items[i].Age)
	}
	d = Deadlines(accumulate(items).Survival(), DeadlineOptions{})
	if len(d) != 1 || d[0].Age != 60 || !near(d[0].Share, 0.2, 0.015) {
		t.Errorf("rounded: deadlines %+v, want one at 60 s", d)
	}
}

func TestDeadlinesNotFound(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	fin := func(ages []float64) *Survival { return KaplanMeier(ages, trues(len(ages)), nil) }
	round := func(ages []float64, unit float64) []float64 {
		for i := range ages {
			ages[i] = unit * math.Round(ages[i]/unit)
		}
		return ages
	}
	cases := map[string]*Survival{
		// A card payment mode at 2 s and a mobile-money mode at 30 s.
		"broad modes": fin(append(lognormalAges(r, 10000, 2, 0.4), lognormalAges(r, 10000, 30, 0.3)...)),
		"narrow mode": fin(lognormalAges(r, 20000, 30, 0.06)),
		"seconds":     fin(round(lognormalAges(r, 20000, 10, 0.5), 1)),
		"minutes":     fin(round(lognormalAges(r, 20000, 600, 0.7), 60)),
		// A mode narrower than the rounding: at 7 s whole seconds cannot
		// tell it from a timeout.
		"narrow rounded": fin(round(lognormalAges(r, 20000, 7.2, 0.04), 1)),
		"small spike":    kmItems(deadlineLog(r, 20000, 0.005, 60)),
		// Histogram input: counts at the bins' geometric midpoints.
		"histogram": KaplanMeier([]float64{0.5, 1.41, 3.16, 7.07, 17.3, 42.4, 60},
			[]bool{true, true, true, true, true, true, false},
			[]float64{100, 300, 800, 600, 400, 150, 50}),
	}
	for name, s := range cases {
		if d := Deadlines(s, DeadlineOptions{}); len(d) != 0 {
			t.Errorf("%s: deadlines %+v, want none", name, d)
		}
	}
}
