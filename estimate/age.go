package estimate

import (
	"fmt"
	"math"
	"time"
)

// MaxAge is the oldest age pollfit accepts: 100 years of 365 days. A row
// whose age (settled − created, a duration, a signal age, or a pending
// item's age at the observed-at time) is beyond it is a bad row: it is a
// timestamp in the wrong unit or century, and allowing it would let
// differences and sums of nanoseconds overflow int64.
const MaxAge = 100 * 365 * 24 * time.Hour

// maxAgeSeconds is MaxAge in seconds.
const maxAgeSeconds = float64(MaxAge / time.Second)

// skipAge is the reason rows with an age beyond MaxAge are skipped for.
const skipAge = "age beyond 100 years"

// ageBetween is to − from in seconds for from ≤ to; ok is false when the
// difference is beyond MaxAge. It never overflows: the difference of two
// int64s is exact in uint64.
func ageBetween(from, to int64) (sec float64, ok bool) {
	d := uint64(to) - uint64(from)
	if d > uint64(MaxAge) {
		return 0, false
	}
	return float64(d) / 1e9, true
}

// tooOld is the message for an age beyond MaxAge.
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
