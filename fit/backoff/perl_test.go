package backoff

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// outcome is a log entry: success or failure at a timestamp.
type outcome struct {
	ok bool
	t  float64
}

// feed runs the outcomes through p and returns the delays.
func feed(t *testing.T, p Perl, logs []outcome) []float64 {
	t.Helper()
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	b := p.New(0, nil)
	var out []float64
	for _, l := range logs {
		var d float64
		var err error
		if l.ok {
			d, err = b.Success(l.t)
		} else {
			d, err = b.Failure(l.t)
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

// bits makes outcomes all at time 0 from "0 0 1 ...".
func bits(s string) []outcome {
	var out []outcome
	for _, f := range strings.Fields(s) {
		out = append(out, outcome{ok: f == "1"})
	}
	return out
}

func sameDelays(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// The rules worked by hand from the Perl source (see the comments).
func TestPerlHandWorked(t *testing.T) {
	cases := []struct {
		name string
		p    Perl
		logs []outcome
		want []float64
	}{
		// LIMD synopsis: failures add 4 (2, 6, 10), successes multiply by
		// 0.2 (10·0.2 = 2, 0.4 → min 1, 0.2 → min 1), failures add 4 again.
		{"LIMD", Perl{Algorithm: AlgoLIMD, InitialDelay: 2, MinDelay: 1, DelayIncrementOnFailure: 4, DelayMultipleOnSuccess: 0.2},
			bits("0 0 0 1 1 1 0 0 0"), []float64{2, 6, 10, 2, 1, 1, 5, 9, 13}},
		// LIMD: a first success also returns initial_delay.
		{"LIMD success first", Perl{Algorithm: AlgoLIMD, InitialDelay: 2, DelayIncrementOnFailure: 4, DelayMultipleOnSuccess: 0.5},
			bits("1 0 1"), []float64{2, 6, 3}},
		// LILD: 2, 6, 10, then −5: 5, 0 → min 1, −4 → 0 → min 1, then +4: 5.
		{"LILD", Perl{Algorithm: AlgoLILD, InitialDelay: 2, MinDelay: 1, DelayIncrementOnFailure: 4, DelayIncrementOnSuccess: -5},
			bits("0 0 0 1 1 1 0"), []float64{2, 6, 10, 5, 1, 1, 5}},
		// MILD: ×3 on failure capped at 20 (27 → 20), −2 on success.
		{"MILD", Perl{Algorithm: AlgoMILD, InitialDelay: 1, MaxDelay: 20, DelayMultipleOnFailure: 3, DelayIncrementOnSuccess: -2},
			bits("0 0 0 0 1 1"), []float64{1, 3, 9, 20, 18, 16}},
		// MIMD: ×2 on failure, ×0.5 on success.
		{"MIMD", Perl{Algorithm: AlgoMIMD, InitialDelay: 1, DelayMultipleOnFailure: 2, DelayMultipleOnSuccess: 0.5},
			bits("0 0 1 0 0"), []float64{1, 2, 1, 2, 4}},
		// Exponential 3·2^(n−1); a success gives delay_on_success 0 and
		// resets the attempts, so the next failure waits 3 again.
		{"Exponential", Perl{Algorithm: AlgoExponential, InitialDelay: 3},
			bits("0 0 0 1 0"), []float64{3, 6, 12, 0, 3}},
		// exponent_base 1.5: 2, 3, 4.5, 6.75.
		{"Exponential base", Perl{Algorithm: AlgoExponential, InitialDelay: 2, ExponentBase: 1.5},
			bits("0 0 0 0"), []float64{2, 3, 4.5, 6.75}},
		// The documented max_actual_duration example: failures logged at
		// the suggested delays 0, 3, 9 return 3, 6, 12; at 21 ≥ 21: −1.
		{"Exponential max_actual_duration", Perl{Algorithm: AlgoExponential, InitialDelay: 3, MaxAttempts: 10, MaxActualDuration: 21},
			[]outcome{{false, 0}, {false, 3}, {false, 9}, {false, 21}}, []float64{3, 6, 12, -1}},
		// Fibonacci 1, 2, 3, 5, 8, 13 → max 10.
		{"Fibonacci", Perl{Algorithm: AlgoFibonacci, InitialDelay1: 1, InitialDelay2: 2, MaxDelay: 10},
			bits("0 0 0 0 0 0 0"), []float64{1, 2, 3, 5, 8, 10, 10}},
		// max_attempts 3: the third consecutive failure gives up; a success
		// resets the count.
		{"max_attempts", Perl{Algorithm: AlgoConstant, Delay: 2, DelayOnSuccess: 1, MaxAttempts: 3},
			bits("0 0 0 0 1 0 0 0"), []float64{2, 2, -1, -1, 1, 2, 2, -1}},
		// max_attempts 1 gives up at once.
		{"max_attempts 1", Perl{Algorithm: AlgoConstant, Delay: 2, MaxAttempts: 1}, bits("0"), []float64{-1}},
		// consider_actual_delay, the documented Constant example: at the
		// same time 2 then 2+2−0 = 4; from fresh, 2 then after 2 s 2+2−2 = 2,
		// then after 4 s more 2+2−4 = 0.
		{"consider same time", Perl{Algorithm: AlgoConstant, Delay: 2, ConsiderActualDelay: true},
			bits("0 0"), []float64{2, 4}},
		{"consider waited", Perl{Algorithm: AlgoConstant, Delay: 2, ConsiderActualDelay: true},
			[]outcome{{false, 0}, {false, 2}, {false, 6}}, []float64{2, 2, 0}},
		// consider_actual_delay carries the unclamped value: 2, then
		// 2+2−10 = −6 → 0, then 2+(−6)−0 = −4 → 0, then 2−4−(−)… at +1: 2−4−1 = −3 → 0.
		{"consider negative carry", Perl{Algorithm: AlgoConstant, Delay: 2, ConsiderActualDelay: true},
			[]outcome{{false, 0}, {false, 10}, {false, 10}, {false, 11}}, []float64{2, 0, 0, 0}},
		// Clamping order: above max → max (3), then below min → min (5).
		{"min above max", Perl{Algorithm: AlgoConstant, Delay: 4, MinDelay: 5, MaxDelay: 3}, bits("0"), []float64{5}},
		// min_delay applies to the success delay too.
		{"min on success", Perl{Algorithm: AlgoExponential, InitialDelay: 1, MinDelay: 1}, bits("1"), []float64{1}},
	}
	for _, c := range cases {
		if got := feed(t, c.p, c.logs); !sameDelays(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPerlJitter(t *testing.T) {
	p := Perl{Algorithm: AlgoConstant, Delay: 4, JitterFactor: 0.25}
	b := p.New(0, rand.New(rand.NewPCG(3, 4)))
	lo, hi := math.Inf(1), math.Inf(-1)
	for range 2000 {
		d, _ := b.Failure(0)
		lo, hi = min(lo, d), max(hi, d)
	}
	// U(3, 5): the extremes of 2000 draws are within 0.02 of the ends.
	if lo < 3 || hi > 5 || lo > 3.02 || hi < 4.98 {
		t.Errorf("jittered 4±25%%: range [%v, %v], want within and near [3, 5]", lo, hi)
	}
	// A zero delay is not jittered.
	z := Perl{Algorithm: AlgoConstant, Delay: 0, JitterFactor: 0.5}.New(0, nil)
	if d, _ := z.Failure(0); d != 0 {
		t.Errorf("jittered 0 = %v, want 0", d)
	}
}

func TestPerlDecreasingTimestamp(t *testing.T) {
	b := Perl{Algorithm: AlgoConstant, Delay: 1}.New(0, nil)
	b.Failure(5)
	if _, err := b.Failure(4); err == nil || !strings.Contains(err.Error(), "decreasing timestamp") {
		t.Errorf("err = %v, want decreasing timestamp", err)
	}
}

// perlOracle runs the outcomes through the Perl module itself.
const perlOracle = `
use strict; use warnings;
while (my $line = <STDIN>) {
    chomp $line;
    my ($algo, $attrs, $logs) = split /\|/, $line;
    require "Algorithm/Backoff/$algo.pm";
    my %a = map { split /=/ } split /,/, $attrs;
    my $ab = "Algorithm::Backoff::$algo"->new(%a, _start_timestamp => 0);
    my @out;
    for my $l (split / /, $logs) {
        my ($o, $t) = split /\@/, $l;
        push @out, $o ? $ab->success($t) : $ab->failure($t);
    }
    print join(" ", map { sprintf "%.17g", $_ } @out), "\n";
}
`

func havePerlModule(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("perl not found: install perl and libalgorithm-backoff-perl for the differential test")
	}
	if err := exec.Command("perl", "-MAlgorithm::Backoff::LIMD", "-e", "1").Run(); err != nil {
		t.Skip("Algorithm::Backoff not found: apt-get install libalgorithm-backoff-perl for the differential test")
	}
}

// randomPerl draws an algorithm with random attributes (no jitter).
func randomPerl(rng *rand.Rand, alg Algorithm) Perl {
	r := func(lo, hi float64) float64 { return math.Round((lo+(hi-lo)*rng.Float64())*100) / 100 }
	p := Perl{Algorithm: alg}
	for _, a := range alg.Attrs() {
		name := strings.TrimSuffix(a, "*")
		if a == name && rng.IntN(2) == 0 {
			continue // leave an optional attribute out half the time
		}
		switch name {
		case "max_attempts":
			p.MaxAttempts = rng.IntN(6)
		case "consider_actual_delay":
			p.ConsiderActualDelay = true
		case "jitter_factor":
		case "delay_increment_on_failure", "delay_increment_on_success":
			*p.field(name) = r(-5, 8)
		case "delay_multiple_on_failure", "exponent_base":
			*p.field(name) = r(0.5, 3)
		case "delay_multiple_on_success":
			*p.field(name) = r(0, 1.2)
		case "max_delay":
			*p.field(name) = r(1, 30)
		case "max_actual_duration":
			*p.field(name) = r(5, 60)
		default:
			*p.field(name) = r(0, 5)
		}
	}
	return p
}

func perlLine(p Perl, logs []outcome) string {
	var attrs []string
	for _, a := range p.Algorithm.Attrs() {
		name := strings.TrimSuffix(a, "*")
		if v, _ := p.get(name); v != 0 || a != name {
			attrs = append(attrs, name+"="+strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	var ls []string
	for _, l := range logs {
		o := "0"
		if l.ok {
			o = "1"
		}
		ls = append(ls, o+"@"+strconv.FormatFloat(l.t, 'g', -1, 64))
	}
	return p.Algorithm.String() + "|" + strings.Join(attrs, ",") + "|" + strings.Join(ls, " ")
}

func TestPerlDifferential(t *testing.T) {
	havePerlModule(t)
	rng := rand.New(rand.NewPCG(2026, 11))
	var in bytes.Buffer
	type tc struct {
		p    Perl
		logs []outcome
	}
	var cases []tc
	for alg := AlgoConstant; alg <= AlgoMIMD; alg++ {
		for range 40 {
			p := randomPerl(rng, alg)
			var logs []outcome
			ts := 0.0
			for range 1 + rng.IntN(25) {
				if rng.IntN(3) == 0 {
					ts += math.Round(rng.Float64()*800) / 100
				}
				logs = append(logs, outcome{ok: rng.IntN(3) == 0, t: ts})
			}
			cases = append(cases, tc{p, logs})
			fmt.Fprintln(&in, perlLine(p, logs))
		}
	}
	cmd := exec.Command("perl", "-e", perlOracle)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("perl: %v", err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("perl printed %d lines for %d cases", len(lines), len(cases))
	}
	for i, c := range cases {
		var want []float64
		for _, f := range strings.Fields(lines[i]) {
			x, _ := strconv.ParseFloat(f, 64)
			want = append(want, x)
		}
		if got := feed(t, c.p, c.logs); !sameDelays(got, want) {
			t.Errorf("%s\n got %v\nwant %v", perlLine(c.p, c.logs), got, want)
		}
	}
}
