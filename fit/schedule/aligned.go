package schedule

import (
	"fmt"
	"math"
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

// FirstAge is the age of the first ask at offset o for an item created
// at created (Unix nanoseconds): in [0, Period).
func (a Aligned) FirstAge(created int64, o time.Duration) time.Duration {
	p := int64(a.Period)
	return firstAge(floorMod(created, p), o, p)
}

// firstAge is FirstAge for an item created at phase c = created mod p.
func firstAge(c int64, o time.Duration, p int64) time.Duration {
	return time.Duration(floorMod(int64(o)-c, p))
}

// floorMod is a mod b in [0, b) for b > 0.
func floorMod(a, b int64) int64 {
	r := a % b
	if r < 0 {
		r += b
	}
	return r
}

// Count is the number of aligned asks at ages in [0, age] for an item
// created at created (Unix nanoseconds). It works in ages, so no
// creation time or age overflows it.
func (a Aligned) Count(created int64, age time.Duration) int64 {
	var buf [4]time.Duration
	return a.ForItem(created, buf[:0]).Count(age)
}

// Next is the age of the first aligned ask at or after age for an item
// created at created; ok is false when the clause has stopped by then
// (or the ask would lie beyond the largest time.Duration).
func (a Aligned) Next(created int64, age time.Duration) (next time.Duration, ok bool) {
	var buf [4]time.Duration
	return a.ForItem(created, buf[:0]).Next(age)
}

// AlignedItem is an aligned clause for one item, with the age of its
// first ask at each offset (FirstAge) worked out once: a replay asks
// Next and Count of one item many times, and each FirstAge costs two
// divisions.
type AlignedItem struct {
	Aligned
	first []time.Duration // FirstAge of each offset, in order
}

// ForItem is a for the item created at created (Unix nanoseconds),
// keeping the first ages in buf's memory when it has room.
func (a Aligned) ForItem(created int64, buf []time.Duration) AlignedItem {
	first := buf[:0]
	p := int64(a.Period)
	c := floorMod(created, p) // the same for every offset
	for _, o := range a.Offsets {
		first = append(first, firstAge(c, o, p))
	}
	return AlignedItem{Aligned: a, first: first}
}

// Count is Aligned.Count for the item.
func (a AlignedItem) Count(age time.Duration) int64 {
	if l := a.limit(); l >= 0 {
		age = min(age, l)
	}
	if age < 0 {
		return 0
	}
	var n int64
	for _, f := range a.first {
		if f <= age {
			n += int64((age-f)/a.Period) + 1
		}
	}
	return n
}

// Next is Aligned.Next for the item.
func (a AlignedItem) Next(age time.Duration) (next time.Duration, ok bool) {
	p := int64(a.Period)
	best, found := time.Duration(0), false
	for _, fd := range a.first {
		f := int64(fd)
		k := -floorDiv(f-int64(age), p) // ⌈(age−f)/P⌉; age−f cannot overflow
		if k > 0 && k > (math.MaxInt64-f)/p {
			continue
		}
		if at := time.Duration(f + k*p); !found || at < best {
			best, found = at, true
		}
	}
	if l := a.limit(); !found || l >= 0 && best > l {
		return 0, false
	}
	return best, true
}

// AppendAsks appends to dst the item's aligned asks at ages ≤ age,
// offset by offset (each offset's in order, not all in order of age),
// and returns it.
func (a AlignedItem) AppendAsks(dst []time.Duration, age time.Duration) []time.Duration {
	if l := a.limit(); l >= 0 {
		age = min(age, l)
	}
	for _, at := range a.first {
		for at <= age {
			dst = append(dst, at)
			if at > age-a.Period {
				break // the next is beyond age (and may be beyond the largest Duration)
			}
			at += a.Period
		}
	}
	return dst
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
