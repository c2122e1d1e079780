package estimate

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"
)

// readRecords reads a whole CSV test file with encoding/csv, a reader
// independent of pollfit's own.
func readRecords(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// readTwoCols reads two numeric columns of a CSV test file.
func readTwoCols(t *testing.T, path, a, b string) (x, y []float64) {
	t.Helper()
	recs := readRecords(t, path)
	ia, ib := -1, -1
	for i, h := range recs[0] {
		switch h {
		case a:
			ia = i
		case b:
			ib = i
		}
	}
	for _, r := range recs[1:] {
		va, err1 := strconv.ParseFloat(r[ia], 64)
		vb, err2 := strconv.ParseFloat(r[ib], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: bad row %v", path, r)
		}
		x, y = append(x, va), append(y, vb)
	}
	return x, y
}

// TestRossi: every censored row is censored at week 52, after the last
// arrests, so S(t) = 1 − (arrests by t)/432 for every t, counted here.
func TestRossi(t *testing.T) {
	week, arrest := readTwoCols(t, "testdata/stats/rossi.csv", "week", "arrest")
	final := make([]bool, len(week))
	for i := range week {
		final[i] = arrest[i] == 1
		if !final[i] && week[i] != 52 {
			t.Fatalf("row %d censored at week %v, not 52", i+2, week[i])
		}
	}
	s := KaplanMeier(week, final, nil)
	for w := 0.0; w <= 53; w += 0.5 {
		n := 0
		for i := range week {
			if final[i] && week[i] <= w {
				n++
			}
		}
		if got, want := s.At(w), 1-float64(n)/432; !near(got, want, 1e-12) {
			t.Errorf("S(%v) = %v, want %v", w, got, want)
		}
	}
	if got := s.Never(); !near(got, 1-114.0/432, 1e-12) {
		t.Errorf("Never = %v, want 1 − 114/432", got)
	}
	// The 10% quantile: the first week by which 43.2 arrests have come.
	want, n := 0.0, 0
	for w := 1.0; w <= 52 && want == 0; w++ {
		for i := range week {
			if final[i] && week[i] == w {
				n++
			}
		}
		if float64(n) >= 43.2 {
			want = w
		}
	}
	if got := s.Quantile(0.1); got != want {
		t.Errorf("q10 = %v, want %v", got, want)
	}
	if got := s.Quantile(0.5); !math.IsNaN(got) {
		t.Errorf("median = %v, want not reached", got)
	}
}

// TestWaltons: lifetimes in days, checked every few days, so heavily
// tied: no deadline may come of the ties, and the smooth estimate must
// follow the Kaplan–Meier curve and keep its mass.
func TestWaltons(t *testing.T) {
	T, E := readTwoCols(t, "testdata/stats/waltons_dataset.csv", "T", "E")
	final := make([]bool, len(T))
	for i := range T {
		final[i] = E[i] == 1
	}
	s := KaplanMeier(T, final, nil)
	if s.Resolution < 2 {
		t.Errorf("resolution %v: the tied ages lie on a grid of a few days", s.Resolution)
	}
	if dl := Deadlines(s, DeadlineOptions{}); len(dl) != 0 {
		t.Errorf("deadlines %+v, want none", dl)
	}
	d := Density(s, DensityOptions{})
	if got := integratePDF(d, 1e-3, 1e4); !near(got, 1-s.Never(), 2e-3) {
		t.Errorf("∫f = %v, want %v", got, 1-s.Never())
	}
	// Halfway between checks the smooth CDF is near the step curve's
	// midpoint; 0.06 allows for the smoothing of 163 lifetimes.
	for _, x := range []float64{20, 40, 50, 57, 62, 65} {
		want := 1 - (s.At(x)+s.At(x-2))/2
		if got := d.CDF(x); !near(got, want, 0.06) {
			t.Errorf("CDF(%v) = %v, Kaplan–Meier ≈ %v", x, got, want)
		}
	}
	if m := d.Modes(0.05); len(m) == 0 || !near(m[0], 60, 6) {
		t.Errorf("modes %v, want the main one near 60 days", m)
	}
}
