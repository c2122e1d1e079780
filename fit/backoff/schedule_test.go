package backoff

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

func TestSchedule(t *testing.T) {
	day := 24 * time.Hour
	cases := []struct{ spec, want string }{
		{"constant(100ms)", "100ms"},
		// Ages 0, 0.1, 0.3, ..., 12.7 + 12.8 = 25.5, then every 20 s.
		{"exponential(initial=100ms, factor=2, max=20s)", "at 0s 100ms 300ms 700ms 1.5s 3.1s 6.3s 12.7s 25.5s, 20s"},
		{"linear(initial=1s, step=1s, max=3s)", "at 0s 1s 3s, 3s"},
		// Waits 1 1 2 3 5 8, then 10 for ever: ages 0 1 2 4 7 12 20.
		{"fibonacci(initial=1s, max=10s)", "at 0s 1s 2s 4s 7s 12s 20s, 10s"},
		{"webhook()", "at 0s 1m 6m 36m 2h36m 10h36m 1d10h36m 3d10h36m"},
		// Three waits of 1s, then it gives up at the 4th failure.
		{"constant(1s, attempts=4)", "1s until 3s"},
		{"table(1s, 1s, 1s, 1s, 5s)", "1s until 4s, at 9s"},
		// Perl: LIMD failures 2, 6, 10, 10, ... with max 10.
		{"LIMD(initial_delay=2, delay_increment_on_failure=4, delay_multiple_on_success=0.5, max_delay=10)", "at 0s 2s 8s 18s, 10s"},
		{"perl.Exponential(initial_delay=1, max_delay=5)", "at 0s 1s 3s 7s, 5s"},
		{"perl.Constant(delay=0.5)", "500ms"},
		{"perl.Fibonacci(initial_delay1=1, initial_delay2=2, max_delay=4)", "at 0s 1s 3s 6s, 4s"},
	}
	for _, c := range cases {
		s, err := Schedule(mustParse(t, c.spec), 5*day)
		if err != nil {
			t.Errorf("%s: %v", c.spec, err)
			continue
		}
		if err := s.Validate(); err != nil {
			t.Errorf("%s: invalid schedule %s: %v", c.spec, s, err)
		}
		if got := schedule.Format(s); got != c.want {
			t.Errorf("%s: schedule %q, want %q", c.spec, got, c.want)
		}
	}
}

// The schedule asks exactly where the strategy does, up to a horizon.
func TestScheduleMatchesAsks(t *testing.T) {
	h := time.Hour
	for _, spec := range []string{
		"exponential(initial=100ms, factor=2, max=20s)",
		"exponential(initial=1s, factor=1.5)",
		"linear(initial=1s, step=500ms)",
		"fibonacci(initial=250ms, max=1m)",
		"MIMD(initial_delay=1, delay_multiple_on_failure=1.5, delay_multiple_on_success=0.5, max_delay=100)",
		"LILD(initial_delay=10, delay_increment_on_failure=-1, delay_increment_on_success=0, min_delay=2)",
	} {
		st := mustParse(t, spec)
		s, err := Schedule(st, h)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		got, err := s.Timeline().Asks(h)
		if err != nil {
			t.Fatal(err)
		}
		if want := Asks(st, nil, h); !slices.Equal(got, want) {
			t.Errorf("%s: schedule %s asks\n%v\nstrategy asks\n%v", spec, s, got, want)
		}
	}
}

func TestScheduleRefuses(t *testing.T) {
	if _, err := Schedule(mustParse(t, "constant(1s, jitter=full)"), time.Hour); err == nil || !strings.Contains(err.Error(), "randomised") {
		t.Errorf("jittered: err = %v", err)
	}
	if _, err := Schedule(mustParse(t, "perl.Constant(delay=0)"), time.Hour); err == nil || !strings.Contains(err.Error(), "waits 0") {
		t.Errorf("zero wait: err = %v", err)
	}
}

func TestAsksRealisation(t *testing.T) {
	st := mustParse(t, "exponential(initial=1s, max=10s, jitter=full)")
	a := Asks(st, rand.New(rand.NewPCG(1, 2)), time.Minute)
	b := Asks(st, rand.New(rand.NewPCG(1, 2)), time.Minute)
	c := Asks(st, rand.New(rand.NewPCG(3, 4)), time.Minute)
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Errorf("same seed must repeat, another differ: %v %v %v", a, b, c)
	}
	if a[0] != 0 || a[len(a)-1] > time.Minute {
		t.Errorf("asks %v: want from 0 to ≤ 1m", a)
	}
	for i := 1; i < len(a); i++ {
		if a[i] <= a[i-1] || a[i]-a[i-1] > 10*time.Second {
			t.Fatalf("asks %v: not increasing by at most the cap", a)
		}
	}
	if err := Realise(st, rand.New(rand.NewPCG(1, 2)), time.Minute).Validate(); err != nil {
		t.Error(err)
	}
}

func TestParseErrors(t *testing.T) {
	for spec, want := range map[string]string{
		"exponential":                        "want name(arguments)",
		"exponential(factor=2)":              "needs initial",
		"constant()":                         "needs a delay",
		"constant(1)":                        "no unit",
		"exponential(initial=1s, foo=2)":     `no option "foo"`,
		"exponential(initial=1s, jitter=x)":  "jitter",
		"bogus(1s)":                          "unknown strategy",
		"LIMD(initial_delay=2)":              "missing required attribute delay_increment_on_failure",
		"LIMD(2, 4, 0.2, jitter_factor=0.9)": "jitter_factor",
		"LIMD(2, 4, 0.2, delay=1)":           "takes no attribute delay",
		"constant(1s, max=2s, max=3s)":       "twice",
	} {
		_, err := Parse(spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want error containing %q", spec, err, want)
		}
	}
}

func TestParseRoundTrip(t *testing.T) {
	for _, spec := range []string{
		"constant(100ms)",
		"exponential(initial=100ms, factor=2, max=20s)",
		"exponential(initial=100ms, factor=2, max=20s, jitter=full)",
		"exponential(initial=1s, factor=1.5, max=1m, jitter=grpc, attempts=5, elapsed=10m, multiplier=2)",
		"linear(initial=1s, step=2s, jitter=0.25)",
		"fibonacci(initial=1s, jitter=plus:0.1)",
		"table(1s, 5s)",
		"LIMD(initial_delay=2, delay_increment_on_failure=4, delay_multiple_on_success=0.2, min_delay=1)",
	} {
		st := mustParse(t, spec)
		if st.String() != spec {
			t.Errorf("Parse(%q).String() = %q", spec, st.String())
		}
		if !IsSpec(spec) {
			t.Errorf("IsSpec(%q) = false", spec)
		}
	}
	for _, s := range []string{"1s until 30s, 2s", "at 0s 1s, 5s"} {
		if IsSpec(s) {
			t.Errorf("IsSpec(%q) = true", s)
		}
	}
}

// Parse never panics, and what it accepts it writes back in a form it
// accepts again with the same meaning.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"constant(100ms)", "exponential(initial=100ms, factor=2, max=20s, jitter=full)",
		"LIMD(2, 4, 0.2)", "table(1s, 2s)", "webhook()", "fibonacci(initial=1s, jitter=grpc:0.3)", "perl.Fibonacci(1, 2)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := Parse(s)
		if err != nil {
			if n := len(err.Error()); n > 4096 { // bounded whatever the spec's length
				t.Fatalf("error of %d bytes on a %d-byte spec", n, len(s))
			}
			return
		}
		again, err := Parse(st.String())
		if err != nil {
			t.Fatalf("Parse(%q) ok, but its String %q: %v", s, st.String(), err)
		}
		if again.String() != st.String() {
			t.Fatalf("%q → %q → %q", s, st.String(), again.String())
		}
		asks := Asks(st, rand.New(rand.NewPCG(1, 1)), time.Millisecond) // short: a 1ns wait lists every ask
		for i, a := range asks {
			if a < 0 || a > time.Millisecond || (i > 0 && a < asks[i-1]) {
				t.Fatalf("%q: ask %d at %v after %v, want ages in [0, 1ms] in order", s, i, a, asks[max(i-1, 0)])
			}
		}
	})
}
