package estimate

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestModelLimits: model durations beyond MaxAge are refused, draws from
// a heavy tail are censored at MaxAge, and a long spec's error shows a
// window around the caret.
func TestModelLimits(t *testing.T) {
	for _, spec := range []string{"exponential(mean=1000000d)", "point(at=36501d)", "lognormal(median=900000h, sigma=1)"} {
		_, err := ParseModel(spec)
		if err == nil || !strings.Contains(err.Error(), "longer than the maximum") {
			t.Errorf("%s: %v", spec, err)
		}
	}
	m, err := ParseModel("lognormal(median=1h, sigma=40)")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range m.Items(2000, 1, math.Inf(1)) {
		if it.Age > maxAgeSeconds {
			t.Fatalf("drew an age of %g s", it.Age)
		}
	}
	long := "point(at=1s) + " + strings.Repeat(" ", 1<<20) + "oops"
	_, err = ParseModel(long)
	if err == nil || len(err.Error()) > 600 {
		t.Fatalf("error of %d bytes: %q", len(fmt.Sprint(err)), err)
	}
	lines := strings.Split(err.Error(), "\n")
	if c := strings.Index(lines[2], "^"); c < 0 || !strings.HasPrefix(lines[1][c:], "oops") {
		t.Errorf("caret not under oops:\n%s", err)
	}
}
