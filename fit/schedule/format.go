package schedule

import (
	"strings"
	"time"
)

// Format writes s in the canonical form of the schedule language: one
// line, clauses separated by ", ", durations in FormatDuration's form,
// age-based clauses first, then aligned clauses, then "reset on signal".
// Adjacent explicit-ask clauses are merged, adjacent interval clauses
// of one interval are merged into the later one ("2s until 20s, 2s until
// 1m" is "2s until 1m": the second continues from the first's last ask
// with the same step), and a lone "at 0s" before an interval clause is
// dropped (the interval implies it), so schedules that ask at the same
// ages the same way format alike.
// Parse(Format(s)) gives back the canonical schedule.
func Format(s *Schedule) string {
	c := Canonical(s)
	var parts []string
	for _, cl := range c.Clauses {
		parts = append(parts, cl.String())
	}
	for _, a := range c.Aligned {
		parts = append(parts, a.String())
	}
	if c.ResetOnSignal {
		parts = append(parts, "reset on signal")
	}
	return strings.Join(parts, ", ")
}

// String is Format(s).
func (s *Schedule) String() string { return Format(s) }

// Canonical returns a copy of s in canonical form (see Format).
func Canonical(s *Schedule) *Schedule {
	c := &Schedule{ResetOnSignal: s.ResetOnSignal}
	for i, cl := range s.Clauses {
		n := len(c.Clauses)
		switch {
		case cl.IsAt() && n > 0 && c.Clauses[n-1].IsAt():
			c.Clauses[n-1].At = append(c.Clauses[n-1].At, cl.At...)
			continue
		case !cl.IsAt() && n > 0 && sameInterval(c.Clauses[n-1], cl):
			c.Clauses[n-1].Until, c.Clauses[n-1].Forever = cl.Until, cl.Forever
			continue
		case !cl.IsAt() && i == 1 && n == 1 && len(c.Clauses[0].At) == 1 && c.Clauses[0].At[0] == 0:
			c.Clauses = c.Clauses[:0]
		}
		cl.At = append([]time.Duration(nil), cl.At...)
		c.Clauses = append(c.Clauses, cl)
	}
	for _, a := range s.Aligned {
		a.Offsets = append([]time.Duration(nil), a.Offsets...)
		c.Aligned = append(c.Aligned, a)
	}
	return c
}

// sameInterval reports whether b, following a, continues a's interval:
// both interval clauses of one step, a not forever.
func sameInterval(a, b Clause) bool {
	return !a.IsAt() && !a.Forever && !b.IsAt() && a.Every == b.Every
}

// String writes the clause as the schedule language does.
func (c Clause) String() string {
	var b strings.Builder
	if c.IsAt() {
		b.WriteString("at")
		for _, a := range c.At {
			b.WriteString(" " + FormatDuration(a))
		}
		return b.String()
	}
	b.WriteString(FormatDuration(c.Every))
	if !c.Forever {
		b.WriteString(" until " + FormatDuration(c.Until))
	}
	return b.String()
}

// String writes the aligned clause as the schedule language does.
func (a Aligned) String() string {
	var b strings.Builder
	b.WriteString("every " + FormatDuration(a.Period) + " at")
	for _, o := range a.Offsets {
		b.WriteString(" +" + FormatDuration(o))
	}
	if a.Until > 0 {
		b.WriteString(" until " + FormatDuration(a.Until))
	}
	return b.String()
}
