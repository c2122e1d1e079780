package logs

import (
	"fmt"
	"math"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// maxAgeSeconds is estimate.MaxAge in seconds.
const maxAgeSeconds = float64(estimate.MaxAge / time.Second)

// skipAge is the reason rows with an age beyond estimate.MaxAge are skipped for.
const skipAge = "age beyond 100 years"

// ageBetween is to − from in seconds for from ≤ to; ok is false when the
// difference is beyond estimate.MaxAge. It never overflows: the difference of two
// int64s is exact in uint64.
func ageBetween(from, to int64) (sec float64, ok bool) {
	d := uint64(to) - uint64(from)
	if d > uint64(estimate.MaxAge) {
		return 0, false
	}
	return float64(d) / 1e9, true
}

// tooOld is the message for an age beyond estimate.MaxAge.
func tooOld(what string, sec float64) string {
	return fmt.Sprintf("%s of %.4g years is beyond the maximum age of 100 years (check the timestamps' unit and century)", what, sec/(365*24*3600))
}

// secondsBetween is to − from in seconds for from ≤ to, for messages.
func secondsBetween(from, to int64) float64 {
	return float64(uint64(to)-uint64(from)) / 1e9
}

// addSeconds is t + sec seconds in nanoseconds, for an age sec ≤ MaxAge;
// it saturates rather than overflow.
func addSeconds(t int64, sec float64) int64 {
	d := int64(sec * 1e9)
	if t > 0 && d > math.MaxInt64-t {
		return math.MaxInt64
	}
	return t + d
}

// addSat is a + b for b ≥ 0, saturating at the largest int64.
func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
