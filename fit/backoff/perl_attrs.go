package backoff

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/internal/quote"
)

// field returns a pointer to the float attribute called name (Perl's
// spelling), or nil for max_attempts, consider_actual_delay and unknown
// names.
func (p *Perl) field(name string) *float64 {
	switch name {
	case "delay":
		return &p.Delay
	case "initial_delay":
		return &p.InitialDelay
	case "initial_delay1":
		return &p.InitialDelay1
	case "initial_delay2":
		return &p.InitialDelay2
	case "exponent_base":
		return &p.ExponentBase
	case "delay_on_success":
		return &p.DelayOnSuccess
	case "delay_increment_on_failure":
		return &p.DelayIncrementOnFailure
	case "delay_increment_on_success":
		return &p.DelayIncrementOnSuccess
	case "delay_multiple_on_failure":
		return &p.DelayMultipleOnFailure
	case "delay_multiple_on_success":
		return &p.DelayMultipleOnSuccess
	case "min_delay":
		return &p.MinDelay
	case "max_delay":
		return &p.MaxDelay
	case "jitter_factor":
		return &p.JitterFactor
	case "max_actual_duration":
		return &p.MaxActualDuration
	}
	return nil
}

// get reads the attribute called name as a number.
func (p Perl) get(name string) (float64, bool) {
	switch name {
	case "max_attempts":
		return float64(p.MaxAttempts), true
	case "consider_actual_delay":
		if p.ConsiderActualDelay {
			return 1, true
		}
		return 0, true
	}
	if f := p.field(name); f != nil {
		if name == "exponent_base" {
			return p.base(), true
		}
		return *f, true
	}
	return 0, false
}

// Set sets the attribute called name (Perl's spelling, or with dashes
// as the command line writes it) from its text: a number of seconds, or
// a duration with a unit ("100ms") for the delays. It refuses an
// attribute the algorithm does not take.
func (p *Perl) Set(name, value string) error {
	name = strings.ReplaceAll(name, "-", "_")
	if !p.Algorithm.takes(name) {
		return fmt.Errorf("%s takes no attribute %s (it takes %s)", p.Algorithm, quote.Clip(name), strings.Join(p.Algorithm.Attrs(), ", "))
	}
	switch name {
	case "max_attempts":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return fmt.Errorf("max_attempts: %q is not a whole number ≥ 0", quote.Clip(value))
		}
		p.MaxAttempts = n
		return nil
	case "consider_actual_delay":
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("consider_actual_delay: %q is not a boolean (0 or 1)", quote.Clip(value))
		}
		p.ConsiderActualDelay = b
		return nil
	}
	x, err := parseSeconds(value, !strings.Contains(name, "multiple") && name != "exponent_base" && name != "jitter_factor")
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	*p.field(name) = x
	return nil
}

// takes reports whether a accepts the attribute name.
func (a Algorithm) takes(name string) bool {
	for _, n := range a.Attrs() {
		if strings.TrimSuffix(n, "*") == name {
			return true
		}
	}
	return false
}

// Required lists the attributes a requires (Perl's spelling).
func (a Algorithm) Required() []string {
	var req []string
	for _, n := range a.Attrs() {
		if strings.HasSuffix(n, "*") {
			req = append(req, strings.TrimSuffix(n, "*"))
		}
	}
	return req
}

// parseSeconds reads a plain number (seconds) or, when durations are
// allowed, a Go duration such as "100ms".
func parseSeconds(s string, duration bool) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err == nil {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%q is not a finite number", quote.Clip(s))
		}
		return x, nil
	}
	if duration {
		if d, derr := parseDuration(s); derr == nil {
			return d.Seconds(), nil
		}
		return 0, fmt.Errorf("%q is neither a number of seconds nor a duration", quote.Clip(s))
	}
	return 0, fmt.Errorf("%q is not a number", quote.Clip(s))
}
