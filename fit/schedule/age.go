package schedule

import (
	"math"
	"strconv"
)

// FormatAge writes an age or a lag in seconds for people, to three
// significant digits in the largest unit that reads whole: 500ms,
// 1.35s, 30s, 2m, 90s, 1h, 36h, 2d, and in two units from 100 of the
// smaller on when no single one is whole: 2m5s, 22m20s, 2h36m, 6d6h;
// "0" for zero and "-" for an undefined age (NaN or infinite). It is the
// one age formatter of pollfit's text, pictures and report (the
// schedule language's exact durations are FormatDuration's).
func FormatAge(sec float64) string {
	if sec == 0 {
		return "0"
	}
	if math.IsNaN(sec) || math.IsInf(sec, 0) {
		return "-"
	}
	sign := ""
	if sec < 0 {
		sign, sec = "-", -sec
	}
	units := []struct {
		name string
		size float64
	}{{"d", 86400}, {"h", 3600}, {"m", 60}, {"s", 1}, {"ms", 1e-3}, {"µs", 1e-6}}
	for _, u := range units {
		v := sec / u.size
		if v < 1 {
			continue
		}
		r := math.Round(v*100) / 100
		if u.size > 1 && r != math.Round(v) {
			continue // 1.5m reads worse than 90s
		}
		if r >= 100 && u.size < 86400 && sec >= 60 {
			return sign + mixed(sec) // 156m reads worse than 2h36m
		}
		return sign + strconv.FormatFloat(r, 'g', 3, 64) + u.name
	}
	return sign + strconv.FormatFloat(sec, 'g', 3, 64) + "s"
}

// mixed writes an age of a minute or more in two units, rounded to the
// smaller: 22m20s, 23h59m, 1d12h.
func mixed(sec float64) string {
	switch {
	case sec < 3600:
		s := int64(math.Round(sec))
		if s%60 == 0 {
			return strconv.FormatInt(s/60, 10) + "m"
		}
		return strconv.FormatInt(s/60, 10) + "m" + strconv.FormatInt(s%60, 10) + "s"
	case sec < 86400:
		m := int64(math.Round(sec / 60))
		if m%60 == 0 {
			return strconv.FormatInt(m/60, 10) + "h"
		}
		return strconv.FormatInt(m/60, 10) + "h" + strconv.FormatInt(m%60, 10) + "m"
	}
	h := int64(math.Round(sec / 3600))
	if h%24 == 0 {
		return strconv.FormatInt(h/24, 10) + "d"
	}
	return strconv.FormatInt(h/24, 10) + "d" + strconv.FormatInt(h%24, 10) + "h"
}
