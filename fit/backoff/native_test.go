package backoff

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

// waits returns the first n waits of st (fewer if it gives up), each
// failure at the elapsed time of the waits so far.
func waits(st Strategy, rng *rand.Rand, n int) []time.Duration {
	r := st.Start(rng)
	var out []time.Duration
	var el time.Duration
	for range n {
		w, ok := r.Next(el)
		if !ok {
			break
		}
		out = append(out, w)
		el += w
	}
	return out
}

func mustParse(t *testing.T, spec string) Strategy {
	t.Helper()
	st, err := Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestNativeHandWorked(t *testing.T) {
	s := time.Second
	cases := []struct {
		spec string
		want []time.Duration
	}{
		{"constant(100ms)", []time.Duration{100 * ms, 100 * ms, 100 * ms}},
		// 0.1·2^(n−1): 0.1 … 12.8, then 25.6 capped at 20.
		{"exponential(initial=100ms, factor=2, max=20s)", []time.Duration{100 * ms, 200 * ms, 400 * ms, 800 * ms, 1600 * ms, 3200 * ms, 6400 * ms, 12800 * ms, 20 * s, 20 * s}},
		{"exponential(1s, 3, 30s)", []time.Duration{s, 3 * s, 9 * s, 27 * s, 30 * s}},
		{"exponential(initial=1s, cap=5s)", []time.Duration{s, 2 * s, 4 * s, 5 * s}},
		{"linear(initial=1s, step=2s, max=6s)", []time.Duration{s, 3 * s, 5 * s, 6 * s, 6 * s}},
		{"fibonacci(initial=1s, max=10s)", []time.Duration{s, s, 2 * s, 3 * s, 5 * s, 8 * s, 10 * s}},
		// attempts=3: the third failure gives up, so two waits.
		{"constant(1s, attempts=3)", []time.Duration{s, s}},
		// elapsed=10s: failures at 0, 4, 8 wait; the one at 12 ≥ 10 gives up.
		{"constant(4s, elapsed=10s)", []time.Duration{4 * s, 4 * s, 4 * s}},
		{"table(1s, 5s)", []time.Duration{s, 5 * s}},
		{"webhook()", []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 8 * time.Hour, 24 * time.Hour, 48 * time.Hour}},
		// health 0.95 > 0.9 halves every wait.
		{"exponential(initial=1s, health=0.95)", []time.Duration{500 * ms, s, 2 * s}},
		{"exponential(initial=1s, health=0.2)", []time.Duration{2 * s, 4 * s, 8 * s}},
	}
	for _, c := range cases {
		// Ask for more waits than wanted: strategies that give up stop
		// early, the others are compared on a prefix.
		got := waits(mustParse(t, c.spec), nil, len(c.want)+3)
		finite := strings.Contains(c.spec, "attempts") || strings.Contains(c.spec, "elapsed") || strings.Contains(c.spec, "table") || strings.Contains(c.spec, "webhook")
		if gaveUp := len(got) < len(c.want)+3; gaveUp != finite {
			t.Errorf("%s: gave up %v, want %v", c.spec, gaveUp, finite)
		} else if !gaveUp {
			got = got[:len(c.want)]
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: waits %v, want %v", c.spec, got, c.want)
		}
	}
}

// withinAll checks that every draw of jittered waits is within the
// stated bounds and that the draws reach close to both ends.
func TestJitterBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 4000
	cases := []struct {
		spec   string
		retry  int // which wait (1-based)
		lo, hi float64
	}{
		// cap 8: the 5th base wait is 16 → c = 8.
		{"exponential(initial=1s, max=8s, jitter=full)", 5, 0, 8},
		{"exponential(initial=1s, max=8s, jitter=equal)", 5, 4, 8},
		{"exponential(initial=1s, max=8s, jitter=0.5)", 3, 2, 6},      // 4 ± 50 %
		{"exponential(initial=1s, max=8s, jitter=0.5)", 5, 8, 8},      // 16·[0.5, 1.5] ≥ 8 → capped
		{"exponential(initial=1s, max=8s, jitter=grpc)", 5, 6.4, 9.6}, // 8 ± 20 % after the cap
		{"exponential(initial=1s, max=8s, jitter=plus:0.1)", 3, 4, 4.4},
		{"exponential(initial=1s, max=8s, jitter=decorrelated)", 1, 1, 3}, // U(1, 3·1)
	}
	for _, c := range cases {
		st := mustParse(t, c.spec)
		lo, hi := math.Inf(1), math.Inf(-1)
		for range n {
			w := waits(st, rng, c.retry)[c.retry-1].Seconds()
			lo, hi = min(lo, w), max(hi, w)
		}
		tol := 0.01 * (c.hi - c.lo)
		if lo < c.lo-1e-9 || hi > c.hi+1e-9 || lo > c.lo+tol || hi < c.hi-tol {
			t.Errorf("%s wait %d: range [%v, %v], want [%v, %v]", c.spec, c.retry, lo, hi, c.lo, c.hi)
		}
	}
}

// Full jitter's mean is c/2; equal jitter's 3c/4 (c = 8).
func TestJitterMeans(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range []struct {
		spec string
		mean float64
	}{
		{"exponential(initial=1s, max=8s, jitter=full)", 4},
		{"exponential(initial=1s, max=8s, jitter=equal)", 6},
	} {
		st := mustParse(t, c.spec)
		var sum float64
		const n = 20000
		for range n {
			sum += waits(st, rng, 5)[4].Seconds()
		}
		// sd of U(0,8) is 2.31; of the mean of 20000, 0.016.
		if m := sum / n; math.Abs(m-c.mean) > 0.08 {
			t.Errorf("%s: mean %v, want %v", c.spec, m, c.mean)
		}
	}
}

// Decorrelated jitter never exceeds the cap nor goes below initial,
// and each wait is at most 3 times the previous.
func TestDecorrelated(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	st := mustParse(t, "exponential(initial=100ms, max=5s, jitter=decorrelated)")
	for range 200 {
		w := waits(st, rng, 30)
		for i, x := range w {
			if x < 100*ms || x > 5*time.Second || i > 0 && x > 3*w[i-1]+1 {
				t.Fatalf("wait %d = %v out of bounds in %v", i, x, w)
			}
		}
	}
}

func TestHealth(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	att := []Attempt{
		{now, true},
		{now.Add(-10 * time.Hour), true}, // e^{−1}
		{now.Add(-time.Hour), false},
		{now, false},
	}
	want := (1 + math.Exp(-1)) / 4
	if h := Health(att, now); math.Abs(h-want) > 1e-12 {
		t.Errorf("health = %v, want %v", h, want)
	}
	if !math.IsNaN(Health(nil, now)) {
		t.Error("health of no attempts is not NaN")
	}
	for _, c := range []struct{ h, m float64 }{{0.95, 0.5}, {0.9, 1}, {0.7, 1}, {0.5, 2}, {0, 2}, {math.NaN(), 1}} {
		if m := HealthMultiplier(c.h); m != c.m {
			t.Errorf("HealthMultiplier(%v) = %v, want %v", c.h, m, c.m)
		}
	}
}

func TestWebhookExponential(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	st := WebhookExponential()
	for range 100 {
		w := waits(st, rng, 13)
		for n, x := range w {
			b := 60 * math.Pow(2, float64(n))
			lo, hi := min(b, 86400), min(1.1*b, 86400)
			if s := x.Seconds(); s < lo-1e-9 || s > hi+1e-9 {
				t.Fatalf("delay(%d) = %v, want in [%v, %v]", n, s, lo, hi)
			}
		}
	}
}

// Decorrelated jitter on a table starts from its first wait.
func TestDecorrelatedTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	st := mustParse(t, "table(2s, 2s, 2s, jitter=decorrelated)")
	for range 100 {
		w := waits(st, rng, 3)
		if w[0] < 2*time.Second || w[0] > 6*time.Second {
			t.Fatalf("first wait %v outside U(2s, 6s)", w[0])
		}
	}
}

// TestParseQuotesAtMost200Bytes: a huge spec is quoted cut short.
func TestParseQuotesAtMost200Bytes(t *testing.T) {
	for _, spec := range []string{"exponential(" + strings.Repeat("x", 1<<20) + ")", strings.Repeat("y", 1<<20) + "(1s)", "constant(" + strings.Repeat("9", 1<<20) + "q)"} {
		_, err := Parse(spec)
		if err == nil || len(err.Error()) > 800 || !strings.Contains(err.Error(), "...") {
			t.Errorf("error of %d bytes: %.300v", len(fmt.Sprint(err)), err)
		}
	}
}
