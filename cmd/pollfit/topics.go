package main

import (
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strings"
)

// A topic is a help page that is not a command: "pollfit help NAME"
// prints it.
type topic struct {
	name    string
	summary string // one line for "pollfit help"
	text    string
}

var topics = map[string]*topic{
	"schedule": {
		name:    "schedule",
		summary: "the schedule language, its clauses, durations and grammar",
		text:    scheduleTopic,
	},
	"logs": {
		name:    "logs",
		summary: "reading logs: columns, status words, time formats, sketches, warehouses and pollfit sql",
		text:    logsTopic,
	},
	"fitting": {
		name:    "fitting",
		summary: "estimate, fit, frontier and report in detail: the budget kinds, the give-up age, the limit and the shapes",
		text:    fittingTopic,
	},
	"by": {
		name:    "by",
		summary: "one schedule per value of a column (--by), the shared budget and the exports per value",
		text:    byTopic,
	},
	"shipping": {
		name:    "shipping",
		summary: "exporting a schedule for the pollers: formats, the BackOff API and the retry-library adapters",
		text:    exportTopic,
	},
	"backoff": {
		name:    "backoff",
		summary: "retry strategies as baselines, pollfit delays, and retry storms with pollfit simulate",
		text:    backoffTopic,
	},
	"limits": {
		name:    "limits",
		summary: "the ceilings that keep hostile or careless input from hanging pollfit or exhausting memory",
		text:    limitsTopic,
	},
}

// The reference topics, kept as plain text beside this file (help/*.txt):
// the README links to them rather than repeating them.
var (
	//go:embed help/logs.txt
	logsTopic string
	//go:embed help/fitting.txt
	fittingTopic string
	//go:embed help/by.txt
	byTopic string
	//go:embed help/shipping.txt
	exportTopic string
	//go:embed help/backoff.txt
	backoffTopic string
	//go:embed help/limits.txt
	limitsTopic string
)

// topicNames lists the help topics in order.
func topicNames() []string {
	names := make([]string, 0, len(topics))
	for n := range topics {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func topicHelp(w io.Writer, t *topic) {
	fmt.Fprintf(w, "%s\n", strings.TrimRight(t.text, "\n"))
}

// scheduleTopic is "pollfit help schedule". Its grammar is the one in
// the documentation of package fit/schedule, which a test checks.
const scheduleTopic = `A schedule gives the ages (time since an item was created) at which a client
asks "done yet?":

  1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m
  at 0s 3s 8s 16s 29s, 15s until 2m, 30s
  at 0s 1s, 2s until 2m, 5s, every 5m at +2s +5s until 1h, reset on signal

Clauses are separated by commas:

  at A B C ...   asks at those ages, strictly increasing.
  D until T      asks every D after the previous ask while the age stays ≤ T.
  D              asks every D after the previous ask forever (last clause only).
  every P at +O1 +O2 ... [until T]
                 asks, in addition, at the offsets O after every UTC
                 wall-clock boundary of period P (every 5m: :00, :05, ...),
                 from age 0 until T, or forever: for upstreams that settle
                 in batches.
  reset on signal
                 a signal (a push, the app coming to the foreground) makes
                 the client ask at once and restarts the age clauses.

If the first age clause is an interval, an ask at age 0 is implied; a
schedule whose last age clause is "at" or has "until" stops there.
Durations are Go's (500ms, 1.5s, 2m, 1h30m) plus d for a day of 24 hours
(3.5d, 1d12h), and 0; a number without a unit is an error. Intervals and
periods are at least 1ms. Keywords are case-insensitive and # starts a
comment that runs to the end of the line.

The grammar, in EBNF:

  schedule = clause { "," clause } .
  clause   = at | interval | aligned | reset .
  at       = "at" duration { duration } .
  interval = duration [ "until" duration ] .
  aligned  = "every" duration "at" offset { offset } [ "until" duration ] .
  offset   = "+" duration .
  reset    = "reset" "on" "signal" .
  duration = "0" | amount unit { amount unit } .
  amount   = digit { digit } [ "." { digit } ] .
  unit     = "ns" | "us" | "µs" | "ms" | "s" | "m" | "h" | "d" .

("d" must come first in a duration: 1d12h.)

Where a command takes a schedule (eval -s, export -s, the --baseline of
fit, frontier and report), @FILE reads one from a file: schedule text, or a
JSON document written by 'pollfit export --format json' or 'pollfit fit
--json'.
The library is github.com/pollfit/pollfit/fit/schedule.
`
