package backoff

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/quote"
)

var parseDuration = schedule.ParseDuration

var specRE = regexp.MustCompile(`^\s*([A-Za-z][A-Za-z0-9._-]*)\s*\((.*)\)\s*$`)

// IsSpec reports whether s looks like a strategy spec, name(...), rather
// than a schedule in the schedule language (which has no parentheses).
func IsSpec(s string) bool { return specRE.MatchString(s) }

// arg is one argument of a spec: key=value or a positional value.
type arg struct {
	key, val string
	used     bool
}

// Parse reads a strategy spec: a name and its arguments in parentheses,
// positional first, then key=value. See the package documentation for
// the names and their arguments.
func Parse(spec string) (Strategy, error) {
	m := specRE.FindStringSubmatch(spec)
	if m == nil {
		return nil, fmt.Errorf("strategy %q: want name(arguments), e.g. exponential(initial=100ms, factor=2, max=20s)", quote.Clip(spec))
	}
	name := strings.ToLower(m[1])
	args, err := splitArgs(m[2])
	if err != nil {
		return nil, fmt.Errorf("strategy %q: %v", quote.Clip(spec), err)
	}
	st, err := build(name, args)
	if err != nil {
		return nil, fmt.Errorf("strategy %q: %v", quote.Clip(spec), err)
	}
	for _, a := range args {
		if !a.used {
			if a.key == "" {
				return nil, fmt.Errorf("strategy %q: %s takes no argument %q here", quote.Clip(spec), name, quote.Clip(a.val))
			}
			return nil, fmt.Errorf("strategy %q: %s takes no option %q", quote.Clip(spec), name, quote.Clip(a.key))
		}
	}
	return st, nil
}

func splitArgs(s string) ([]*arg, error) {
	var out []*arg
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	named := false
	for i, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("argument %d is empty", i+1)
		}
		if strings.ContainsAny(part, "()") {
			return nil, fmt.Errorf("argument %d %q: unexpected parenthesis", i+1, quote.Clip(part))
		}
		a := &arg{val: part}
		if k, v, ok := strings.Cut(part, "="); ok {
			a.key = strings.ToLower(strings.TrimSpace(k))
			a.val = strings.TrimSpace(v)
			named = true
		} else if named {
			return nil, fmt.Errorf("positional argument %q after a key=value one", quote.Clip(part))
		}
		out = append(out, a)
	}
	return out, nil
}

func build(name string, args []*arg) (Strategy, error) {
	if alg, err := ParseAlgorithm(strings.TrimPrefix(name, "perl.")); err == nil &&
		(strings.HasPrefix(name, "perl.") || alg >= AlgoLILD) {
		return buildPerl(alg, args)
	}
	b := Backoff{}
	switch name {
	case "constant":
		b.Kind = Constant
		return buildNative(b, args, "delay")
	case "linear":
		b.Kind = Linear
		return buildNative(b, args, "initial", "step")
	case "exponential":
		b.Kind = Exponential
		return buildNative(b, args, "initial", "factor", "max")
	case "fibonacci":
		b.Kind = Fibonacci
		return buildNative(b, args, "initial")
	case "table":
		b.Kind = Table
		return buildNative(b, args)
	case "webhook":
		return buildNative(WebhookStandard(), args)
	case "webhook-exponential":
		b = WebhookExponential()
		return buildNative(b, args, "base", "max")
	}
	return nil, fmt.Errorf("unknown strategy %q (want constant, linear, exponential, fibonacci, table, webhook, webhook-exponential, LILD, LIMD, MILD, MIMD or perl.NAME)", quote.Clip(name))
}

// buildNative fills b from the arguments; positional ones take the keys
// pos in order (all of them for a table).
func buildNative(b Backoff, args []*arg, pos ...string) (Strategy, error) {
	seen := map[string]bool{}
	for i, a := range args {
		if a.key == "" {
			switch {
			case b.Kind == Table:
				a.key = "wait"
			case i < len(pos):
				a.key = pos[i]
			default:
				continue
			}
		}
		if a.key != "wait" && seen[a.key] {
			return nil, fmt.Errorf("%s given twice", quote.Clip(a.key))
		}
		seen[a.key] = true
		if err := b.set(a.key, a.val); err != nil {
			if err == errUnknownKey {
				continue
			}
			return nil, err
		}
		a.used = true
	}
	switch {
	case b.Kind == Constant && !seen["delay"] && !seen["initial"]:
		return nil, fmt.Errorf("constant needs a delay, e.g. constant(100ms)")
	case (b.Kind == Linear || b.Kind == Exponential || b.Kind == Fibonacci) && !seen["initial"] && !seen["base"]:
		return nil, fmt.Errorf("%s needs initial=DURATION", b.Kind)
	}
	return b, b.Check()
}

var errUnknownKey = fmt.Errorf("unknown key")

func (b *Backoff) set(key, val string) error {
	d := func(p *time.Duration) error {
		x, err := parseDuration(val)
		if err != nil {
			return fmt.Errorf("%s: %v", quote.Clip(key), err)
		}
		*p = x
		return nil
	}
	f := func(p *float64) error {
		x, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return fmt.Errorf("%s: %q is not a number", key, quote.Clip(val))
		}
		*p = x
		return nil
	}
	switch key {
	case "delay", "initial", "base":
		return d(&b.Initial)
	case "step":
		return d(&b.Step)
	case "factor":
		return f(&b.Factor)
	case "max", "cap":
		return d(&b.Max)
	case "elapsed":
		return d(&b.Elapsed)
	case "multiplier":
		return f(&b.Multiplier)
	case "health":
		var h float64
		if err := f(&h); err != nil {
			return err
		}
		b.Multiplier = HealthMultiplier(h)
		return nil
	case "attempts":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return fmt.Errorf("attempts: %q is not a whole number ≥ 0", quote.Clip(val))
		}
		b.Attempts = n
		return nil
	case "jitter":
		j, err := ParseJitter(val)
		b.Jitter = j
		return err
	case "wait":
		var w time.Duration
		if err := d(&w); err != nil {
			return err
		}
		b.Waits = append(b.Waits, w)
		return nil
	}
	return errUnknownKey
}

// ParseJitter reads a jitter= value: none, full, equal, decorrelated,
// a factor F (proportional ±F, then the cap), grpc (±0.2 after the
// cap), grpc:F (±F after the cap) or plus:F (+U(0, F·b), then the cap).
func ParseJitter(s string) (Jitter, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	simple := map[string]JitterKind{"none": NoJitter, "full": Full, "equal": Equal, "decorrelated": Decorrelated}
	if k, ok := simple[s]; ok {
		return Jitter{Kind: k}, nil
	}
	if s == "grpc" {
		return GRPC, nil
	}
	kind, num := Proportional, strings.TrimPrefix(strings.TrimPrefix(s, "±"), "+-")
	if v, ok := strings.CutPrefix(s, "grpc:"); ok {
		kind, num = AfterCap, v
	} else if v, ok := strings.CutPrefix(s, "plus:"); ok {
		kind, num = Additive, v
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return Jitter{}, fmt.Errorf("jitter %q: want none, full, equal, decorrelated, a factor such as 0.25, grpc, grpc:F or plus:F", quote.Clip(s))
	}
	j := Jitter{Kind: kind, Factor: f}
	if f == 0 {
		j = Jitter{}
	}
	return j, j.check()
}

// buildPerl reads Perl attributes, positional ones in Attrs order.
func buildPerl(alg Algorithm, args []*arg) (Strategy, error) {
	p := Perl{Algorithm: alg}
	attrs := alg.Attrs()
	seen := map[string]bool{}
	for i, a := range args {
		key := strings.ReplaceAll(a.key, "-", "_")
		if key == "" {
			if i >= len(attrs) {
				return nil, fmt.Errorf("%s: too many positional arguments", alg)
			}
			key = strings.TrimSuffix(attrs[i], "*")
		}
		if seen[key] {
			return nil, fmt.Errorf("%s given twice", quote.Clip(key))
		}
		seen[key] = true
		if err := p.Set(key, a.val); err != nil {
			return nil, err
		}
		a.used = true
	}
	for _, r := range alg.Required() {
		if !seen[r] {
			return nil, fmt.Errorf("%s: missing required attribute %s", alg, r)
		}
	}
	return p, p.Check()
}
