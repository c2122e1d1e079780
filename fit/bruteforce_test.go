package fit

import (
	"context"
	"fmt"
	"github.com/pollfit/pollfit/internal/testenv"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
)

// On the timeout logs (30% fail at 60 s, spread by σ), the default K=4
// study at 8 requests per item ships a schedule that, on the fitting
// items, waits no longer than the best schedule of at most four clauses
// found by brute force at no more cost: every schedule "D₁ until B₁, …,
// D₄ until H" (fewer clauses too) with intervals D from the nice set and
// boundaries B from the nice boundaries and the deadline's landmarks, each
// clause but the last ending with an ask on its boundary and the last
// running to the give-up age H (with an explicit ask at H when its
// interval falls short), that spends no more requests per item on the
// fitting items than the shipped schedule and asks a stuck item no more
// often than the stuck cap. The search never calls the quantiser: it
// enumerates the schedules, measures each one from the definitions of
// lag and cost (bruteLaw), and replays the best with ReplaySample.
func TestFitBeatsBruteForceOnSpreadDeadlines(t *testing.T) {
	sigmas := []time.Duration{0, 500 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second}
	if !testenv.Long() {
		sigmas = sigmas[2:3] // the spread the others bracket; all four in the long run
	}
	h := 15 * time.Minute
	for _, sigma := range sigmas {
		items := loggen.Items(loggen.Rows(loggen.Timeout(sigma), 10000, 12))
		res, err := Study(context.Background(), ItemSample(items), nil, StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 8}, Horizon: h}, Holdout: 0.5, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		on := *res.FitOn
		marks := DeadlineLandmarks(res.Shapes.Deadlines)
		bl := newBruteLaw(on)
		limit := checkBruteLaw(t, bl, on, res.Schedule, h)
		best, n := bruteSearch(bl, bruteBoundaries(marks, h), bruteIntervals(h), h, []float64{limit}, res.StuckCap)
		checkAgainstBrute(t, fmt.Sprintf("σ %v, landmarks %v", sigma, marks), res.Schedule, best[0], n, on, h)
	}
}

// checkAgainstBrute checks that s waits no longer on smp than best, the
// brute force's best at no more cost, replayed.
func checkAgainstBrute(t *testing.T, what string, s *schedule.Schedule, best bruteBest, n int, smp Sample, h time.Duration) {
	t.Helper()
	if best.dsl == "" {
		t.Fatalf("%s: no schedule of at most four clauses at no more cost than %q", what, s)
	}
	bs, err := schedule.Parse(best.dsl)
	if err != nil {
		t.Fatal(err)
	}
	fm, err := ReplaySample(s, smp, ReplayOptions{Horizon: h})
	if err != nil {
		t.Fatal(err)
	}
	bm, err := ReplaySample(bs, smp, ReplayOptions{Horizon: h})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(bm.Lag.Mean-best.lag) > 1e-9 || math.Abs(bm.RequestsPerItem-best.requests) > 1e-9 {
		t.Fatalf("%s: %q replays at %.9fs, %.9f requests; the brute force measured %.9fs, %.9f", what, best.dsl, bm.Lag.Mean, bm.RequestsPerItem, best.lag, best.requests)
	}
	t.Logf("%s %q %.4fs at %.3f requests; best of %d brute-force schedules %q %.4fs at %.3f",
		what, s, fm.Lag.Mean, fm.RequestsPerItem, n, best.dsl, bm.Lag.Mean, bm.RequestsPerItem)
	if fm.Lag.Mean > bm.Lag.Mean*(1+1e-9) || fm.Missed > bm.Missed {
		t.Errorf("%s: %q waits %.4fs at %.3f requests on the fitting items, more than %q: %.4fs at %.3f",
			what, s, fm.Lag.Mean, fm.RequestsPerItem, best.dsl, bm.Lag.Mean, bm.RequestsPerItem)
	}
}

// bruteBoundaries are the ages a clause may end on, below h: the nice
// boundaries (1, 2, 3, 5, 10, 15, 20, 30, 45 × s, min) and the landmarks.
func bruteBoundaries(marks []time.Duration, h time.Duration) []time.Duration {
	var out []time.Duration
	for _, u := range []time.Duration{time.Second, time.Minute} {
		for _, x := range []time.Duration{1, 2, 3, 5, 10, 15, 20, 30, 45} {
			out = append(out, x*u)
		}
	}
	out = append(out, marks...)
	out = slices.DeleteFunc(out, func(b time.Duration) bool { return b <= 0 || b >= h })
	slices.Sort(out)
	return slices.Compact(out)
}

// bruteIntervals are the nice intervals up to h: 1, 2, 5, 10, 15, 30 ×
// ms, s, min, and 100, 200, 500 ms.
func bruteIntervals(h time.Duration) []time.Duration {
	out := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond}
	for _, u := range []time.Duration{time.Millisecond, time.Second, time.Minute} {
		for _, x := range []time.Duration{1, 2, 5, 10, 15, 30} {
			out = append(out, x*u)
		}
	}
	out = slices.DeleteFunc(out, func(d time.Duration) bool { return d > h })
	slices.Sort(out)
	return out
}

// bruteBest is the best schedule found, measured.
type bruteBest struct {
	dsl           string
	lag, requests float64
}

// bruteSearch enumerates the schedules of one to four clauses over the
// boundaries and intervals, asking at 0 first, and returns for each
// limit the one with the least mean lag on bl among those spending at
// most that many requests per item within the stuck cap, and how many
// schedules were measured.
func bruteSearch(bl *bruteLaw, bounds, ivals []time.Duration, h time.Duration, limits []float64, stuck int) ([]bruteBest, int) {
	best := make([]bruteBest, len(limits))
	for k := range best {
		best[k].lag = math.Inf(1)
	}
	n := 0
	var walk func(from time.Duration, asks []time.Duration, clauses []string, ends int)
	walk = func(from time.Duration, asks []time.Duration, clauses []string, ends int) {
		for _, d := range ivals {
			// The last clause: every d to h, then at h if d falls short.
			a := asks
			for x := from + d; x <= h && len(a) <= stuck; x += d {
				a = append(a, x)
			}
			last := []string{fmt.Sprintf("%s until %s", schedule.FormatDuration(d), schedule.FormatDuration(h))}
			if a[len(a)-1] != h {
				a, last = append(a, h), append(last, "at "+schedule.FormatDuration(h))
			}
			if len(a) <= stuck {
				n++
				lag, req := bl.measure(a)
				for k, lim := range limits {
					if req <= lim*(1+1e-12) && lag < best[k].lag {
						best[k] = bruteBest{dsl: strings.Join(append(slices.Clone(clauses), last...), ", "), lag: lag, requests: req}
					}
				}
			}
			if ends == 3 {
				continue
			}
			// A clause ending on a boundary b, when d divides b − from.
			for _, b := range bounds {
				if b <= from || (b-from)%d != 0 || int((b-from)/d)+len(asks) > stuck {
					continue
				}
				next := asks
				for x := from + d; x <= b; x += d {
					next = append(next, x)
				}
				walk(b, next, append(clauses, fmt.Sprintf("%s until %s", schedule.FormatDuration(d), schedule.FormatDuration(b))), ends+1)
			}
		}
	}
	walk(0, []time.Duration{0}, nil, 0)
	return best, n
}

// bruteLaw measures ask ages on a sample from the definitions: an answer
// at t is seen by the first ask at or after t, waits the difference and
// costs every ask up to that one; an answer after the last ask is missed
// and costs every ask; a pending item costs the asks at or before its
// censoring age. Ages are whole nanoseconds, as Replay compares them.
type bruteLaw struct {
	final, pending []time.Duration // sorted
	sum            []float64       // sum[i]: the first i final ages, in seconds
	n              float64
}

func newBruteLaw(smp Sample) *bruteLaw {
	bl := &bruteLaw{n: float64(smp.Len())}
	for _, it := range smp.Items {
		a := time.Duration(math.Round(it.Age * 1e9))
		if it.Status.Final() {
			bl.final = append(bl.final, a)
		} else {
			bl.pending = append(bl.pending, a)
		}
	}
	slices.Sort(bl.final)
	slices.Sort(bl.pending)
	bl.sum = make([]float64, len(bl.final)+1)
	for i, a := range bl.final {
		bl.sum[i+1] = bl.sum[i] + a.Seconds()
	}
	return bl
}

// measure is the mean lag over the answers seen and the requests per
// item of asks (increasing).
func (bl *bruteLaw) measure(asks []time.Duration) (lag, requests float64) {
	upTo := func(a time.Duration) int { // final ages ≤ a
		return sort.Search(len(bl.final), func(i int) bool { return bl.final[i] > a })
	}
	var lagSum, asked float64
	prev := 0 // final ages at or before the previous ask
	for j, a := range asks {
		waiting := len(bl.final) - prev // answers after the previous ask
		if j == 0 {
			waiting = len(bl.final)
		}
		pend := len(bl.pending) - sort.Search(len(bl.pending), func(i int) bool { return bl.pending[i] >= a })
		asked += float64(waiting + pend)
		k := upTo(a)
		lagSum += float64(k-prev)*a.Seconds() - (bl.sum[k] - bl.sum[prev])
		prev = k
	}
	return lagSum / float64(prev), asked / bl.n
}

// checkBruteLaw checks bruteLaw against ReplaySample on s, so that the
// brute force measures what Replay measures, and returns the requests
// per item s spends.
func checkBruteLaw(t *testing.T, bl *bruteLaw, smp Sample, s *schedule.Schedule, h time.Duration) float64 {
	t.Helper()
	asks, err := s.Timeline().Asks(h)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReplaySample(s, smp, ReplayOptions{Horizon: h})
	if err != nil {
		t.Fatal(err)
	}
	if lag, req := bl.measure(asks); math.Abs(lag-m.Lag.Mean) > 1e-9 || math.Abs(req-m.RequestsPerItem) > 1e-9 {
		t.Fatalf("%q: brute-force measure %.9fs at %.9f requests, Replay %.9fs at %.9f", s, lag, req, m.Lag.Mean, m.RequestsPerItem)
	}
	return m.RequestsPerItem
}
