package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
)

func cliRun(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

// Worked by hand from Algorithm::Backoff's rules (fit/backoff's tests
// derive each step).
func TestDelaysHandWorked(t *testing.T) {
	cases := []struct{ args, want string }{
		// LIMD: +4 on failure, ×0.2 on success, at least 1.
		{"-a LIMD --initial-delay 2 --min-delay 1 --delay-increment-on-failure 4 --delay-multiple-on-success 0.2 0 0 0 1 1 1 0 0 0", "2 6 10 2 1 1 5 9 13"},
		// The same with Perl's comma-separated form.
		{"-a limd --initial-delay 2 --min-delay 1 --delay-increment-on-failure 4 --delay-multiple-on-success 0.2 0,0,0 1,1,1 0,0,0", "2 6 10 2 1 1 5 9 13"},
		// LILD: −5 on success: 10 → 5 → 0 → min 1.
		{"-a LILD --initial-delay 2 --min-delay 1 --delay-increment-on-failure 4 --delay-increment-on-success -5 0 0 0 1 1 1 0", "2 6 10 5 1 1 5"},
		// Exponential 3, 6, 12; at 21 s ≥ max_actual_duration: −1.
		{"-a Exponential --initial-delay 3 --max-actual-duration 21 0 0@3 0@9 0@21", "3 6 12 -1"},
		{"-a Exponential --initial-delay 3 --max-actual-duration 21 0 0:+3 0:+6 0:+12", "3 6 12 -1"},
		{"-a Exponential --initial-delay 3 --max-actual-duration 21 --advance 0 0 0 0", "3 6 12 -1"},
		// max_attempts 3: the third consecutive failure gives up.
		{"-a Constant --delay 1.5 --max-attempts 3 0 0 0 1 0", "1.5 1.5 -1 0 1.5"},
		// consider_actual_delay: 2, then 2+2−0 = 4, then 2+4−6 = 0.
		{"-a Constant --delay 2 --consider-actual-delay 0 0 0@6", "2 4 0"},
		// Fibonacci 1, 1, 2, 3, 5 capped at 4.
		{"-a Fibonacci --initial-delay1 1 --initial-delay2 1 --max-delay 4 0 0 0 0 0", "1 1 2 3 4"},
		// MIMD ×3 / ×0.1, printed as Perl prints numbers.
		{"-a MIMD --initial-delay 0.1 --delay-multiple-on-failure 3 --delay-multiple-on-success 0.1 0 0 1 1 1 1", "0.1 0.3 0.03 0.003 0.0003 3e-05"},
		// Durations are accepted for the delays.
		{"-a Constant --delay 250ms 0", "0.25"},
	}
	for _, c := range cases {
		out, errs, code := cliRun(t, append([]string{"delays"}, strings.Fields(c.args)...)...)
		if code != 0 || strings.TrimSpace(out) != c.want {
			t.Errorf("delays %s: got %q (exit %d, %s), want %q", c.args, out, code, errs, c.want)
		}
	}
}

func TestDelaysJitterSeed(t *testing.T) {
	args := strings.Fields("delays -a Constant --delay 4 --jitter-factor 0.25 --seed 7 0 0 0 0 0")
	a, _, _ := cliRun(t, args...)
	b, _, _ := cliRun(t, args...)
	c, _, _ := cliRun(t, append(args[:len(args)-5:len(args)-5], "--seed", "8", "0", "0", "0", "0", "0")...)
	if a != b || a == c {
		t.Errorf("seed 7 twice: %q %q; seed 8: %q", a, b, c)
	}
	var x float64
	for _, f := range strings.Fields(a) {
		fmt.Sscan(f, &x)
		if x < 3 || x > 5 {
			t.Errorf("jittered 4±25%% = %v", x)
		}
	}
}

func TestDelaysErrors(t *testing.T) {
	for args, want := range map[string]string{
		"delays 0 0":                                         "-a ALGORITHM is required",
		"delays -a Foo 0":                                    "unknown Algorithm::Backoff strategy",
		"delays -a LIMD --initial-delay 2 0":                 "LIMD needs --delay-increment-on-failure",
		"delays -a Constant --delay 1":                       "no outcomes",
		"delays -a Constant --delay 1 2":                     `outcome 1 "2"`,
		"delays -a Constant --delay x 0":                     "--delay",
		"delays -a Constant --delay 1 --jitter-factor 0.7 0": "jitter_factor",
	} {
		_, errs, code := cliRun(t, strings.Fields(args)...)
		if code != 2 || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", args, code, errs, want)
		}
	}
	_, errs, code := cliRun(t, strings.Fields("delays -a Constant --delay 1 0@5 0@4")...)
	if code != 1 || !strings.Contains(errs, "decreasing timestamp") {
		t.Errorf("decreasing: exit %d, %q", code, errs)
	}
	_, errs, _ = cliRun(t, strings.Fields("delays -a Constant --delay 1 --initial-delay 3 0")...)
	if !strings.Contains(errs, "warning: delays: --initial-delay does not apply to Constant") {
		t.Errorf("no warning for an inapplicable flag: %q", errs)
	}
}

// The command against the Perl module itself, on random outcome
// sequences with timestamps, jitter off; the output strings must match
// Perl's print exactly.
func TestDelaysAgainstPerl(t *testing.T) {
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("perl not found: install perl and libalgorithm-backoff-perl for the differential test")
	}
	if exec.Command("perl", "-MAlgorithm::Backoff::LIMD", "-e", "1").Run() != nil {
		t.Skip("Algorithm::Backoff not found: apt-get install libalgorithm-backoff-perl for the differential test")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	algos := map[string][]string{
		"Constant":    {"delay"},
		"Exponential": {"initial_delay", "exponent_base"},
		"Fibonacci":   {"initial_delay1", "initial_delay2"},
		"LILD":        {"initial_delay", "delay_increment_on_failure", "delay_increment_on_success"},
		"LIMD":        {"initial_delay", "delay_increment_on_failure", "delay_multiple_on_success"},
		"MILD":        {"initial_delay", "delay_multiple_on_failure", "delay_increment_on_success"},
		"MIMD":        {"initial_delay", "delay_multiple_on_failure", "delay_multiple_on_success"},
	}
	for _, algo := range []string{"Constant", "Exponential", "Fibonacci", "LILD", "LIMD", "MILD", "MIMD"} {
		for range 10 {
			var flags, perlArgs []string
			attr := func(name string, v float64) {
				flags = append(flags, "--"+strings.ReplaceAll(name, "_", "-"), fmt.Sprint(v))
				perlArgs = append(perlArgs, fmt.Sprintf("%s=>%v", name, v))
			}
			for _, a := range algos[algo] {
				v := float64(rng.IntN(400)) / 100
				if strings.HasPrefix(a, "delay_increment") {
					v -= 1.5
				}
				attr(a, v)
			}
			attr("min_delay", float64(rng.IntN(100))/100)
			attr("max_delay", float64(5+rng.IntN(20)))
			attr("max_attempts", float64(rng.IntN(5)))
			var outs, calls []string
			ts := 0
			for range 12 {
				ts += rng.IntN(3)
				o := rng.IntN(3) / 2 // one in three a success
				outs = append(outs, fmt.Sprintf("%d@%d", o, ts))
				calls = append(calls, fmt.Sprintf("$ab->%s(%d)", map[int]string{0: "failure", 1: "success"}[o], ts))
			}
			script := fmt.Sprintf(`my $ab = Algorithm::Backoff::%s->new(%s, _start_timestamp => 0); print join(" ", %s), "\n";`,
				algo, strings.Join(perlArgs, ", "), strings.Join(calls, ", "))
			want, err := exec.Command("perl", "-MAlgorithm::Backoff::"+algo, "-e", script).Output()
			if err != nil {
				t.Fatalf("perl %s: %v", script, err)
			}
			got, errs, code := cliRun(t, append(append([]string{"delays", "-a", algo}, flags...), outs...)...)
			if code != 0 || got != string(want) {
				t.Errorf("delays -a %s %s %s\n got %q %s\nperl %q", algo, strings.Join(flags, " "), strings.Join(outs, " "), got, errs, want)
			}
		}
	}
}
