package main

import (
	"strings"
	"testing"
)

// TestFrontierClauses: each fitted row of frontier --json says what its
// schedule counts against the clause cap. On testdata/payments.csv,
// which has no deadline, that is the help's rule counted by hand from
// the schedule's text: one per interval clause ("2s until 20s"), an
// "at" list one for its first four asks and one more for each after
// (a lone "at" ask at the give-up age none), "reset on signal" and wall
// clock clauses ("every 5m at …") none; and it keeps the cap of 4.
func TestFrontierClauses(t *testing.T) {
	var out frontierOut
	runJSON(t, &out, "frontier", "--json", "--budgets", "2,4,8,16", "../../testdata/payments.csv")
	seen := 0
	for _, r := range out.Points {
		if r.Kind != "fitted" || r.Schedule == "" {
			continue
		}
		seen++
		want := statedClauseCount(r.Schedule)
		if r.Clauses != want {
			t.Errorf("%s: clauses %d, want %d", r.Schedule, r.Clauses, want)
		}
		if r.Clauses > 4 {
			t.Errorf("%s: %d clauses, over the default cap of 4", r.Schedule, r.Clauses)
		}
	}
	if seen != 4 {
		t.Fatalf("%d fitted rows, want 4", seen)
	}
}

// statedClauseCount counts a schedule's text by the help's rule, for a
// log without deadlines.
func statedClauseCount(text string) int {
	parts := strings.Split(text, ", ")
	n := 0
	for i, p := range parts {
		switch {
		case p == "reset on signal" || strings.HasPrefix(p, "every "):
		case strings.HasPrefix(p, "at "):
			asks := len(strings.Fields(p)) - 1
			if i == len(parts)-1 && asks == 1 {
				continue // the lone last ask at the give-up age
			}
			n += 1 + max(0, asks-4)
		default:
			n++
		}
	}
	return n
}
