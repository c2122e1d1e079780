package main

import (
	"slices"
	"testing"
)

// TestSurvivalAges checks that estimate --survival-at reads durations
// as every other pollfit flag does (schedule.ParseDuration, d for a day)
// and bare seconds.
func TestSurvivalAges(t *testing.T) {
	got, err := parseAges([]string{"1d", "1d12h", "3.5d", "90", "1.5s", "2m", "0", " 30s "})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{86400, 129600, 302400, 90, 1.5, 120, 0, 30}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, bad := range []string{"soon", "-1s", "-5", "NaN", "Inf", "1e99", "36501d", "1h1d", ""} {
		if _, err := parseAges([]string{bad}); err == nil {
			t.Errorf("--survival-at %q: no error", bad)
		}
	}
}
