package backoff

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// Kind is the growth rule of a Backoff: its base wait b(n) before the
// n-th retry, n = 1, 2, ...
type Kind uint8

const (
	// Constant: b(n) = Initial.
	Constant Kind = iota
	// Linear: b(n) = Initial + (n−1)·Step.
	Linear
	// Exponential: b(n) = Initial·Factor^(n−1).
	Exponential
	// Fibonacci: b(n) = Initial·F(n) with F = 1, 1, 2, 3, 5, 8, ...
	Fibonacci
	// Table: b(n) = Waits[n−1]; it gives up after the last.
	Table
)

var kindNames = [...]string{"constant", "linear", "exponential", "fibonacci", "table"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Backoff is pollfit's own family of strategies: a base wait that grows
// by Kind, capped at Max, randomised by Jitter, scaled by Multiplier,
// with optional limits on attempts and elapsed time. Each wait is, in
// this order: the base wait b(n); the jitter and cap (see JitterKind;
// without jitter min(b(n), Max)); times Multiplier.
//
// The zero Backoff is constant(0), which is valid as a retry rule but
// not as a schedule.
type Backoff struct {
	Kind    Kind
	Initial time.Duration   // first wait (every wait for Constant)
	Step    time.Duration   // Linear: added per retry
	Factor  float64         // Exponential: growth per retry; 0 means 2
	Waits   []time.Duration // Table: the waits in order
	// Max caps each wait before jitter is applied; 0 means no cap.
	Max    time.Duration
	Jitter Jitter
	// Attempts limits the attempts, the first included: the strategy
	// gives up at the Attempts-th failure (Algorithm::Backoff's
	// max_attempts). 0 means no limit.
	Attempts int
	// Elapsed gives up at a failure Elapsed or more after the first
	// attempt (Algorithm::Backoff's max_actual_duration). 0: no limit.
	Elapsed time.Duration
	// Multiplier scales every wait last (the webhook paper's adaptive
	// retry, see HealthMultiplier); 0 means 1.
	Multiplier float64
}

func (b Backoff) factor() float64 {
	if b.Factor == 0 {
		return 2
	}
	return b.Factor
}

func (b Backoff) mult() float64 {
	if b.Multiplier == 0 {
		return 1
	}
	return b.Multiplier
}

func (b Backoff) capSecs() float64 {
	if b.Max <= 0 {
		return math.Inf(1)
	}
	return seconds(b.Max)
}

// Check reports a Backoff that makes no sense.
func (b Backoff) Check() error {
	switch {
	case b.Kind > Table:
		return fmt.Errorf("unknown kind %d", b.Kind)
	case b.Initial < 0 || b.Step < 0 || b.Max < 0 || b.Elapsed < 0:
		return fmt.Errorf("%s: negative duration", b.Kind)
	case b.Factor < 0 || math.IsNaN(b.Factor) || math.IsInf(b.Factor, 0):
		return fmt.Errorf("%s: factor %v must be positive", b.Kind, b.Factor)
	case b.Multiplier < 0 || math.IsNaN(b.Multiplier) || math.IsInf(b.Multiplier, 0):
		return fmt.Errorf("%s: multiplier %v must be positive", b.Kind, b.Multiplier)
	case b.Attempts < 0:
		return fmt.Errorf("%s: attempts %d is negative", b.Kind, b.Attempts)
	case (b.Kind == Exponential || b.Kind == Fibonacci || b.Kind == Linear && b.Step == 0) && b.Initial == 0:
		return fmt.Errorf("%s: initial must be positive (every wait would be 0)", b.Kind)
	case b.Kind == Table && len(b.Waits) == 0:
		return fmt.Errorf("table needs at least one wait")
	}
	for _, w := range b.Waits {
		if w < 0 {
			return fmt.Errorf("table: negative wait %s", w)
		}
	}
	return b.Jitter.check()
}

// Deterministic reports whether b has no jitter.
func (b Backoff) Deterministic() bool { return b.Jitter.Kind == NoJitter }

// Start begins one client.
func (b Backoff) Start(rng *rand.Rand) Retrier {
	if rng == nil && !b.Deterministic() {
		rng = rand.New(rand.NewPCG(1, 2))
	}
	first := seconds(b.Initial)
	if b.Kind == Table && len(b.Waits) > 0 {
		first = seconds(b.Waits[0])
	}
	return &backoffRun{b: b, rng: rng, first: first, prev: first, f1: 0, f2: 1}
}

type backoffRun struct {
	b      Backoff
	rng    *rand.Rand
	n      int     // failures so far
	first  float64 // b(1) in seconds: decorrelated jitter's floor
	prev   float64 // previous wait in seconds (decorrelated jitter)
	f1, f2 float64 // Fibonacci F(n-1), F(n)
}

// base is b(n) in seconds for the n-th retry (n = r.n after counting).
func (r *backoffRun) base() (float64, bool) {
	b, n := r.b, r.n
	switch b.Kind {
	case Constant:
		return seconds(b.Initial), true
	case Linear:
		return seconds(b.Initial) + float64(n-1)*seconds(b.Step), true
	case Exponential:
		return seconds(b.Initial) * math.Pow(b.factor(), float64(n-1)), true
	case Fibonacci:
		if n > 1 {
			r.f1, r.f2 = r.f2, r.f1+r.f2
		}
		return seconds(b.Initial) * r.f2, true
	case Table:
		if n > len(b.Waits) {
			return 0, false
		}
		return seconds(b.Waits[n-1]), true
	}
	return 0, false
}

func (r *backoffRun) Next(elapsed time.Duration) (time.Duration, bool) {
	b := r.b
	if b.Elapsed > 0 && elapsed >= b.Elapsed {
		return 0, false
	}
	r.n++
	if b.Attempts > 0 && r.n >= b.Attempts {
		return 0, false
	}
	base, ok := r.base()
	if !ok {
		return 0, false
	}
	w := b.Jitter.apply(r.rng, base, b.capSecs(), r.first, r.prev)
	r.prev = w
	return dur(w * b.mult()), true
}

// steady reports the wait once every further one is the cap.
func (r *backoffRun) steady() (time.Duration, bool) {
	b := r.b
	if b.Attempts > 0 || b.Elapsed > 0 || b.Kind == Table || b.Jitter.Kind != NoJitter {
		return 0, false
	}
	if b.Kind == Constant || b.Kind == Linear && b.Step == 0 || b.Kind == Exponential && b.factor() == 1 {
		return dur(min(seconds(b.Initial), b.capSecs()) * b.mult()), true
	}
	// The next base wait reaches the cap and the base never decreases.
	var next float64
	switch b.Kind {
	case Linear:
		next = seconds(b.Initial) + float64(r.n)*seconds(b.Step)
	case Exponential:
		if b.factor() < 1 {
			return 0, false
		}
		next = seconds(b.Initial) * math.Pow(b.factor(), float64(r.n))
	case Fibonacci:
		next = seconds(b.Initial) * (r.f1 + r.f2)
		if r.n == 0 {
			next = seconds(b.Initial)
		}
	}
	if c := b.capSecs(); next >= c {
		return dur(c * b.mult()), true
	}
	return 0, false
}

// String writes b in the spec syntax.
func (b Backoff) String() string {
	var args []string
	d := schedule.FormatDuration
	switch b.Kind {
	case Constant:
		args = append(args, d(b.Initial))
	case Linear:
		args = append(args, "initial="+d(b.Initial), "step="+d(b.Step))
	case Exponential:
		args = append(args, "initial="+d(b.Initial), "factor="+strconv.FormatFloat(b.factor(), 'g', -1, 64))
	case Fibonacci:
		args = append(args, "initial="+d(b.Initial))
	case Table:
		for _, w := range b.Waits {
			args = append(args, d(w))
		}
	}
	if b.Max > 0 {
		args = append(args, "max="+d(b.Max))
	}
	if b.Jitter.Kind != NoJitter {
		args = append(args, "jitter="+b.Jitter.String())
	}
	if b.Attempts > 0 {
		args = append(args, "attempts="+strconv.Itoa(b.Attempts))
	}
	if b.Elapsed > 0 {
		args = append(args, "elapsed="+d(b.Elapsed))
	}
	if m := b.mult(); m != 1 {
		args = append(args, "multiplier="+strconv.FormatFloat(m, 'g', -1, 64))
	}
	return b.Kind.String() + "(" + strings.Join(args, ", ") + ")"
}
