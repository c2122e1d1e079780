package logs

import (
	"strings"
	"testing"
)

// TestReadDeferredAgeNamesRow: the error for a pending item too old at
// the latest timestamp once named no file or line; it names the oldest
// pending row, here line 3 of two pending rows (lines 2 and 3, the one
// on line 3 created first).
func TestReadDeferredAgeNamesRow(t *testing.T) {
	text := "created_at,settled_at,status\n1950-01-01T00:00:00Z,,pending\n1900-01-01T00:00:00Z,,pending\n" +
		"2200-01-01T00:00:00Z,2200-01-01T00:00:01Z,settled\n"
	_, _, err := readText(t, "p.csv", text, Options{})
	want := "p.csv:3: a pending item created at 1900-01-01T00:00:00Z is 300.2 years old at the latest timestamp, 2200-01-01T00:00:01Z"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}
