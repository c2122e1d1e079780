package main

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/internal/quote"
)

// perlAttrs are Algorithm::Backoff's attributes taking a value, as
// command-line flags.
var perlAttrs = []struct{ name, usage string }{
	{"delay", "Constant: `SECONDS` to wait after a failure"},
	{"initial-delay", "first delay after a failure, in `SECONDS` (Exponential, LILD, LIMD, MILD, MIMD)"},
	{"initial-delay1", "Fibonacci: first delay after a failure, in `SECONDS`"},
	{"initial-delay2", "Fibonacci: second delay after a failure, in `SECONDS`"},
	{"exponent-base", "Exponential: growth `FACTOR` per failure (default 2)"},
	{"delay-on-success", "Constant, Exponential, Fibonacci: `SECONDS` to wait after a success (default 0)"},
	{"delay-increment-on-failure", "LILD, LIMD: `SECONDS` added upon failure"},
	{"delay-increment-on-success", "LILD, MILD: `SECONDS` added upon success (e.g. -5)"},
	{"delay-multiple-on-failure", "MILD, MIMD: `FACTOR` upon failure"},
	{"delay-multiple-on-success", "LIMD, MIMD: `FACTOR` upon success"},
	{"min-delay", "minimum delay in `SECONDS` (default 0)"},
	{"max-delay", "maximum delay in `SECONDS`"},
	{"jitter-factor", "spread each delay uniformly by ±this `SHARE`, 0 to 0.5"},
	{"max-attempts", "give up at the `N`-th consecutive failure (0: never)"},
	{"max-actual-duration", "give up at a failure this many `SECONDS` after the start (0: never)"},
}

func init() {
	register(&command{
		name:    "delays",
		summary: "show the delays of an Algorithm::Backoff strategy after each outcome",
		usage:   "pollfit delays -a ALGORITHM [flags] OUTCOME...",
		example: `  pollfit delays -a LIMD --initial-delay 2 --min-delay 1 \
      --delay-increment-on-failure 4 --delay-multiple-on-success 0.2 0 0 0 1 1 1 0 0 0
  2 6 10 2 1 1 5 9 13

  pollfit delays -a Exponential --initial-delay 3 --max-actual-duration 21 0 0@3 0@9 0@21
  3 6 12 -1

An outcome is 0 (failure) or 1 (success), optionally at a time in seconds
since the start: 0@12.5 (or Perl's 0:12.5), or 0@+2 (2 s after the previous
outcome). Without a time an outcome happens at the previous one's time, as
show-backoff-delays does, or after the previous delay with --advance.
Delays are printed as Perl prints numbers; -1 means the strategy gives up.`,
		flags: delaysFlags,
	})
}

var outcomeRE = regexp.MustCompile(`^([01])(?:[:@](\+)?([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?))?$`)

func delaysFlags(fs *pflag.FlagSet) func(*env, []string) error {
	algo := fs.StringP("algorithm", "a", "", "Constant, Exponential, Fibonacci, LILD, LIMD, MILD or MIMD")
	vals := map[string]*string{}
	for _, a := range perlAttrs {
		vals[a.name] = fs.String(a.name, "", a.usage)
	}
	consider := fs.Bool("consider-actual-delay", false, "subtract the time actually waited since the previous outcome")
	advance := fs.Bool("advance", false, "an outcome without a time happens when the previous delay has passed")
	seed := fs.Uint64("seed", 1, "seed of the jitter")
	return func(e *env, args []string) error {
		if *algo == "" {
			return usagef("delays: -a ALGORITHM is required")
		}
		alg, err := backoff.ParseAlgorithm(*algo)
		if err != nil {
			return usagef("delays: %v", err)
		}
		p := backoff.Perl{Algorithm: alg, ConsiderActualDelay: *consider}
		set := map[string]bool{}
		for _, a := range perlAttrs {
			if !fs.Changed(a.name) {
				continue
			}
			if err := p.Set(a.name, *vals[a.name]); err != nil {
				if strings.Contains(err.Error(), "takes no attribute") {
					fmt.Fprintf(e.stderr, "pollfit: warning: delays: --%s does not apply to %s; ignored\n", a.name, alg)
					continue
				}
				return usagef("delays: --%s: %v", a.name, err)
			}
			set[strings.ReplaceAll(a.name, "-", "_")] = true
		}
		for _, r := range alg.Required() {
			if !set[r] {
				return usagef("delays: %s needs --%s", alg, strings.ReplaceAll(r, "_", "-"))
			}
		}
		if err := p.Check(); err != nil {
			return usagef("delays: %v", err)
		}
		if len(args) == 0 {
			return usagef("delays: no outcomes given (0 = failure, 1 = success)")
		}
		delays, err := runDelays(p, rand.New(rand.NewPCG(*seed, 0)), args, *advance)
		if err != nil {
			return err
		}
		out := make([]string, len(delays))
		for i, d := range delays {
			out[i] = backoff.FormatPerl(d)
		}
		fmt.Fprintln(e.stdout, strings.Join(out, " "))
		return nil
	}
}

// runDelays feeds the outcomes to p and returns the delays.
func runDelays(p backoff.Perl, rng *rand.Rand, args []string, advance bool) ([]float64, error) {
	b := p.New(0, rng)
	var delays []float64
	t, prev := 0.0, -1.0
	i := 0
	for _, arg := range args {
		for _, o := range strings.Split(arg, ",") {
			i++
			m := outcomeRE.FindStringSubmatch(strings.TrimSpace(o))
			if m == nil {
				return nil, usagef("delays: outcome %d %q: want 0 or 1, optionally @SECONDS or @+SECONDS", i, quote.Clip(o))
			}
			switch x, _ := strconv.ParseFloat(m[3], 64); {
			case m[2] == "+":
				t += x
			case m[3] != "":
				t = x
			case advance && prev > 0:
				t += prev
			}
			var d float64
			var err error
			if m[1] == "1" {
				d, err = b.Success(t)
			} else {
				d, err = b.Failure(t)
			}
			if err != nil {
				return nil, fmt.Errorf("delays: outcome %d %q: %v", i, quote.Clip(o), err)
			}
			delays = append(delays, d)
			prev = d
		}
	}
	return delays, nil
}
