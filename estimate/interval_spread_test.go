package estimate

import (
	"math"
	"testing"
)

func setOf(t *testing.T, ivs ...Interval) *IntervalSet {
	t.Helper()
	s := &IntervalSet{}
	for _, iv := range ivs {
		if err := s.Add(iv); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestSpreadUniform: without a density, (2, 6] of weight 4 spread over
// 4 nodes is the midpoints of its quarters, 2.5 … 5.5, weight 1 each;
// an exact age stays one settled item, a pending interval one pending
// item at its lower end.
func TestSpreadUniform(t *testing.T) {
	s := setOf(t, Interval{Lo: 2, Hi: 6, W: 4}, Interval{Lo: 3, Hi: 3, W: 2}, Interval{Lo: 5, Hi: math.Inf(1), W: 1})
	items, w, spread := s.Spread(nil, 4)
	want := []struct {
		age, w float64
		st     Status
	}{{2.5, 1, Settled}, {3.5, 1, Settled}, {4.5, 1, Settled}, {5.5, 1, Settled}, {3, 2, Settled}, {5, 1, Pending}}
	if len(items) != len(want) || spread != 4 {
		t.Fatalf("%d items, spread %v: %v", len(items), spread, items)
	}
	for i, it := range items {
		if math.Abs(it.Age-want[i].age) > 1e-12 || w[i] != want[i].w || it.Status != want[i].st {
			t.Errorf("item %d: age %v weight %v %v, want %v %v %v", i, it.Age, w[i], it.Status, want[i].age, want[i].w, want[i].st)
		}
	}
}

// TestSpreadQuantiles: under a density, node k of n sits where the
// density's mass from Lo is (k + ½)/n of the interval's (checked with
// CDF), inside (Lo, Hi]; (0, R] intervals too.
func TestSpreadQuantiles(t *testing.T) {
	s := setOf(t, Interval{Lo: 0, Hi: 1, W: 3}, Interval{Lo: 1, Hi: 3, W: 5}, Interval{Lo: 3, Hi: 8, W: 4}, Interval{Lo: 8, Hi: math.Inf(1), W: 1})
	tb, err := s.Turnbull(TurnbullOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := tb.Density(DensityOptions{})
	for _, iv := range [][2]float64{{0, 1}, {1, 3}, {3, 8}} {
		nodes := spreadNodes(d, iv[0], iv[1], 8)
		cLo, cHi := d.CDF(iv[0]), d.CDF(iv[1])
		for k, x := range nodes {
			if !(x > iv[0] && x <= iv[1]) {
				t.Errorf("(%v, %v]: node %d at %v, outside", iv[0], iv[1], k, x)
			}
			if got, want := (d.CDF(x)-cLo)/(cHi-cLo), (float64(k)+0.5)/8; math.Abs(got-want) > 1e-6 {
				t.Errorf("(%v, %v]: node %d at %v holds %.8f of the mass below it, want %.8f", iv[0], iv[1], k, x, got, want)
			}
		}
	}
}

// TestSplitIntervals: a split keeps every interval's weight, whole; the
// same seed gives the same split; frac 0 holds nothing out; of 10000
// items, 30% ± 4σ (σ = √(10000·0.3·0.7) ≈ 46) are held out.
func TestSplitIntervals(t *testing.T) {
	s := setOf(t, Interval{Lo: 1, Hi: 2, W: 10000}, Interval{Lo: 2, Hi: 5, W: 7.5}, Interval{Lo: 5, Hi: math.Inf(1), W: 40})
	a, b := s.Split(0.3, 9)
	a2, b2 := s.Split(0.3, 9)
	for _, iv := range s.Intervals() {
		k := [2]float64{iv.Lo, iv.Hi}
		if got := a.w[k] + b.w[k]; math.Abs(got-iv.W) > 1e-9 {
			t.Errorf("(%v, %v]: split into %v + %v, want %v", iv.Lo, iv.Hi, a.w[k], b.w[k], iv.W)
		}
		if a.w[k] != a2.w[k] || b.w[k] != b2.w[k] {
			t.Errorf("(%v, %v]: the same seed split differently", iv.Lo, iv.Hi)
		}
	}
	if h := b.w[[2]float64{1, 2}]; math.Abs(h-3000) > 4*45.83 || h != math.Floor(h) {
		t.Errorf("held out %v of 10000, want a whole number near 3000", h)
	}
	if a0, b0 := s.Split(0, 9); b0.Len() != 0 || a0.Len() != 3 {
		t.Errorf("frac 0: %d held-out intervals, %d fitting", b0.Len(), a0.Len())
	}
}

// TestIntervalBandwidth: the weighted median log-width over finite
// intervals with Lo > 0 is log(e²/1) = 2 here (weights 1 and 3 for
// widths 1 and 2; (0, 1] and the pending interval do not count), so the
// bandwidth is 2/√12; SpreadDensity's bandwidth is at least that.
func TestIntervalBandwidth(t *testing.T) {
	e := math.E
	s := setOf(t, Interval{Lo: 1, Hi: e, W: 1}, Interval{Lo: 1, Hi: e * e, W: 3}, Interval{Lo: 0, Hi: 1, W: 5}, Interval{Lo: 2, Hi: math.Inf(1), W: 1})
	if got, want := s.IntervalBandwidth(), 2/math.Sqrt(12); math.Abs(got-want) > 1e-12 {
		t.Errorf("IntervalBandwidth %v, want %v", got, want)
	}
	tb, err := s.Turnbull(TurnbullOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := s.SpreadDensity(tb, DensityOptions{}).Bandwidth(); b < 2/math.Sqrt(12)-1e-12 {
		t.Errorf("SpreadDensity bandwidth %v, below %v", b, 2/math.Sqrt(12))
	}
	if (&IntervalSet{}).IntervalBandwidth() != 0 {
		t.Error("an empty set has a bandwidth")
	}
}
