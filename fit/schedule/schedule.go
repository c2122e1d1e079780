package schedule

import (
	"fmt"
	"slices"
	"time"
)

// MaxAsks is the most asks Asks expands a schedule to. A schedule that
// would ask more often than this within the horizon is refused with an
// error rather than exhausting memory.
const MaxAsks = 10_000_000

// Schedule is a polling schedule: the ages (time since the item was
// created) at which a client asks "done yet?".
//
// The zero Schedule is empty and invalid; build one with Parse or by
// hand and check it with Validate.
type Schedule struct {
	// Clauses are the age-based clauses in order. If the first is an
	// interval clause, an ask at age 0 is implied.
	Clauses []Clause
	// Aligned are wall-clock aligned asks, in addition to the age-based
	// ones.
	Aligned []Aligned
	// ResetOnSignal says that a signal (a push arrived, the app came to
	// the foreground) makes the client ask at once and restarts the
	// age-based clauses from that moment. Without it signals are ignored.
	ResetOnSignal bool
}

// Clause is one age-based clause: either explicit asks (At non-empty) or
// asks every Every after the previous ask, while the age stays ≤ Until,
// or forever when Forever is set (only in the last clause).
type Clause struct {
	At      []time.Duration
	Every   time.Duration
	Until   time.Duration
	Forever bool
}

// IsAt reports whether c is an explicit-asks clause.
func (c Clause) IsAt() bool { return len(c.At) > 0 }

// Aligned asks at Offsets after every boundary of Period in UTC
// wall-clock time (boundaries are multiples of Period since the Unix
// epoch, so a period dividing a day falls on the clock: every 5m is
// :00, :05, ...). The asks stop at age Until, or never when Until is 0.
type Aligned struct {
	Period  time.Duration
	Offsets []time.Duration
	Until   time.Duration
}

// Stops reports whether the schedule stops asking at some age.
func (s *Schedule) Stops() bool {
	if n := len(s.Clauses); n > 0 && s.Clauses[n-1].Forever {
		return false
	}
	for _, a := range s.Aligned {
		if a.Until == 0 {
			return false
		}
	}
	return true
}

// End is the age after which a stopping schedule asks no more: its last
// age-based ask or the latest Until of its aligned clauses. ok is false
// for a schedule that never stops.
func (s *Schedule) End() (end time.Duration, ok bool) {
	if !s.Stops() {
		return 0, false
	}
	if last, ok := s.Timeline().Last(); ok {
		end = last
	}
	for _, a := range s.Aligned {
		end = max(end, a.Until)
	}
	return end, true
}

// Equal reports whether s and t are the same schedule clause for clause.
func (s *Schedule) Equal(t *Schedule) bool {
	if s.ResetOnSignal != t.ResetOnSignal || len(s.Clauses) != len(t.Clauses) || len(s.Aligned) != len(t.Aligned) {
		return false
	}
	for i, c := range s.Clauses {
		d := t.Clauses[i]
		if !slices.Equal(c.At, d.At) || c.Every != d.Every || c.Until != d.Until || c.Forever != d.Forever {
			return false
		}
	}
	for i, a := range s.Aligned {
		b := t.Aligned[i]
		if a.Period != b.Period || a.Until != b.Until || !slices.Equal(a.Offsets, b.Offsets) {
			return false
		}
	}
	return true
}

// ClauseError is a Validate failure in one clause.
type ClauseError struct {
	Aligned bool // Index is into Aligned rather than Clauses
	Index   int  // 0-based
	Ask     int  // index into Clause.At of the ask at fault, or -1
	Msg     string
}

func (e *ClauseError) Error() string {
	if e.Aligned {
		return fmt.Sprintf("aligned clause %d: %s", e.Index+1, e.Msg)
	}
	return fmt.Sprintf("clause %d: %s", e.Index+1, e.Msg)
}

func clauseErr(i, ask int, format string, args ...any) error {
	return &ClauseError{Index: i, Ask: ask, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks that the schedule means something: asks strictly
// increasing, positive intervals, every clause asking at least once, a
// forever clause only last. The error names the clause (1-based).
func (s *Schedule) Validate() error {
	if len(s.Clauses) == 0 && len(s.Aligned) == 0 {
		return fmt.Errorf("empty schedule")
	}
	prev, have := time.Duration(0), false
	for i, c := range s.Clauses {
		if err := c.check(i, i == len(s.Clauses)-1, prev, have); err != nil {
			return err
		}
		prev = c.last(prev)
		have = true
	}
	terms := 1
	for i, a := range s.Aligned {
		if err := a.check(); err != nil {
			return &ClauseError{Aligned: true, Index: i, Ask: -1, Msg: err.Error()}
		}
		if terms *= len(a.Offsets) + 1; terms > MaxAlignedTerms {
			return &ClauseError{Aligned: true, Index: i, Ask: -1, Msg: fmt.Sprintf("aligned clauses combine more than %d offset choices (the product of offsets+1 over clauses): merge clauses or use fewer offsets", MaxAlignedTerms)}
		}
	}
	return nil
}

// MaxAlignedTerms bounds the product of (offsets + 1) over a schedule's
// aligned clauses: counting their asks arithmetically, shared ages
// included, costs up to that many terms per item.
const MaxAlignedTerms = 1 << 16

func (c Clause) check(n int, last bool, prev time.Duration, have bool) error {
	if c.IsAt() {
		if c.Every != 0 || c.Until != 0 || c.Forever {
			return clauseErr(n, -1, "explicit asks cannot also have an interval")
		}
		for j, a := range c.At {
			if a < 0 {
				return clauseErr(n, j, "negative age %s", FormatDuration(a))
			}
			if have && a <= prev {
				return clauseErr(n, j, "ask at %s is not after the previous ask at %s", FormatDuration(a), FormatDuration(prev))
			}
			prev, have = a, true
		}
		return nil
	}
	if c.Every <= 0 {
		return clauseErr(n, -1, "interval must be positive, not %s", FormatDuration(c.Every))
	}
	if c.Forever {
		if !last {
			return clauseErr(n, -1, "an interval without until must be the last clause")
		}
		return nil
	}
	if c.Until < prev+c.Every {
		return clauseErr(n, -1, "%s until %s never asks: the previous ask is at %s", FormatDuration(c.Every), FormatDuration(c.Until), FormatDuration(prev))
	}
	return nil
}

// last is the age of the clause's last ask given the previous ask; it is
// meaningless for a forever clause.
func (c Clause) last(prev time.Duration) time.Duration {
	if c.IsAt() {
		return c.At[len(c.At)-1]
	}
	if c.Forever {
		return prev
	}
	return prev + (c.Until-prev)/c.Every*c.Every
}

func (a Aligned) check() error {
	if a.Period <= 0 {
		return fmt.Errorf("period must be positive, not %s", FormatDuration(a.Period))
	}
	if len(a.Offsets) == 0 {
		return fmt.Errorf("aligned clause needs at least one offset")
	}
	for i, o := range a.Offsets {
		if o < 0 || o >= a.Period {
			return fmt.Errorf("offset +%s is not within the period %s", FormatDuration(o), FormatDuration(a.Period))
		}
		if i > 0 && o <= a.Offsets[i-1] {
			return fmt.Errorf("offset +%s is not after +%s", FormatDuration(o), FormatDuration(a.Offsets[i-1]))
		}
	}
	if a.Until < 0 {
		return fmt.Errorf("negative until %s", FormatDuration(a.Until))
	}
	return nil
}
