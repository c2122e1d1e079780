package fit

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

// bruteAsks lists every ask made to an item up to limit straight from the
// definitions in the schedule package doc, with no Timeline: clause by
// clause, the restart at a signal, and aligned asks boundary by boundary.
func bruteAsks(s *schedule.Schedule, it estimate.Item, limit time.Duration) []time.Duration {
	var base []time.Duration
	prev := time.Duration(0)
	for i, c := range s.Clauses {
		if c.IsAt() {
			base = append(base, c.At...)
			prev = c.At[len(c.At)-1]
			continue
		}
		if i == 0 {
			base = append(base, 0)
		}
		for a := prev + c.Every; c.Forever && a <= limit || !c.Forever && a <= c.Until; a += c.Every {
			base = append(base, a)
			prev = a
		}
	}
	asks := base
	if s.ResetOnSignal && it.HasSignal() {
		g := time.Duration(math.Round(it.Signal * 1e9))
		asks = nil
		for _, a := range base {
			if a < g {
				asks = append(asks, a)
			}
		}
		asks = append(asks, g)
		for _, a := range base {
			if a > 0 {
				asks = append(asks, g+a)
			}
		}
	}
	for _, al := range s.Aligned {
		p := int64(al.Period)
		for k := it.Created/p - 2; ; k++ {
			done := true
			for _, o := range al.Offsets {
				age := time.Duration(k*p + int64(o) - it.Created)
				if age <= limit && (al.Until == 0 || age <= al.Until) {
					done = false
					if age >= 0 {
						asks = append(asks, age)
					}
				}
			}
			if done && k > it.Created/p {
				break
			}
		}
	}
	slices.Sort(asks)
	asks = slices.Compact(asks)
	n := 0
	for n < len(asks) && asks[n] <= limit {
		n++
	}
	return asks[:n]
}

// bruteReplay replays one item by scanning its ask list.
func bruteReplay(asks []time.Duration, it estimate.Item, horizon time.Duration) (detected bool, lag time.Duration, requests int) {
	t := time.Duration(math.Round(it.Age * 1e9))
	count := func(x time.Duration) int {
		n := 0
		for _, a := range asks {
			if a <= x {
				n++
			}
		}
		return n
	}
	if !it.Status.Final() {
		return false, 0, count(min(t, horizon))
	}
	for _, a := range asks {
		if a >= t && a <= horizon {
			return true, a - t, count(a)
		}
	}
	return false, 0, count(horizon)
}

func testItems(n int, seed uint64) []estimate.Item {
	items := loggen.Items(loggen.Rows(loggen.Payments, n, seed))
	r := rand.New(rand.NewPCG(seed, 7))
	// Exact ties: answers landing on whole seconds and on common ask
	// ages; signals on whole seconds too.
	for i := range items {
		switch r.IntN(6) {
		case 0:
			items[i].Age = math.Round(items[i].Age)
		case 1:
			items[i].Age = float64([]int{0, 1, 2, 3, 8, 16, 29, 30, 44, 120, 900}[r.IntN(11)])
			items[i].Status = estimate.Settled
		case 2:
			if items[i].HasSignal() {
				items[i].Signal = math.Round(items[i].Signal)
			}
		}
	}
	return items
}

func TestReplayBruteForce(t *testing.T) {
	dsls := []string{
		"at 0s 3s 8s 16s 29s, 15s until 2m, 30s",
		"at 0s 2s 5s 8s 12s, 5s until 2m, 15s",
		"at 0s 1s, 2s until 2m, 5s",
		"1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m",
		"1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m, reset on signal",
		"at 2s 5s, 10s until 1m, reset on signal",
		"1s until 20s, every 5m at +2s +5s until 30m",
		"at 0s, every 1m at +0s +30s, every 5m at +0s until 20m, reset on signal",
		"500ms until 3s, 7s",
	}
	items := testItems(3000, 11)
	for _, dsl := range dsls {
		s, err := schedule.Parse(dsl)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []time.Duration{0, 45 * time.Second, 10 * time.Minute} {
			m, err := Replay(s, items, ReplayOptions{Horizon: h})
			if err != nil {
				t.Fatal(err)
			}
			var want Metrics
			var lags []float64
			var req int
			for _, it := range items {
				asks := bruteAsks(s, it, m.Horizon)
				det, lag, r := bruteReplay(asks, it, m.Horizon)
				req += r
				switch {
				case !it.Status.Final():
					want.Pending++
				case det:
					want.Detected++
					lags = append(lags, lag.Seconds())
				default:
					want.Missed++
				}
			}
			if m.Detected != want.Detected || m.Missed != want.Missed || m.Pending != want.Pending {
				t.Errorf("%s h=%v: detected/missed/pending = %.0f/%.0f/%.0f, brute force %.0f/%.0f/%.0f", dsl, h, m.Detected, m.Missed, m.Pending, want.Detected, want.Missed, want.Pending)
			}
			if got, w := m.RequestsPerItem, float64(req)/float64(len(items)); got != w {
				t.Errorf("%s h=%v: requests/item = %v, brute force %v", dsl, h, got, w)
			}
			slices.Sort(lags)
			var sum float64
			for _, l := range lags {
				sum += l
			}
			if len(lags) > 0 && (math.Abs(m.Lag.Mean-sum/float64(len(lags))) > 1e-9 || m.Lag.Max != lags[len(lags)-1]) {
				t.Errorf("%s h=%v: lag mean/max = %v/%v, brute force %v/%v", dsl, h, m.Lag.Mean, m.Lag.Max, sum/float64(len(lags)), lags[len(lags)-1])
			}
		}
	}
}

// A hand-worked replay of the seed's "Before" schedule (asks 0 3 8 16 29
// 44 59 74 89 104 119 149 ...).
func TestReplayByHand(t *testing.T) {
	s, _ := schedule.Parse("at 0s 3s 8s 16s 29s, 15s until 2m, 30s")
	items := []estimate.Item{
		{Age: 9, Status: estimate.Settled},   // seen at 16: lag 7, 4 asks
		{Age: 31, Status: estimate.Settled},  // seen at 44: lag 13, 6 asks
		{Age: 16, Status: estimate.Failed},   // tie: seen at 16, lag 0, 4 asks
		{Age: 0, Status: estimate.Settled},   // seen at 0: lag 0, 1 ask
		{Age: 50, Status: estimate.Pending},  // asks ≤ 50: 6
		{Age: 200, Status: estimate.Settled}, // after the 150 s horizon: missed, 12 asks ≤ 150
	}
	m, err := Replay(s, items, ReplayOptions{Horizon: 150 * time.Second, AsksBy: []time.Duration{30 * time.Second, 2 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Detected != 4 || m.Missed != 1 || m.Pending != 1 {
		t.Errorf("detected/missed/pending = %.0f/%.0f/%.0f, want 4/1/1", m.Detected, m.Missed, m.Pending)
	}
	if want := float64(4+6+4+1+6+12) / 6; m.RequestsPerItem != want {
		t.Errorf("requests/item = %v, want %v", m.RequestsPerItem, want)
	}
	// Lags sorted: 0 0 7 13. Nearest rank: p50 = 2nd = 0, p90 = 4th = 13.
	if m.Lag.Mean != 5 || m.Lag.P50 != 0 || m.Lag.P90 != 13 || m.Lag.Max != 13 {
		t.Errorf("lag = %+v, want mean 5, p50 0, p90 13, max 13", m.Lag)
	}
	if m.AsksBy[0] != 5 || m.AsksBy[1] != 11 {
		t.Errorf("asks by 30s, 2m = %v, want 5, 11", m.AsksBy)
	}
}

// A signal restarts the schedule: "at 2s 5s, 10s until 1m, reset on
// signal" asks at 2 5 15 25 ...; a push at 7 s makes it ask at 7, then
// 9, 12, 22, ...
func TestReplaySignal(t *testing.T) {
	s, _ := schedule.Parse("at 2s 5s, 10s until 1m, reset on signal")
	items := []estimate.Item{
		{Age: 6, Status: estimate.Settled, Signal: 7, Signalled: true},  // seen at the signal: lag 1, asks 2 5 7
		{Age: 10, Status: estimate.Settled, Signal: 7, Signalled: true}, // seen at 12: lag 2, asks 2 5 7 9 12
		{Age: 10, Status: estimate.Settled},                             // seen at 15: lag 5, asks 2 5 15
	}
	m, err := Replay(s, items, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Lag.Mean != 8.0/3 || m.RequestsPerItem != 11.0/3 {
		t.Errorf("lag mean %v, requests %v; want 8/3, 11/3", m.Lag.Mean, m.RequestsPerItem)
	}
}

func TestReplayAlignedNeedsCreated(t *testing.T) {
	s, _ := schedule.Parse("1s until 10s, every 5m at +2s")
	_, err := Replay(s, []estimate.Item{{Age: 3, Status: estimate.Settled}}, ReplayOptions{})
	if err == nil {
		t.Fatal("replaying an aligned schedule without creation times succeeded")
	}
}

func BenchmarkReplay(b *testing.B) {
	items := loggen.Items(loggen.Rows(loggen.Payments, 1_000_000, 1))
	benchReplays(b, items, ReplayOptions{},
		"at 0s 3s 8s 16s 29s, 15s until 2m, 30s",
		"at 0s 2s 5s 8s 12s, 5s until 2m, 15s",
		"at 0s 1s, 2s until 2m, 5s",
		"1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m")
}

// benchReplays replays each schedule on the items in turn, reporting
// item-replays/s.
func benchReplays(b *testing.B, items []estimate.Item, opt ReplayOptions, dsls ...string) {
	var ss []*schedule.Schedule
	for _, d := range dsls {
		s, err := schedule.Parse(d)
		if err != nil {
			b.Fatal(err)
		}
		ss = append(ss, s)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range ss {
			if _, err := Replay(s, items, opt); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(ss)*len(items)*b.N)/b.Elapsed().Seconds(), "item-replays/s")
}

func TestSortNonNegative(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 100, 5000, 100_000} {
		xs := make([]float64, n)
		for i := range xs {
			switch r.IntN(4) {
			case 0:
				xs[i] = 0
			case 1:
				xs[i] = float64(r.IntN(100))
			default:
				xs[i] = r.ExpFloat64() * math.Pow(10, float64(r.IntN(12)-6))
			}
		}
		want := slices.Clone(xs)
		slices.Sort(want)
		sortNonNegative(xs)
		if !slices.Equal(xs, want) {
			t.Fatalf("n=%d: radix sort differs from slices.Sort", n)
		}
	}
}

// BenchmarkReplayAligned replays schedules with wall-clock aligned asks
// (a batch shape's) on a batch log's items to 15m, as the shapes'
// grafts do.
func BenchmarkReplayAligned(b *testing.B) {
	items := loggen.Items(loggen.Rows(loggen.Batch, 200_000, 1))
	benchReplays(b, items, ReplayOptions{Horizon: 15 * time.Minute},
		"at 0s 3s 15s, 15s until 1m, 30s until 2m, 1m until 15m, every 15m at +4.1s +6.7s until 15m",
		"at 0s 2s 10s, 5s until 1m, 10s until 5m, 30s until 15m, every 5m at +2s until 15m")
}
