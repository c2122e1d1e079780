package schedule

import (
	"math"
	"testing"
)

// The ages are worked by hand: 1.3467 s to three digits is 1.35 s,
// 0.6313 s is 631 ms, 125 s is 2m5s, 9360 s is 2 h 36 min.
func TestFormatAge(t *testing.T) {
	for _, c := range []struct {
		sec  float64
		want string
	}{
		{0, "0"}, {0.001, "1ms"}, {0.5, "500ms"}, {1, "1s"}, {1.5, "1.5s"}, {10, "10s"},
		{60, "1m"}, {90, "90s"}, {120, "2m"}, {600, "10m"}, {3600, "1h"}, {5400, "90m"},
		{6 * 3600, "6h"}, {36 * 3600, "36h"}, {86400, "1d"}, {7 * 86400, "7d"}, {-30, "-30s"}, {1.3467, "1.35s"}, {0.6313, "631ms"}, {6.825, "6.83s"}, {0.0005, "500µs"}, {math.NaN(), "-"}, {math.Inf(1), "-"},
		{1340, "22m20s"}, {125, "2m5s"}, {119.7, "2m"}, {9360, "2h36m"}, {150 * 3600, "6d6h"}, {86340, "23h59m"}, {86280.4, "23h58m"}, {129600, "36h"}, {131000, "1d12h"},
	} {
		if got := FormatAge(c.sec); got != c.want {
			t.Errorf("FormatAge(%g) = %q, want %q", c.sec, got, c.want)
		}
	}
}
