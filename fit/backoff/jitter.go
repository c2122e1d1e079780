package backoff

import (
	"fmt"
	"math/rand/v2"
	"strconv"
)

// JitterKind says how a wait is randomised.
type JitterKind uint8

const (
	// NoJitter waits exactly the capped base wait c = min(b, Max).
	NoJitter JitterKind = iota
	// Full waits U(0, c): AWS's "full jitter".
	Full
	// Equal waits c/2 + U(0, c/2): AWS's "equal jitter".
	Equal
	// Decorrelated waits min(Max, U(b(1), 3·w)) where w is the previous
	// wait (b(1) before the first): AWS's "decorrelated jitter". It
	// ignores the kind's growth after b(1).
	Decorrelated
	// Proportional waits min(Max, b·(1 + Factor·U(−1, 1))): the base
	// wait is spread by ±Factor, then capped, as Algorithm::Backoff's
	// jitter_factor does.
	Proportional
	// AfterCap waits c·(1 + Factor·U(−1, 1)): the capped wait is spread
	// by ±Factor, so a wait may exceed Max by the factor. gRPC's
	// connection backoff (Factor 0.2), cenkalti/backoff's
	// RandomizationFactor and resilience4j's randomizationFactor (0.5 by
	// default in both) randomise this way.
	AfterCap
	// Additive waits min(Max, b + U(0, Factor·b)): the webhook paper's
	// jitter() ~ U(0, 0.1·delay), Factor 0.1.
	Additive
)

// Jitter is a jitter kind with its factor (for Proportional, AfterCap
// and Additive). The zero Jitter is no jitter.
type Jitter struct {
	Kind   JitterKind
	Factor float64
}

// GRPC is gRPC's ±20 % jitter applied after the cap: its connection
// backoff's and, since gRFC A6's 2024 revision, the retry wait of
// grpc-go and grpc-java (GRPCClients).
var GRPC = Jitter{Kind: AfterCap, Factor: 0.2}

// String writes j as the jitter= option of a spec.
func (j Jitter) String() string {
	f := strconv.FormatFloat(j.Factor, 'g', -1, 64)
	switch j.Kind {
	case NoJitter:
		return "none"
	case Full:
		return "full"
	case Equal:
		return "equal"
	case Decorrelated:
		return "decorrelated"
	case Proportional:
		return f
	case AfterCap:
		if j == GRPC {
			return "grpc"
		}
		return "grpc:" + f
	case Additive:
		return "plus:" + f
	}
	return fmt.Sprintf("JitterKind(%d)", j.Kind)
}

func (j Jitter) check() error {
	switch j.Kind {
	case NoJitter, Full, Equal, Decorrelated:
		return nil
	case Proportional, AfterCap:
		if !(j.Factor >= 0 && j.Factor <= 1) {
			return fmt.Errorf("jitter factor %v is outside [0, 1]", j.Factor)
		}
		return nil
	case Additive:
		if !(j.Factor >= 0 && j.Factor < 1e6) {
			return fmt.Errorf("jitter factor %v is negative or absurd", j.Factor)
		}
		return nil
	}
	return fmt.Errorf("unknown jitter kind %d", j.Kind)
}

// apply randomises the base wait b (seconds) with cap mx (+Inf for
// none), first wait initial and previous wait prev.
func (j Jitter) apply(rng *rand.Rand, b, mx, initial, prev float64) float64 {
	c := min(b, mx)
	switch j.Kind {
	case Full:
		return c * rng.Float64()
	case Equal:
		return c/2 + c/2*rng.Float64()
	case Decorrelated:
		hi := 3 * prev
		return min(mx, initial+(hi-initial)*rng.Float64())
	case Proportional:
		return min(mx, b*(1+j.Factor*(2*rng.Float64()-1)))
	case AfterCap:
		return c * (1 + j.Factor*(2*rng.Float64()-1))
	case Additive:
		return min(mx, b+j.Factor*b*rng.Float64())
	}
	return c
}
