package estimate

import (
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// MaxAge is the oldest age pollfit accepts: 100 years of 365 days. A row
// whose age (settled − created, a duration, a signal age, or a pending
// item's age at the observed-at time) is beyond it is a bad row: it is a
// timestamp in the wrong unit or century, and allowing it would let
// differences and sums of nanoseconds overflow int64.
const MaxAge = schedule.MaxAge

// maxAgeSeconds is MaxAge in seconds.
const maxAgeSeconds = float64(MaxAge / time.Second)
