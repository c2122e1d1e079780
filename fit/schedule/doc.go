// Package schedule is pollfit's shared noun: a polling schedule, the ages
// (time since an item was created) at which a client asks "done yet?",
// and the small language that writes one down.
//
// # The language
//
//	1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m
//	at 0s 3s 8s 16s 29s, 15s until 2m, 30s
//	at 0s 1s, 2s until 2m, 5s, every 5m at +2s +5s until 1h, reset on signal
//
// Clauses are separated by commas:
//
//   - "at A B C ..." asks at those ages, strictly increasing, each after
//     the previous ask.
//   - "D until T" asks every D after the previous ask while the age stays
//     ≤ T: with the previous ask at p, at p+D, p+2D, ... ≤ T. A clause
//     that would not ask even once is an error.
//   - "D" asks every D after the previous ask forever; only as the last
//     age-based clause.
//   - If the first age-based clause is an interval clause, an ask at age 0
//     is implied. A schedule whose last age-based clause is "at" or has
//     "until" stops there; one ending in a bare D never stops.
//   - "every P at +O1 +O2 ... [until T]" asks, in addition, at the offsets
//     O after every boundary of period P in UTC wall-clock time (the
//     boundaries are the multiples of P since the Unix epoch, so a period
//     that divides a day falls on the clock: every 5m means :00, :05, ...).
//     These asks start at age 0 and stop at age T, or never without until.
//     They suit upstreams that settle in batches. An ask that coincides
//     with an age-based ask is one ask.
//   - "reset on signal" declares that a signal (a push arrived, the app
//     came to the foreground, the user tapped "I've approved it") makes
//     the client ask at once and restarts the age-based clauses from the
//     signal, as if the item were new. Without it signals are ignored.
//     Aligned asks follow the clock and are not restarted.
//
// Durations use Go syntax ("500ms", "1.5s", "2m", "1h30m") with "d" for a
// day of 24 hours ("3.5d") and "0"; a number without a unit other than 0
// is an error, as is one longer than MaxAge (100 years). An interval or
// an aligned period must be at least MinPeriod (1ms): logs keep time to
// the millisecond at best, and a shorter one only makes a replay or a
// simulation ask billions of times. Keywords are case-insensitive, white space (including new
// lines) separates tokens and "#" starts a comment that runs to the end of
// the line.
//
// The grammar, in EBNF:
//
//	schedule = clause { "," clause } .
//	clause   = at | interval | aligned | reset .
//	at       = "at" duration { duration } .
//	interval = duration [ "until" duration ] .
//	aligned  = "every" duration "at" offset { offset } [ "until" duration ] .
//	offset   = "+" duration .
//	reset    = "reset" "on" "signal" .
//	duration = "0" | amount unit { amount unit } .
//	amount   = digit { digit } [ "." { digit } ] .
//	unit     = "ns" | "us" | "µs" | "ms" | "s" | "m" | "h" | "d" .
//
// ("d" must come first in a duration: "1d12h".)
//
// Parse reads the language and reports faults as *SyntaxError with the
// line, column and a caret under the fault (a window of about 200 bytes
// around it on a longer line); a text over MaxText is refused. Format writes the canonical
// form: Format(Parse(s)) is stable and Parse(Format(x)) gives x back for a
// canonical x.
//
// # Using a schedule
//
// Timeline compiles the age-based clauses so that counting the asks up to
// an age and finding the next ask take O(log clauses) whatever the number
// of asks; Aligned.Count and Aligned.Next do the same for the wall-clock
// asks of an item created at a given time. Timeline.Asks and ItemAsks list
// asks up to a horizon and refuse to list more than MaxAsks (10 million).
package schedule
