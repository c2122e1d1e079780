package schedule

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pollfit/pollfit/internal/quote"
)

// MaxAge is the longest duration or age pollfit accepts: 100 years of
// 365 days. Ages beyond it are mistakes (a timestamp in the wrong unit or
// century), and allowing them would let sums of ages overflow int64.
const MaxAge = 100 * 365 * 24 * time.Hour

// ParseDuration parses a duration in Go syntax ("500ms", "1.5s", "2m",
// "1h30m"), with "d" for days of 24 hours ("3.5d", "1d12h") and "0".
// A number without a unit other than 0 is an error, as is a negative
// duration or one longer than MaxAge.
func ParseDuration(s string) (time.Duration, error) {
	d, err := parseDuration(s)
	if err == nil && d > MaxAge {
		return 0, fmt.Errorf("duration %q is longer than the maximum %s (100 years)", quote.Clip(s), FormatDuration(MaxAge))
	}
	return d, err
}

func parseDuration(s string) (time.Duration, error) {
	q := quote.Clip(s)
	if s == "0" {
		return 0, nil
	}
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return 0, fmt.Errorf("duration %q has no unit (write %ss, %sms, ...)", q, q, q)
	}
	if strings.HasPrefix(s, "-") {
		return 0, fmt.Errorf("negative duration %q", q)
	}
	var days time.Duration
	if i := strings.IndexByte(s, 'd'); i >= 0 {
		f, err := strconv.ParseFloat(s[:i], 64)
		if err != nil || f < 0 || s[:i] == "" || strings.ContainsAny(s[:i], "eE+-") {
			return 0, fmt.Errorf("invalid duration %q", q)
		}
		if f*float64(24*time.Hour) > float64(MaxAge) {
			return MaxAge + 1, nil // ParseDuration refuses it
		}
		days = time.Duration(math.Round(f * float64(24*time.Hour)))
		s = s[i+1:]
		if s == "" {
			return days, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q", q)
	}
	if d < 0 {
		return 0, fmt.Errorf("negative duration %q", q)
	}
	if d > MaxAge {
		return MaxAge + 1, nil // too long, whatever the days
	}
	return days + d, nil
}

// FormatDuration writes d in the canonical form ParseDuration reads:
// "0s", "500ms", "1.5s", "2m", "1m30s", "1h5s", "1d12h"; ASCII "us"
// for microseconds.
func FormatDuration(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	var b strings.Builder
	if d < 0 {
		b.WriteByte('-')
		d = -d
	}
	if d < time.Second {
		return b.String() + strings.ReplaceAll(d.String(), "µ", "u")
	}
	for _, u := range []struct {
		size time.Duration
		name string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}} {
		if n := d / u.size; n > 0 {
			fmt.Fprintf(&b, "%d%s", n, u.name)
			d -= n * u.size
		}
	}
	if d > 0 {
		b.WriteString(strconv.FormatInt(int64(d/time.Second), 10))
		if frac := int64(d % time.Second); frac != 0 {
			b.WriteString("." + strings.TrimRight(fmt.Sprintf("%09d", frac), "0"))
		}
		b.WriteString("s")
	}
	return b.String()
}
