package estimate

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestPeriodicityFound(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	cases := []struct {
		name                 string
		items                []Item
		period, phase, share float64
	}{
		// Half the items settle 2–5 s after each 5-minute boundary.
		{"5min", batchLog(r, 20000, 0.5, 300, 2, 3), 300, 3.5, 0.5},
		{"5min small", batchLog(r, 2000, 0.3, 300, 2, 3), 300, 3.5, 0.3},
		{"1min", batchLog(r, 20000, 0.2, 60, 5, 2), 60, 6, 0.2},
		{"15min", batchLog(r, 20000, 0.4, 900, 10, 20), 900, 20, 0.4},
		// Whole-second timestamps do not hide a real 10-minute batch.
		{"10min rounded", roundLog(batchLog(r, 20000, 0.5, 600, 30, 10), 1), 600, 34.5, 0.5},
	}
	for _, c := range cases {
		p := Periodicity(accumulate(c.items), PeriodOptions{})
		if p == nil {
			t.Errorf("%s: no period, want %v s", c.name, c.period)
			continue
		}
		if p.Period != c.period || !near(p.Phase, c.phase, 1.5) || !near(p.Share, c.share, 0.05) || p.PValue > 1e-3 {
			t.Errorf("%s: %+v, want period %v phase ≈ %v share ≈ %v", c.name, *p, c.period, c.phase, c.share)
		}
	}
}

// A batch seen through business hours (08:00–20:00 UTC), handling 60%
// of the morning's answers and 30% of the afternoon's, is still found.
func TestPeriodicityBusinessHours(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 38))
	var items []Item
	for range 20000 {
		h := 8 + 12*r.Float64()
		c := genStart + int64(r.IntN(3))*86400e9 + int64(h*3600e9)
		age := 20 * math.Exp(0.8*r.NormFloat64())
		if share := map[bool]float64{true: 0.6, false: 0.3}[h < 14]; r.Float64() < share {
			next := (c/300e9 + 1) * 300e9
			age = float64(next-c)/1e9 + 2 + 3*r.Float64()
		}
		items = append(items, Item{Age: age, Status: Settled, Created: c, Dated: true})
	}
	p := Periodicity(accumulate(items), PeriodOptions{})
	if p == nil || p.Period != 300 || !near(p.Phase, 3.5, 1.5) || !near(p.Share, 0.45, 0.05) {
		t.Errorf("found %+v, want 300 s, phase ≈ 3.5 s, share ≈ 0.45", p)
	}
}

func TestPeriodicityNotFound(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	cases := map[string][]Item{
		"none":          batchLog(r, 20000, 0, 300, 2, 3),
		"seconds":       roundLog(batchLog(r, 20000, 0, 300, 2, 3), 1),
		"minutes":       roundLog(batchLog(r, 20000, 0, 300, 2, 3), 60),
		"few":           batchLog(r, 20, 0.5, 300, 2, 3),
		"tiny but many": batchLog(r, 400000, 0.01, 300, 2, 3),
	}
	for name, items := range cases {
		if p := Periodicity(accumulate(items), PeriodOptions{}); p != nil {
			t.Errorf("%s: found %+v, want none", name, *p)
		}
	}
	// Traffic in a daily burst, 10:00–12:30 or 10:00–11:10 UTC, is far
	// from uniform within 45 minutes or an hour, but it is no batch.
	for _, hours := range []float64{2.5, 70.0 / 60} {
		var burst []Item
		for range 300000 {
			c := genStart + int64(r.IntN(5))*86400e9 + int64((10+r.Float64()*hours)*3600e9)
			burst = append(burst, Item{Age: 20 * math.Exp(0.8*r.NormFloat64()), Status: Settled, Created: c, Dated: true})
		}
		if p := Periodicity(accumulate(burst), PeriodOptions{}); p != nil {
			t.Errorf("daily burst of %.2f h: found %+v, want none", hours, *p)
		}
	}
	// Without creation times there is nothing to test.
	items := batchLog(r, 2000, 0.5, 300, 2, 3)
	for i := range items {
		items[i].Dated = false
	}
	if p := Periodicity(accumulate(items), PeriodOptions{}); p != nil {
		t.Errorf("no creation times: found %+v", *p)
	}
}

func TestTimestampResolution(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	items := batchLog(r, 1000, 0, 300, 2, 3)
	for unit, want := range map[float64]float64{60: 60, 1: 1, 0.1: 0.1, 0.001: 0} {
		if got := accumulate(roundLog(items, unit)).TimestampResolution(); got != want {
			t.Errorf("rounded to %v s: resolution %v, want %v", unit, got, want)
		}
	}
}

// An accumulator fed by AddPhase alone finds the period, and the
// timestamps' resolution, that one fed every item finds: on batch logs
// and a smooth one, rounded to whole seconds and not, with pending
// items, failures and items without a creation time among them.
func TestAddPhaseIsPeriodicitysPart(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 38))
	for k, items := range [][]Item{batchLog(r, 3000, 0.6, 300, 2, 3), roundLog(batchLog(r, 3000, 0.5, 60, 1, 0), 1), batchLog(r, 3000, 0, 300, 2, 3)} {
		for i := range items {
			switch i % 7 {
			case 1:
				items[i].Status = Pending
			case 2:
				items[i].Status = Failed
			case 3:
				items[i].Created, items[i].Dated = 0, false
			}
		}
		full, phase := accumulate(items), new(Accumulator)
		for _, it := range items {
			phase.AddPhase(it, 1)
		}
		pf, pp := Periodicity(full, PeriodOptions{}), Periodicity(phase, PeriodOptions{})
		if !reflect.DeepEqual(pf, pp) || full.TimestampResolution() != phase.TimestampResolution() {
			t.Errorf("log %d: every item gives %+v (resolution %v), the phases alone %+v (%v)", k, pf, full.TimestampResolution(), pp, phase.TimestampResolution())
		}
		if k == 0 && pf == nil {
			t.Errorf("log %d: no period found in a batch log", k)
		}
	}
}
