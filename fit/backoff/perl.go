package backoff

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/pollfit/pollfit/internal/quote"
)

// Algorithm is one of the strategies of Perl's Algorithm::Backoff.
type Algorithm uint8

const (
	AlgoConstant Algorithm = iota
	AlgoExponential
	AlgoFibonacci
	AlgoLILD // linear increment on failure, linear decrement on success
	AlgoLIMD // linear increment, multiplicative decrement
	AlgoMILD // multiplicative increment, linear decrement
	AlgoMIMD // multiplicative increment, multiplicative decrement
)

var algoNames = [...]string{"Constant", "Exponential", "Fibonacci", "LILD", "LIMD", "MILD", "MIMD"}

// String is the Perl name: "Constant", ..., "LIMD".
func (a Algorithm) String() string {
	if int(a) < len(algoNames) {
		return algoNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", a)
}

// ParseAlgorithm reads a Perl strategy name, in any case.
func ParseAlgorithm(name string) (Algorithm, error) {
	for i, n := range algoNames {
		if strings.EqualFold(n, name) {
			return Algorithm(i), nil
		}
	}
	return 0, fmt.Errorf("unknown Algorithm::Backoff strategy %q (want one of %s)", quote.Clip(name), strings.Join(algoNames[:], ", "))
}

// Attrs lists the attributes (Perl names) algorithm a accepts; required
// ones first, marked with a trailing "*".
func (a Algorithm) Attrs() []string {
	common := []string{"consider_actual_delay", "max_actual_duration", "max_attempts", "jitter_factor", "min_delay", "max_delay"}
	var own []string
	switch a {
	case AlgoConstant:
		own = []string{"delay*", "delay_on_success"}
	case AlgoExponential:
		own = []string{"initial_delay*", "exponent_base", "delay_on_success"}
	case AlgoFibonacci:
		own = []string{"initial_delay1*", "initial_delay2*", "delay_on_success"}
	case AlgoLILD:
		own = []string{"initial_delay*", "delay_increment_on_failure*", "delay_increment_on_success*"}
	case AlgoLIMD:
		own = []string{"initial_delay*", "delay_increment_on_failure*", "delay_multiple_on_success*"}
	case AlgoMILD:
		own = []string{"initial_delay*", "delay_multiple_on_failure*", "delay_increment_on_success*"}
	case AlgoMIMD:
		own = []string{"initial_delay*", "delay_multiple_on_failure*", "delay_multiple_on_success*"}
	}
	return append(own, common...)
}

// Perl is a strategy of Algorithm::Backoff (version 0.009/0.010, as
// Debian's libalgorithm-backoff-perl ships it) with its attributes, in
// seconds. Which attributes an algorithm reads and requires is in
// Algorithm.Attrs; the others are ignored. See the package
// documentation for the exact rules.
type Perl struct {
	Algorithm Algorithm

	Delay                   float64 // Constant: wait after a failure
	InitialDelay            float64 // Exponential, LILD, LIMD, MILD, MIMD
	InitialDelay1           float64 // Fibonacci: first wait after a failure
	InitialDelay2           float64 // Fibonacci: second wait
	ExponentBase            float64 // Exponential; 0 means Perl's default 2
	DelayOnSuccess          float64 // Constant, Exponential, Fibonacci
	DelayIncrementOnFailure float64 // LILD, LIMD
	DelayIncrementOnSuccess float64 // LILD, MILD (e.g. −5)
	DelayMultipleOnFailure  float64 // MILD, MIMD
	DelayMultipleOnSuccess  float64 // LIMD, MIMD

	MinDelay float64
	// MaxDelay caps every delay; 0 means none (Perl's max_delay = 0,
	// which makes every delay 0, cannot be written).
	MaxDelay            float64
	JitterFactor        float64 // in [0, 0.5]
	MaxAttempts         int     // 0: never give up on attempts
	MaxActualDuration   float64 // 0: never give up on time
	ConsiderActualDelay bool
}

// Check applies Algorithm::Backoff's attribute schemas: the delays,
// multiples, durations and exponent base are ≥ 0, the jitter factor is
// in [0, 0.5], max_attempts ≥ 0.
func (p Perl) Check() error {
	if p.Algorithm > AlgoMIMD {
		return fmt.Errorf("unknown algorithm %d", p.Algorithm)
	}
	for _, v := range []struct {
		name string
		x    float64
	}{
		{"delay", p.Delay}, {"initial_delay", p.InitialDelay}, {"initial_delay1", p.InitialDelay1},
		{"initial_delay2", p.InitialDelay2}, {"exponent_base", p.ExponentBase},
		{"delay_on_success", p.DelayOnSuccess}, {"delay_multiple_on_failure", p.DelayMultipleOnFailure},
		{"delay_multiple_on_success", p.DelayMultipleOnSuccess}, {"min_delay", p.MinDelay},
		{"max_delay", p.MaxDelay}, {"max_actual_duration", p.MaxActualDuration},
	} {
		if !(v.x >= 0) || math.IsInf(v.x, 0) {
			return fmt.Errorf("%s: %s must be a number ≥ 0, not %v", p.Algorithm, v.name, v.x)
		}
	}
	for _, v := range []float64{p.DelayIncrementOnFailure, p.DelayIncrementOnSuccess} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: delay increment must be a number, not %v", p.Algorithm, v)
		}
	}
	if !(p.JitterFactor >= 0 && p.JitterFactor <= 0.5) {
		return fmt.Errorf("%s: jitter_factor %v is outside [0, 0.5]", p.Algorithm, p.JitterFactor)
	}
	if p.MaxAttempts < 0 {
		return fmt.Errorf("%s: max_attempts %d is negative", p.Algorithm, p.MaxAttempts)
	}
	return nil
}

// Deterministic reports whether p has no jitter.
func (p Perl) Deterministic() bool { return p.JitterFactor == 0 }

// New starts the algorithm as Algorithm::Backoff's new does, with the
// start timestamp start (seconds). rng draws the jitter (nil: a fixed
// seed).
func (p Perl) New(start float64, rng *rand.Rand) *PerlBackoff {
	if rng == nil {
		rng = rand.New(rand.NewPCG(1, 2))
	}
	return &PerlBackoff{p: p, rng: rng, start: start}
}

// Start begins one client whose failures are at the elapsed times
// Next is given, as Perl's failure(start + elapsed).
func (p Perl) Start(rng *rand.Rand) Retrier { return &perlRetrier{p.New(0, rng)} }

// String writes p in the spec syntax: its name (perl.Constant,
// perl.Exponential, perl.Fibonacci, LILD, ...) and its required
// attributes and the optional ones that are not zero.
func (p Perl) String() string {
	var args []string
	for _, a := range p.Algorithm.Attrs() {
		name := strings.TrimSuffix(a, "*")
		v, _ := p.get(name)
		if a == name && v == 0 {
			continue
		}
		if name == "consider_actual_delay" {
			args = append(args, name+"=1")
			continue
		}
		args = append(args, name+"="+formatPerl(v))
	}
	name := p.Algorithm.String()
	if p.Algorithm < AlgoLILD {
		name = "perl." + name // constant, exponential and fibonacci are pollfit's own
	}
	return name + "(" + strings.Join(args, ", ") + ")"
}

// formatPerl writes x as Perl prints a number: %.15g.
func formatPerl(x float64) string { return fmt.Sprintf("%.15g", x) }

// FormatPerl writes a delay as Perl prints a number (%.15g): 2, 0.4,
// 1e-05, -1.
func FormatPerl(x float64) string { return formatPerl(x) }

type perlRetrier struct{ b *PerlBackoff }

func (r *perlRetrier) Next(elapsed time.Duration) (time.Duration, bool) {
	d, err := r.b.Failure(r.b.start + seconds(elapsed))
	if err != nil || d < 0 {
		return 0, false
	}
	return dur(d), true
}

func (r *perlRetrier) steady() (time.Duration, bool) { return r.b.steady() }
