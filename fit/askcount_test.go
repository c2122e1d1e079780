package fit

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
)

// TestAlignedCountArithmetic checks the arithmetic count of aligned asks
// against walking them one by one, on random schedules, items, signals
// and ages.
func TestAlignedCountArithmetic(t *testing.T) {
	srcs := []string{
		"every 7s at +0s +3s",
		"1s until 10s, 5s until 1m, every 10s at +1s",
		"at 2s 4s 6s, 3s, every 6s at +0s +2s, every 4s at +1s +2s",
		"at 1s, every 1m at +30s until 5m, every 45s at +15s, reset on signal",
		"2s until 20s, 7s, every 3s at +0s +1s, every 5s at +0s +4s until 40s, every 11s at +0s",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, src := range srcs {
		s, err := schedule.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		r := newReplayer(s)
		for range 300 {
			it := estimate.Item{Created: (rng.Int64N(1e6) - 5e5) * 1e9, Dated: true}
			if rng.IntN(4) == 0 {
				it.Created += rng.Int64N(1e9)
			}
			if rng.IntN(2) == 0 {
				it = it.WithSignal(float64(rng.IntN(60)))
			}
			v := r.item(it)
			x := time.Duration(rng.Int64N(int64(2 * time.Minute)))
			if rng.IntN(4) == 0 {
				x = x.Truncate(time.Second)
			}
			walkAligned = 1 << 62
			want := v.count(x)
			walkAligned = -1
			got := v.count(x)
			walkAligned = 64
			if got != want {
				t.Fatalf("%s: created %d signal %v x %v: arithmetic %d, walked %d", src, it.Created, it.Signal, x, got, want)
			}
		}
	}
}

// TestAlignedCountFast checks that every 1ns asks are counted without
// walking them: 10¹⁷ asks would never finish one by one.
func TestAlignedCountFast(t *testing.T) {
	s := &schedule.Schedule{Aligned: []schedule.Aligned{{Period: 1, Offsets: []time.Duration{0}}}}
	r := newReplayer(s)
	v := r.item(estimate.Item{Created: 1_700_000_000_000_000_000, Dated: true})
	x := time.Duration(1e17)
	if got := v.count(x); got != int64(x)+1 {
		t.Fatalf("count = %d, want %d", got, int64(x)+1)
	}
}

func TestProgIntersectHugeSteps(t *testing.T) {
	p := prog{5, 1<<62 - 1, 1<<63 - 1}
	q := prog{5, 1<<62 - 3, 1<<63 - 1}
	if c := p.intersect(q); c.size() != 1 || c.first != 5 {
		t.Fatalf("intersect = %+v, want just 5", c)
	}
	if c := (prog{0, 3, 100}).intersect(prog{1, 5, 100}); c.first != 6 || c.step != 15 || c.last != 96 {
		t.Fatalf("intersect = %+v, want {6 15 96}", c)
	}
}

// TestReplayStrategyRunsCeiling: a billion realisations fail at once
// rather than run for days (memory stays flat, see TestReplayStrategyFlatMemory).
func TestReplayStrategyRunsCeiling(t *testing.T) {
	st, err := backoff.Parse("exponential(initial=100ms, factor=2, max=20s, jitter=full)")
	if err != nil {
		t.Fatal(err)
	}
	items := []estimate.Item{{Age: 1, Status: estimate.Settled}}
	_, err = ReplayStrategy(context.Background(), st, items, ReplayOptions{}, 1, 1_000_000_000)
	if err == nil || !strings.Contains(err.Error(), "1000000000 runs is more than the 10000000 pollfit makes") {
		t.Fatalf("got %v", err)
	}
}

// TestReplayHugeAge: an age beyond int64 nanoseconds (built by hand; the
// readers refuse them) saturates instead of wrapping to a negative lag.
func TestReplayHugeAge(t *testing.T) {
	s, _ := schedule.Parse("1s")
	items := []estimate.Item{
		{Age: 2, Status: estimate.Settled},
		{Age: 1e10, Status: estimate.Settled},
		{Age: 3, Status: estimate.Settled},
	}
	m, err := Replay(s, items, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Lag.Mean < 0 || m.Lag.Max < 0 {
		t.Fatalf("negative lag: %+v", m.Lag)
	}
	if nanos(1e308) != math.MaxInt64 || nanos(-1e308) != math.MinInt64 {
		t.Errorf("nanos does not saturate: %d %d", nanos(1e308), nanos(-1e308))
	}
}

// FuzzAlignedCount: the arithmetic count of asks equals walking them,
// on hand-built schedules of up to two aligned clauses and an
// age-based part, for any creation time, signal and age.
func FuzzAlignedCount(f *testing.F) {
	f.Add(uint16(7000), uint16(3000), uint16(4000), uint16(1000), uint16(2000), int64(1_700_000_000_000_000_000), int16(-1), uint32(90_000), uint8(0))
	f.Add(uint16(1), uint16(0), uint16(3), uint16(1), uint16(0), int64(-5), int16(3), uint32(5000), uint8(3))
	f.Fuzz(func(t *testing.T, p1, o1, p2, o2, every uint16, created int64, sig int16, x uint32, shape uint8) {
		if p1 == 0 || p2 == 0 {
			return
		}
		ms := time.Millisecond
		s := &schedule.Schedule{Aligned: []schedule.Aligned{{Period: time.Duration(p1) * ms, Offsets: []time.Duration{time.Duration(o1%p1) * ms}}}}
		if shape&1 != 0 {
			s.Aligned = append(s.Aligned, schedule.Aligned{Period: time.Duration(p2) * ms, Offsets: []time.Duration{time.Duration(o2%p2) * ms}, Until: time.Duration(x/2) * ms})
		}
		if every > 0 {
			s.Clauses = []schedule.Clause{{At: []time.Duration{0, ms * time.Duration(every/3+1)}}, {Every: time.Duration(every) * ms, Forever: true}}
		}
		s.ResetOnSignal = shape&2 != 0
		if s.Validate() != nil {
			return
		}
		it := estimate.Item{Created: created, Dated: true}
		if sig >= 0 {
			it = it.WithSignal(float64(sig))
		}
		v := newReplayer(s).item(it)
		age := time.Duration(x) * ms
		if v.alignedUpTo(age) > 200_000 {
			return // too many to walk
		}
		defer func(w int64) { walkAligned = w }(walkAligned)
		walkAligned = 1 << 62
		want := v.count(age)
		walkAligned = -1
		if got := v.count(age); got != want {
			t.Fatalf("%+v created %d signal %v age %v: arithmetic %d, walked %d", s, created, it.Signal, age, got, want)
		}
	})
}

// TestAsksByAlignedOverlap: aligned clauses share asks whatever the
// phase; AsksBy counts a shared ask once.
func TestAsksByAlignedOverlap(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want float64
	}{
		{"every 1ms at +0s, every 3ms at +1ms", 30000},
		{"every 2ms at +0s, every 3ms at +0s", 20000},
		{"every 2ms at +0s, every 2ms at +1ms", 30000},
		{"every 1s at +0s +500ms, every 1m at +0s +30s until 10s", 60},
		{"every 7ms at +1ms, 1s", 30000.0/7 + 31},
	} {
		s, err := schedule.Parse(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := AsksBy(s, 30*time.Second); math.Abs(got-tc.want) > 1e-6*tc.want {
			t.Errorf("AsksBy(%s, 30s) = %v, want %v", tc.src, got, tc.want)
		}
	}
}
