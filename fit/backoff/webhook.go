package backoff

import (
	"math"
	"time"
)

// WebhookStandard is the webhook paper's standard retry table: the
// first attempt at once, then waits of 1 m, 5 m, 30 m, 2 h, 8 h, 24 h and
// 48 h, asking at 0, 1m, 6m, 36m, 2h36m, 10h36m, 34h36m and 82h36m; after
// the 8th failed attempt the delivery goes to the dead-letter queue (the
// strategy gives up).
func WebhookStandard() Backoff {
	return Backoff{Kind: Table, Waits: []time.Duration{
		time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour,
		8 * time.Hour, 24 * time.Hour, 48 * time.Hour,
	}}
}

// WebhookExponential is the webhook paper's formula
// delay(n) = min(base·2^n + U(0, 0.1·base·2^n), max) with base 60 s and
// max 24 h, n = 0 for the first retry.
func WebhookExponential() Backoff {
	return Backoff{Kind: Exponential, Initial: time.Minute, Factor: 2, Max: 24 * time.Hour,
		Jitter: Jitter{Kind: Additive, Factor: 0.1}}
}

// Attempt is one past delivery attempt to an endpoint.
type Attempt struct {
	Time    time.Time
	Success bool
}

// HealthDecay is the webhook paper's λ: 0.1 per hour.
const HealthDecay = 0.1 / float64(time.Hour)

// Health is the webhook paper's endpoint health score at now:
// Σ 1[success]·e^{−λ(now−t)} / |D| over the recent attempts D, with
// λ = 0.1/hour (HealthDecay). It is NaN when there are no attempts.
func Health(attempts []Attempt, now time.Time) float64 {
	if len(attempts) == 0 {
		return math.NaN()
	}
	var s float64
	for _, a := range attempts {
		if a.Success {
			s += math.Exp(-HealthDecay * float64(now.Sub(a.Time)))
		}
	}
	return s / float64(len(attempts))
}

// HealthMultiplier is the webhook paper's adaptive factor for a health
// score h: 0.5 above 0.9 (healthy: retry sooner), 1 above 0.5, else 2
// (unhealthy: retry later). An unknown health (NaN) gives 1.
func HealthMultiplier(h float64) float64 {
	switch {
	case math.IsNaN(h):
		return 1
	case h > 0.9:
		return 0.5
	case h > 0.5:
		return 1
	}
	return 2
}
