package fit

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

// randomWeights gives each item a whole weight in [0, 4], at least one
// positive, and returns the log with each item repeated weight times.
func randomWeights(items []estimate.Item, seed uint64) (Sample, []estimate.Item) {
	r := rand.New(rand.NewPCG(seed, 7))
	smp := Sample{Items: items, Weights: make([]float64, len(items))}
	var rep []estimate.Item
	for i, it := range items {
		w := r.IntN(5)
		if i == 0 {
			w = max(w, 1)
		}
		smp.Weights[i] = float64(w)
		for range w {
			rep = append(rep, it)
		}
	}
	return smp, rep
}

// TestReplaySampleEqualsRepeated checks that a weighted sample replays as
// the log with each item repeated weight times: counts, requests and lag
// percentiles exactly, the mean lag to rounding.
func TestReplaySampleEqualsRepeated(t *testing.T) {
	dsls := []string{
		"1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m",
		"at 0s 3s 8s 16s 29s, 15s until 2m, 30s",
		"2s until 1m, 10s, reset on signal",
		"5s until 2m, every 1m at +2s +20s until 10m",
	}
	for seed := uint64(1); seed <= 4; seed++ {
		items := loggen.Items(loggen.Rows(loggen.Payments, 400, seed))
		smp, rep := randomWeights(items, seed)
		for _, dsl := range dsls {
			s, err := schedule.Parse(dsl)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range []time.Duration{0, 45 * time.Second} {
				opt := ReplayOptions{Horizon: h, AsksBy: []time.Duration{30 * time.Second, 2 * time.Minute}}
				got, err1 := ReplaySample(s, smp, opt)
				want, err2 := Replay(s, rep, opt)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s: %v, %v", dsl, err1, err2)
				}
				if got.Items != float64(len(rep)) {
					t.Errorf("%s h=%v: items %v, want %d", dsl, h, got.Items, len(rep))
				}
				if d := math.Abs(got.Lag.Mean - want.Lag.Mean); d > 1e-12*want.Lag.Mean {
					t.Errorf("%s h=%v: mean lag %v, repeated log %v", dsl, h, got.Lag.Mean, want.Lag.Mean)
				}
				got.Lag.Mean = want.Lag.Mean
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s h=%v: weighted\n%+v\nrepeated\n%+v", dsl, h, got, want)
				}
			}
		}
	}
}

// TestPredictSampleEqualsRepeated checks the weighted law against the
// repeated log: PredictSample against PredictItems.
func TestPredictSampleEqualsRepeated(t *testing.T) {
	items := loggen.Items(loggen.Rows(loggen.Payments, 600, 9))
	smp, rep := randomWeights(items, 9)
	asks := []float64{0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610}
	got, want := PredictSample(smp, asks), PredictItems(rep, asks)
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }
	if !close(got.RequestsPerItem, want.RequestsPerItem) || !close(got.Detected, want.Detected) || !close(got.Lag.Mean, want.Lag.Mean) {
		t.Errorf("weighted %+v\nrepeated %+v", got, want)
	}
	gl, wl := got.Lag, want.Lag
	gl.Mean, wl.Mean = 0, 0
	if gl != wl {
		t.Errorf("lag percentiles: weighted %+v, repeated %+v", gl, wl)
	}
}

// TestReplaySampleByHand replays a weighted sample worked by hand under
// "at 10s 30s" (horizon 30 s):
//
//	final at  9 s, weight 5: seen at 10, lag 1, 1 ask
//	final at  8 s, weight 2: seen at 10, lag 2, 1 ask
//	final at  7 s, weight 2: seen at 10, lag 3, 1 ask
//	final at 20 s, weight 1: seen at 30, lag 10, 2 asks
//	pending at 25 s, weight 3: 1 ask
//	final at 35 s, weight 4: missed, 2 asks
//
// Items 17: 10 seen, 4 missed, 3 pending; requests 5+2+2+2+3+8 = 22.
// Lags sorted with cumulative weights 1:5, 2:7, 3:9, 10:10. Mean
// (5+4+6+10)/10 = 2.5; p50 is the first to reach 5 (1), p90 the first to
// reach 9 (3), p95 and p99 need 9.5 and 9.9 (10). With every weight 1
// the percentiles are the plain nearest ranks of 1 2 3 10 and 25, 35.
func TestReplaySampleByHand(t *testing.T) {
	s, err := schedule.Parse("at 10s 30s")
	if err != nil {
		t.Fatal(err)
	}
	it := func(age float64, st estimate.Status) estimate.Item {
		return estimate.Item{Age: age, Status: st}
	}
	fin := func(age float64) estimate.Item { return it(age, estimate.Settled) }
	items := []estimate.Item{fin(7), fin(20), fin(9), it(25, estimate.Pending), fin(35), fin(8)}
	smp := Sample{Items: items, Weights: []float64{2, 1, 5, 3, 4, 2}}
	m, err := ReplaySample(s, smp, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Items != 17 || m.Detected != 10 || m.Missed != 4 || m.Pending != 3 || m.Horizon != 30*time.Second {
		t.Errorf("items/seen/missed/pending %v/%v/%v/%v horizon %v, want 17/10/4/3 30s", m.Items, m.Detected, m.Missed, m.Pending, m.Horizon)
	}
	if want := 22.0 / 17; math.Abs(m.RequestsPerItem-want) > 1e-15 {
		t.Errorf("requests per item %v, want %v", m.RequestsPerItem, want)
	}
	if want := (LagStats{Mean: 2.5, P50: 1, P90: 3, P95: 10, P99: 10, Max: 10}); m.Lag != want {
		t.Errorf("lags %+v, want %+v", m.Lag, want)
	}
	b, err := json.Marshal(m)
	if err != nil || !strings.Contains(string(b), `"items":17,"detected":10,"missed":4,"pending":3,`) {
		t.Errorf("json %s (%v): want whole counts", b, err)
	}
	// Every weight 1: lags 1 2 3 10, nearest ranks 2nd (p50) and 4th.
	m, _ = ReplaySample(s, ItemSample(items), ReplayOptions{})
	if want := (LagStats{Mean: 4, P50: 2, P90: 10, P95: 10, P99: 10, Max: 10}); m.Lag != want || m.Items != 6 {
		t.Errorf("unweighted lags %+v on %v items, want %+v on 6", m.Lag, m.Items, want)
	}
}

// TestWeightedLagStatsTies checks cumulative weights that land exactly
// on p × total, and weights that are not whole.
func TestWeightedLagStatsTies(t *testing.T) {
	// Total 4: p50 needs 2, reached exactly at lag 2; p90 3.6 → lag 3.
	l := weightedLagStats([]float64{3, 1, 2}, []float64{2, 1, 1})
	if want := (LagStats{Mean: 9.0 / 4, P50: 2, P90: 3, P95: 3, P99: 3, Max: 3}); l != want {
		t.Errorf("got %+v, want %+v", l, want)
	}
	// Total 1: 0.5 at 1 s, 0.45 at 2 s, 0.05 at 4 s: p50 1, p90 2, p99 4
	// (p95 sits on the rounding of 0.5 + 0.45, so it is not checked).
	l = weightedLagStats([]float64{4, 2, 1}, []float64{0.05, 0.45, 0.5})
	if l.P50 != 1 || l.P90 != 2 || l.P99 != 4 || math.Abs(l.Mean-1.6) > 1e-12 {
		t.Errorf("fractional weights: %+v", l)
	}
}

// TestReplaySampleRejects checks weights that do not fit the items.
func TestReplaySampleRejects(t *testing.T) {
	s, _ := schedule.Parse("1s")
	items := []estimate.Item{{Age: 1, Status: estimate.Settled}, {Age: 2, Status: estimate.Settled}}
	for _, w := range [][]float64{{1}, {1, -1}, {1, math.NaN()}} {
		if _, err := ReplaySample(s, Sample{Items: items, Weights: w}, ReplayOptions{}); err == nil {
			t.Errorf("weights %v: no error", w)
		}
	}
}

// TestLargestFinalAgeSample checks that items of weight 0 do not count.
func TestLargestFinalAgeSample(t *testing.T) {
	items := []estimate.Item{{Age: 5, Status: estimate.Settled}, {Age: 9, Status: estimate.Settled}, {Age: 20, Status: estimate.Pending}}
	if got := LargestFinalAgeSample(Sample{Items: items, Weights: []float64{1, 0, 2}}); got != 5*time.Second {
		t.Errorf("got %v, want 5s", got)
	}
	if got := LargestFinalAge(items); got != 9*time.Second {
		t.Errorf("unweighted: got %v, want 9s", got)
	}
	if !slices.Equal(ItemSample(items).Items, items) || ItemSample(items).Total() != 3 {
		t.Error("ItemSample")
	}
}

// An unweighted sample joined to a weighted one counts its items once
// each; two unweighted ones stay unweighted.
func TestJoinSamples(t *testing.T) {
	a := Sample{Items: []estimate.Item{{Age: 1}, {Age: 2}}, Weights: []float64{3, 0.5}}
	b := Sample{Items: []estimate.Item{{Age: 4}}}
	j := JoinSamples(a, b)
	if j.Len() != 3 || j.Items[2].Age != 4 || !slices.Equal(j.Weights, []float64{3, 0.5, 1}) || j.Total() != 4.5 {
		t.Errorf("joined %+v", j)
	}
	if u := JoinSamples(b, b); u.Weighted() || u.Len() != 2 {
		t.Errorf("two unweighted samples joined: %+v", u)
	}
}
