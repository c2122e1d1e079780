package schedule

import (
	"fmt"
	"slices"
	"time"
)

// floorDiv is ⌊a/b⌋ for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// limit is the last age at which a asks, or -1 when it never stops.
func (a Aligned) limit() time.Duration {
	if a.Until == 0 {
		return -1
	}
	return a.Until
}

// Count is the number of aligned asks at ages in [0, age] for an item
// created at created (Unix nanoseconds).
func (a Aligned) Count(created int64, age time.Duration) int64 {
	if l := a.limit(); l >= 0 {
		age = min(age, l)
	}
	if age < 0 {
		return 0
	}
	p := int64(a.Period)
	var n int64
	for _, o := range a.Offsets {
		lo := created - int64(o) // k·P ≥ lo
		hi := lo + int64(age)    // k·P ≤ hi
		n += floorDiv(hi, p) - (-floorDiv(-lo, p)) + 1
	}
	return n
}

// Next is the age of the first aligned ask at or after age for an item
// created at created; ok is false when the clause has stopped by then.
func (a Aligned) Next(created int64, age time.Duration) (next time.Duration, ok bool) {
	p := int64(a.Period)
	best := time.Duration(-1)
	for _, o := range a.Offsets {
		k := -floorDiv(-(created + int64(age) - int64(o)), p) // ⌈…/P⌉
		at := time.Duration(k*p + int64(o) - created)
		if best < 0 || at < best {
			best = at
		}
	}
	if l := a.limit(); l >= 0 && best > l {
		return 0, false
	}
	return best, true
}

// ItemAsks lists every ask at ages ≤ horizon for an item created at
// created (Unix nanoseconds; ignored when the schedule has no aligned
// clauses), age-based and aligned merged, each age once. Signals are not
// applied. It refuses to list more than MaxAsks asks.
func (s *Schedule) ItemAsks(created int64, horizon time.Duration) ([]time.Duration, error) {
	asks, err := s.Timeline().Asks(horizon)
	if err != nil || len(s.Aligned) == 0 {
		return asks, err
	}
	for _, a := range s.Aligned {
		if n := a.Count(created, horizon); n+int64(len(asks)) > MaxAsks {
			return nil, fmt.Errorf("schedule asks more than %d times by %s", MaxAsks, FormatDuration(horizon))
		}
		for at, ok := a.Next(created, 0); ok && at <= horizon; at, ok = a.Next(created, at+1) {
			asks = append(asks, at)
		}
	}
	slices.Sort(asks)
	return slices.Compact(asks), nil
}
