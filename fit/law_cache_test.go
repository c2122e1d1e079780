package fit

import (
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

// TestLawCacheSameLaw: a law from the cache is the law made from the
// sample (or its cut) there and then, array for array and bit for bit,
// is made once per key, and is not served for another sample that only
// looks the same: a copy of the items, or the same items under other
// weights (a bootstrap's resample).
func TestLawCacheSameLaw(t *testing.T) {
	items := loggen.Items(loggen.Rows(loggen.Batch, 3000, 7))
	ws := make([]float64, len(items))
	for i := range ws {
		ws[i] = 1 + float64(i%5)/4
	}
	smp := Sample{Items: items, Weights: ws}
	c := newLawCache(smp)
	seen := alignedSeen(5*time.Minute, 3500*time.Millisecond, 5*time.Minute+4*time.Second)
	key := alignedKey(5*time.Minute, 3500*time.Millisecond, 5*time.Minute+4*time.Second)
	builds := 0
	cut := func() Sample { builds++; return cutSample(smp, seen) }
	got := c.law(smp, key, cut)
	if again := c.law(smp, key, cut); again != got || builds != 1 {
		t.Errorf("second ask for one key: made %d times, same law %v; want once, the same", builds, again == got)
	}
	if want := newSampleLaw(cutSample(smp, seen)); !reflect.DeepEqual(got, want) {
		t.Error("the cached cut's law differs from the one made from the cut")
	}
	if whole := sampleLaw(smp, Options{laws: c}); !reflect.DeepEqual(whole, newSampleLaw(smp)) || whole == got {
		t.Error("the sample's own law from the cache differs from newSampleLaw's, or is the cut's")
	}
	// The cut makes pending exactly the answers seen, but the latest.
	n := 0
	for _, it := range cutSample(smp, seen).Items {
		if !it.Status.Final() {
			n++
		}
	}
	want := 0
	var finals []estimate.Item
	for _, it := range items {
		if !it.Status.Final() || seen(it) {
			want++
		}
		if it.Status.Final() {
			finals = append(finals, it)
		}
	}
	if latest := slices.MaxFunc(finals, func(a, b estimate.Item) int { return cmpFloat(a.Age, b.Age) }); seen(latest) {
		want-- // the latest answer stays
	}
	if n != want {
		t.Errorf("cut has %d pending items, want %d", n, want)
	}
	other := []Sample{
		{Items: slices.Clone(items), Weights: ws},
		{Items: items, Weights: slices.Clone(ws)},
		{Items: items[1:], Weights: ws[1:]},
		{Items: items},
	}
	for i, o := range other {
		if c.holds(o) {
			t.Errorf("sample %d: the cache claims a sample it was not made for", i)
		}
	}
}

// TestStudyFitsSameWithCache: the fits a study makes from its cached laws
// (the main fit with its batch shape) are the fits FitSample and
// WithBatches make with no cache, to the bit, at two budgets that share
// the batch cuts.
func TestStudyFitsSameWithCache(t *testing.T) {
	items := loggen.Items(loggen.Rows(loggen.Batch, 4000, 3))
	smp := ItemSample(items)
	p := periodOf(items)
	if p == nil {
		t.Fatal("no period found in the batch log")
	}
	c := newLawCache(smp)
	for _, b := range []float64{6, 9, 6} {
		plain := Options{Budget: Budget{RequestsPerItem: b}, Horizon: 15 * time.Minute}
		cached := plain
		cached.laws = c
		var shapes [2]Shape
		for k, o := range []Options{plain, cached} {
			res, err := FitSample(smp, o)
			if err != nil {
				t.Fatal(err)
			}
			if shapes[k], err = WithBatches(smp, p, res, o); err != nil {
				t.Fatal(err)
			}
		}
		a, z := shapes[0], shapes[1]
		if schedule.Format(a.Schedule) != schedule.Format(z.Schedule) || !sameMetrics(a.Shaped, z.Shaped) || !sameMetrics(a.Plain, z.Plain) || a.Paid != z.Paid {
			t.Errorf("budget %v: with the cache %q (lag %v), without %q (lag %v)", b, schedule.Format(z.Schedule), z.Shaped.Lag.Mean, schedule.Format(a.Schedule), a.Shaped.Lag.Mean)
		}
	}
	if c.laws.len() < 2 {
		t.Errorf("the cache holds %d laws after fits with batch shapes; want the sample's and its cuts'", c.laws.len())
	}
}

// sameMetrics compares two replays' figures bit for bit (NaN lags equal).
func sameMetrics(a, b Metrics) bool {
	same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	return a.Schedule == b.Schedule && same(a.Lag.Mean, b.Lag.Mean) && same(a.Lag.P95, b.Lag.P95) &&
		same(a.RequestsPerItem, b.RequestsPerItem) && same(a.Detected, b.Detected)
}
