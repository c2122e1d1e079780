package plot

import (
	"math"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

// itemLags is the lags that lagCurves draws for unweighted items
// (fit.SampleLags); ok is false where it cannot say.
func itemLags(s *schedule.Schedule, items []estimate.Item, horizon time.Duration) ([]float64, bool) {
	lags, _, err := fit.SampleLags(s, fit.ItemSample(items), horizon)
	return lags, err == nil
}

func TestItemLagsByHand(t *testing.T) {
	s := mustParse(t, "at 0s 10s 20s")
	its := []estimate.Item{
		{Age: 5, Status: estimate.Settled},  // seen at 10: lag 5
		{Age: 10, Status: estimate.Failed},  // seen at 10: lag 0
		{Age: 25, Status: estimate.Settled}, // missed
		{Age: 3, Status: estimate.Pending},  // no lag
	}
	lags, ok := itemLags(s, its, 20*time.Second)
	if !ok || !slices.Equal(lags, []float64{5, 0}) {
		t.Errorf("lags %v %v, want [5 0]", lags, ok)
	}
	// A horizon before the ask at 10 s misses both.
	if lags, _ := itemLags(s, its, 9*time.Second); len(lags) != 0 {
		t.Errorf("lags %v within 9s, want none", lags)
	}
	// A signal at 7 s restarts "at 0s 10s 20s" there: asks at 7, 17, 27.
	// The answer at 5 s is seen at 7 s (before the restart only 0 s and
	// the ask at the signal come by then), the one at 10 s at 17 s.
	sig := append([]estimate.Item(nil), its...)
	sig[0], sig[1] = sig[0].WithSignal(7), sig[1].WithSignal(7)
	lags, ok = itemLags(mustParse(t, "at 0s 10s 20s, reset on signal"), sig, 30*time.Second)
	if !ok || !slices.Equal(lags, []float64{2, 7}) {
		t.Errorf("lags with a signal %v %v, want [2 7]", lags, ok)
	}
	// Aligned asks need creation times.
	if _, ok := itemLags(mustParse(t, "1s, every 1m at +1s"), its, time.Minute); ok {
		t.Error("aligned asks without creation times: ok")
	}
}

// TestItemLagsMatchReplay checks the per-item lags against fit.Replay's
// count and nearest-rank percentiles, computed there by another route.
func TestItemLagsMatchReplay(t *testing.T) {
	batch := loggen.Items(loggen.Rows(loggen.Batch, 2000, 11))
	pay := loggen.Items(loggen.Rows(loggen.Payments, 2000, 12)) // with signals
	for _, c := range []struct {
		its []estimate.Item
		src string
	}{
		{batch, "10s"}, {batch, "1s until 30s, 5s until 5m"}, {batch, "at 0s 7s 30s 2m"},
		{batch, "30s, every 5m at +4s +8s until 1h"}, {batch, "every 1m at +3s, at 0s 1s"},
		{pay, "2s until 30s, 10s, reset on signal"}, {pay, "at 1s 3s, 5s until 1m, 30s, reset on signal"},
		{pay, "5s, every 1m at +2s, reset on signal"},
	} {
		its, src := c.its, c.src
		s := mustParse(t, src)
		m, err := fit.Replay(s, its, fit.ReplayOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lags, ok := itemLags(s, its, m.Horizon)
		if !ok || float64(len(lags)) != m.Detected {
			t.Errorf("%s: %d lags, replay detected %.0f", src, len(lags), m.Detected)
			continue
		}
		sort.Float64s(lags)
		rank := func(p float64) float64 { return lags[max(int(math.Ceil(p*float64(len(lags)))), 1)-1] }
		sum := 0.0
		for _, l := range lags {
			sum += l
		}
		got := fit.LagStats{Mean: sum / float64(len(lags)), P50: rank(0.5), P90: rank(0.9), P95: rank(0.95), P99: rank(0.99), Max: lags[len(lags)-1]}
		for _, c := range []struct {
			name string
			a, b float64
		}{{"mean", got.Mean, m.Lag.Mean}, {"p50", got.P50, m.Lag.P50}, {"p90", got.P90, m.Lag.P90}, {"p99", got.P99, m.Lag.P99}, {"max", got.Max, m.Lag.Max}} {
			if math.Abs(c.a-c.b) > 1e-9*max(1, c.b) {
				t.Errorf("%s: %s lag %g, replay %g", src, c.name, c.a, c.b)
			}
		}
	}
}

func TestPercentileCurve(t *testing.T) {
	x, y := percentileCurve(fit.LagStats{Mean: 2, P50: 1, P90: 3, P95: math.NaN(), P99: 5, Max: 9})
	if !slices.Equal(x, []float64{1, 3, 5, 9}) || !slices.Equal(y, []float64{0.5, 0.9, 0.99, 1}) {
		t.Errorf("curve %v %v", x, y)
	}
}

func mustParse(t *testing.T, src string) *schedule.Schedule {
	t.Helper()
	s, err := schedule.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLagCurvesFromBins: on a weighted sample (a sketch's bins) the lag
// picture is each bin's lag stepping up by its count's share, worked by
// hand, not the five replayed percentiles it was.
func TestLagCurvesFromBins(t *testing.T) {
	s := mustParse(t, "at 0s 10s 20s")
	smp := fit.Sample{Items: []estimate.Item{
		{Age: 5, Status: estimate.Settled},  // seen at 10: lag 5, weight 3
		{Age: 12, Status: estimate.Failed},  // seen at 20: lag 8, weight 1
		{Age: 9, Status: estimate.Settled},  // seen at 10: lag 1, weight 0 (left out)
		{Age: 25, Status: estimate.Settled}, // missed
		{Age: 18, Status: estimate.Settled}, // seen at 20: lag 2, weight 4
	}, Weights: []float64{3, 1, 0, 2, 4}}
	m, err := fit.ReplaySample(s, smp, fit.ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cs := lagCurves([]fit.Metrics{m}, []*schedule.Schedule{s}, smp)
	// Lags 2 (4), 5 (3), 8 (1) of 8 detected: 0.5, 0.875, 1.
	if len(cs) != 1 || !cs[0].Steps || !slices.Equal(cs[0].X, []float64{2, 5, 8}) || !slices.Equal(cs[0].Y, []float64{0.5, 0.875, 1}) {
		t.Errorf("curves %+v, want steps at 2, 5, 8 to 0.5, 0.875, 1", cs)
	}
	x, y := WeightedECDF([]float64{3, 1, 3, math.NaN()}, []float64{1, 2, 1, 5})
	if !slices.Equal(x, []float64{1, 3}) || !slices.Equal(y, []float64{0.5, 1}) {
		t.Errorf("WeightedECDF: %v %v, want [1 3] [0.5 1]", x, y)
	}
}
