package export

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/pollfit/pollfit/fit/schedule"
)

// The explore tests of every language check the generated pollers'
// asks against exploredAsks, written here from the package
// documentation's definition with the schedule package's timeline, not
// from the generated code.

// exploreFmix32 is MurmurHash3's fmix32.
func exploreFmix32(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// exploreU is u for the ask at schedule age a (whole µs) of item key.
func exploreU(seed uint32, key string, ageUs uint64) float64 {
	k := uint32(2166136261)
	for _, c := range utf16.Encode([]rune(key)) {
		k = (k ^ uint32(c)) * 16777619
	}
	h := exploreFmix32(exploreFmix32(exploreFmix32(seed^k)^uint32(ageUs)) ^ uint32(ageUs>>32))
	return float64(h) / (1 << 32)
}

// exploredAsks are the ages of an item's asks to horizon, in whole
// units of unit (time.Nanosecond for Go, time.Microsecond for JS and
// TS, time.Millisecond for Kotlin), as the package documentation
// defines them: each after the first and before the schedule's last
// moved earlier by ⌊F·gap·u⌋; with the schedule's own ages beside.
func exploredAsks(t *testing.T, s *schedule.Schedule, e Explore, key string, horizon, unit time.Duration) (moved, nominal []int64) {
	t.Helper()
	tl := s.Timeline()
	asks, err := tl.Asks(horizon)
	if err != nil {
		t.Fatal(err)
	}
	for j, a := range asks {
		m := int64(a / unit)
		if _, more := tl.Next(a + 1); j > 0 && more {
			gap := float64((a - asks[j-1]) / unit)
			m -= int64(e.Fraction * gap * exploreU(e.Seed, key, uint64(a/time.Microsecond)))
		}
		moved, nominal = append(moved, m), append(nominal, int64(a/unit))
	}
	return moved, nominal
}

// checkExploredBounds checks that each moved ask after the first lies
// in (nominal − F·gap, nominal], so after the ask before it, and that
// the first and last are not moved.
func checkExploredBounds(t *testing.T, what string, moved, nominal []int64, f float64) {
	t.Helper()
	for j := range moved {
		switch {
		case j == 0 && moved[0] != nominal[0]:
			t.Errorf("%s: first ask moved to %d from %d", what, moved[0], nominal[0])
		case j > 0 && (float64(moved[j]) <= float64(nominal[j])-f*float64(nominal[j]-nominal[j-1]) || moved[j] > nominal[j]):
			t.Errorf("%s: ask %d at %d, not in (%d − %v·%d, %d]", what, j, moved[j], nominal[j], f, nominal[j]-nominal[j-1], nominal[j])
		case j > 0 && moved[j] <= moved[j-1]:
			t.Errorf("%s: ask %d at %d, not after ask %d at %d", what, j, moved[j], j-1, moved[j-1])
		}
	}
}

// exploreItem is one item of the explore run-tests: its key, creation
// time (Unix ms) and settle age (ms; -1: it never settles).
type exploreItem struct {
	key     string
	created int64
	settle  int64
}

// exploreItems are n items settling at ages drawn to fall all over the
// schedule, some never, and the first item again under its own key.
func exploreItems(n int) []exploreItem {
	r := rand.New(rand.NewPCG(30, 5))
	items := make([]exploreItem, 0, n+1)
	for i := range n {
		settle := int64(math.Exp(7 + 1.5*r.NormFloat64()))
		if i%7 == 3 {
			settle = -1
		}
		key := fmt.Sprintf("pay_%d", 1000+i)
		if i%5 == 2 { // a key outside the BMP: two UTF-16 code units
			key = fmt.Sprintf("pay_ü😀%d", i)
		}
		items = append(items, exploreItem{key: key, created: 1_780_000_000_000 + int64(i)*61_000, settle: settle})
	}
	first := items[0]
	first.created += 3_600_000
	return append(items, first)
}

// checkExploreWalk checks the asks a generated poller made to each item
// (ages in unit) against exploredAsks, up to the ask that saw the
// answer: within the bounds, the same for the same key, different for
// most pairs of keys.
func checkExploreWalk(t *testing.T, lang string, s *schedule.Schedule, e Explore, items []exploreItem, got [][]int64, unit time.Duration) {
	t.Helper()
	end, _ := s.End()
	differ := 0
	for i, it := range items {
		moved, nominal := exploredAsks(t, s, e, it.key, end, unit)
		checkExploredBounds(t, lang+" "+it.key, got[i], nominal[:min(len(got[i]), len(nominal))], e.Fraction)
		want := moved
		if k := slices.IndexFunc(moved, func(a int64) bool { return it.settle >= 0 && a*int64(unit) >= it.settle*int64(time.Millisecond) }); k >= 0 {
			want = moved[:k+1]
		}
		if !slices.Equal(got[i], want) {
			t.Errorf("%s %s (settles at %dms): asks %v, want %v", lang, it.key, it.settle, got[i], want)
		}
		if i > 0 && len(got[i]) > 1 && len(got[i-1]) > 1 && got[i][1] != got[i-1][1] {
			differ++
		}
	}
	if last := len(items) - 1; !slices.Equal(got[last], got[0]) {
		t.Errorf("%s: the same key twice got asks %v and %v", lang, got[0], got[last])
	}
	if differ < len(items)/2 {
		t.Errorf("%s: only %d of %d neighbouring items differ in their second ask", lang, differ, len(items))
	}
}
