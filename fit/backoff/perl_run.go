package backoff

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// PerlBackoff is the state of one Algorithm::Backoff object: feed it
// outcomes with Success and Failure, each returning the delay in
// seconds before the next attempt, or −1 when the strategy gives up.
type PerlBackoff struct {
	p     Perl
	rng   *rand.Rand
	start float64

	attempts        int
	lastTS          float64
	haveLastTS      bool
	lastDelay       float64 // consider_actual_delay carry
	prevDelay       float64
	havePrev        bool
	fibPrev, fibCur float64
}

// Success logs a success at timestamp ts (seconds) and returns the
// delay. It resets the attempt counter.
func (b *PerlBackoff) Success(ts float64) (float64, error) {
	b.attempts = 0
	return b.outcome(true, ts)
}

// Failure logs a failure at timestamp ts and returns the delay, or −1
// when ts − start ≥ max_actual_duration (checked first) or this is the
// max_attempts-th consecutive failure.
func (b *PerlBackoff) Failure(ts float64) (float64, error) {
	p := b.p
	if p.MaxActualDuration > 0 && ts-b.start >= p.MaxActualDuration {
		return -1, nil
	}
	b.attempts++
	if p.MaxAttempts > 0 && b.attempts >= p.MaxAttempts {
		return -1, nil
	}
	return b.outcome(false, ts)
}

// outcome is Perl's _success_or_failure.
func (b *PerlBackoff) outcome(success bool, ts float64) (float64, error) {
	p := b.p
	if !b.haveLastTS {
		b.lastTS, b.haveLastTS = ts, true
	}
	if ts < b.lastTS {
		return 0, fmt.Errorf("%s: decreasing timestamp (%s -> %s)", p.Algorithm, formatPerl(b.lastTS), formatPerl(ts))
	}
	var d float64
	if success {
		d = b.onSuccess()
	} else {
		d = b.onFailure()
	}
	if p.ConsiderActualDelay {
		d = d + b.lastDelay - (ts - b.lastTS)
		b.lastDelay = d
	}
	if p.JitterFactor != 0 && d != 0 {
		lo, hi := d*(1-p.JitterFactor), d*(1+p.JitterFactor)
		d = lo + (hi-lo)*b.rng.Float64()
	}
	d = b.clamp(d)
	b.lastTS = ts
	b.prevDelay, b.havePrev = d, true
	return d, nil
}

// clamp keeps d between max(0, min_delay) and max_delay in Perl's
// order: max_delay first, then 0, then min_delay.
func (b *PerlBackoff) clamp(d float64) float64 {
	p := b.p
	if p.MaxDelay > 0 && d > p.MaxDelay {
		d = p.MaxDelay
	}
	if d < 0 {
		d = 0
	}
	if d < p.MinDelay {
		d = p.MinDelay
	}
	return d
}

func (b *PerlBackoff) onSuccess() float64 {
	p := b.p
	switch p.Algorithm {
	case AlgoConstant, AlgoExponential, AlgoFibonacci:
		return p.DelayOnSuccess
	}
	if !b.havePrev {
		return p.InitialDelay
	}
	switch p.Algorithm {
	case AlgoLILD, AlgoMILD:
		return b.prevDelay + p.DelayIncrementOnSuccess
	}
	return b.prevDelay * p.DelayMultipleOnSuccess
}

func (b *PerlBackoff) onFailure() float64 {
	p := b.p
	switch p.Algorithm {
	case AlgoConstant:
		return p.Delay
	case AlgoExponential:
		return p.InitialDelay * math.Pow(p.base(), float64(b.attempts-1))
	case AlgoFibonacci:
		switch b.attempts {
		case 1:
			b.fibPrev, b.fibCur = 0, p.InitialDelay1
		case 2:
			b.fibPrev, b.fibCur = p.InitialDelay1, p.InitialDelay2
		default:
			b.fibPrev, b.fibCur = b.fibCur, b.fibPrev+b.fibCur
		}
		return b.fibCur
	}
	if !b.havePrev {
		return p.InitialDelay
	}
	switch p.Algorithm {
	case AlgoLILD, AlgoLIMD:
		return b.prevDelay + p.DelayIncrementOnFailure
	}
	return b.prevDelay * p.DelayMultipleOnFailure
}

func (p Perl) base() float64 {
	if p.ExponentBase == 0 {
		return 2
	}
	return p.ExponentBase
}

// steady reports the delay of every further failure when the state has
// reached a fixed point under failures only and nothing limits them.
func (b *PerlBackoff) steady() (time.Duration, bool) {
	p := b.p
	if p.MaxAttempts > 0 || p.MaxActualDuration > 0 || p.ConsiderActualDelay || p.JitterFactor != 0 {
		return 0, false
	}
	next := func() float64 {
		c := *b
		d, _ := c.Failure(c.lastTS)
		return d
	}
	switch p.Algorithm {
	case AlgoConstant:
		return dur(next()), true
	case AlgoExponential:
		raw := p.InitialDelay * math.Pow(p.base(), float64(b.attempts))
		grows := p.base() >= 1
		if p.base() == 1 || grows && p.MaxDelay > 0 && raw >= p.MaxDelay || !grows && raw <= p.MinDelay {
			return dur(next()), true
		}
	case AlgoFibonacci:
		if b.attempts >= 2 && p.MaxDelay > 0 && b.fibPrev+b.fibCur >= p.MaxDelay {
			return dur(next()), true
		}
	default:
		// LILD..MIMD under failures are d ← clamp(f(d)): a fixed point of
		// one step is a fixed point for ever.
		if b.havePrev && next() == b.prevDelay {
			return dur(b.prevDelay), true
		}
	}
	return 0, false
}
