package simulate

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func policy(t *testing.T, s string) Policy {
	t.Helper()
	p, err := ParsePolicy(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func run(t *testing.T, c Crowd, seed uint64) Result {
	t.Helper()
	r, err := c.Run(rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// One client, no contention: served at the answer time with one call.
func TestOneClient(t *testing.T) {
	r := run(t, Crowd{Clients: 1, Capacity: 1, Answer: 1070 * time.Millisecond, Policy: policy(t, "constant(100ms)")}, 1)
	want := Result{LastServed: 1.07, TypicalServed: 1.07, CallsSent: 1, PeakCallsPerSecond: 1, Served: 1}
	if r != want {
		t.Errorf("got %+v, want %+v", r, want)
	}
}

// M clients at once with capacity ≥ M: all served at the answer time.
func TestEnoughCapacity(t *testing.T) {
	for _, m := range []int{1, 7, 200} {
		r := run(t, Crowd{Clients: m, Capacity: 200, Answer: 2 * time.Second, Policy: policy(t, "exponential(initial=100ms, max=20s, jitter=full)")}, 1)
		want := Result{LastServed: 2, TypicalServed: 2, CallsSent: m, PeakCallsPerSecond: m, Served: m}
		if r != want {
			t.Errorf("M=%d: got %+v, want %+v", m, r, want)
		}
	}
}

// Five clients at once, 2 calls/s, answers after 1 s, retry every 0.4 s,
// counted by hand:
//
//	t=0    5 calls: c0, c1 accepted (served at 1); c2–c4 refused
//	t=0.4  3 calls refused (window [0,1) is full)
//	t=0.8  3 calls refused
//	t=1.2  3 calls: c2, c3 accepted (served at 2.2); c4 refused
//	t=1.6  c4 refused
//	t=2.0  c4 accepted (served at 3.0)
//
// 16 calls, 11 refused, served 1, 1, 2.2, 2.2, 3: last 3, median 2.2;
// 11 calls in the second [0, 1).
func TestConstantRetryByHand(t *testing.T) {
	c := Crowd{Clients: 5, Capacity: 2, Answer: time.Second, Policy: policy(t, "constant(400ms)")}
	r := run(t, c, 1)
	want := Result{LastServed: 3, TypicalServed: 2.2, CallsSent: 16, CallsRefused: 11, PeakCallsPerSecond: 11, Served: 5}
	if r != want {
		t.Errorf("got %+v, want %+v", r, want)
	}
	// The same as a schedule: asks every 400 ms.
	c.Policy = policy(t, "400ms")
	if r := run(t, c, 1); r != want {
		t.Errorf("schedule: got %+v, want %+v", r, want)
	}
}

// Three clients, capacity 1: c0 served; c1 and c2 refused at 0, 0.1
// and 0.2 s, giving up at their third failure (attempts=3): 3 + 2 + 2 = 7
// calls, 6 refused, 2 gave up.
func TestGiveUp(t *testing.T) {
	r := run(t, Crowd{Clients: 3, Capacity: 1, Answer: time.Second, Policy: policy(t, "constant(100ms, attempts=3)")}, 1)
	want := Result{LastServed: 1, TypicalServed: 1, CallsSent: 7, CallsRefused: 6, PeakCallsPerSecond: 7, Served: 1, GaveUp: 2}
	if r != want {
		t.Errorf("got %+v, want %+v", r, want)
	}
}

// Clients still retrying at the horizon are unfinished.
func TestHorizon(t *testing.T) {
	r := run(t, Crowd{Clients: 3, Capacity: 1, Window: time.Hour, Horizon: 10 * time.Second, Answer: time.Second, Policy: policy(t, "constant(1s)")}, 1)
	// c1, c2 call at 0..10 (11 calls each, refused); c0 accepted.
	if r.Served != 1 || r.Unfinished != 2 || r.CallsSent != 23 || r.CallsRefused != 22 {
		t.Errorf("got %+v", r)
	}
}

func TestDeterministicPerSeed(t *testing.T) {
	c := Crowd{Clients: 100, Capacity: 10, Answer: time.Second, Arrivals: Rate{50, time.Second},
		Policy: policy(t, "exponential(initial=100ms, max=5s, jitter=full)")}
	a, b, d := run(t, c, 7), run(t, c, 7), run(t, c, 8)
	if a != b {
		t.Errorf("same seed differs: %+v vs %+v", a, b)
	}
	if a == d {
		t.Errorf("different seeds agree: %+v", a)
	}
	sa, err := c.Repeat(context.Background(), 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := c.Repeat(context.Background(), 3, 5)
	if sa != sb {
		t.Errorf("Repeat differs with one seed")
	}
}

// Poisson arrivals at 50/s with ample capacity: every client is served
// at the answer time and 1000 arrivals take about 20 s, so the peak per
// second is near 50 (Poisson: at most ~50 + 4·√50 ≈ 78).
func TestPoissonArrivals(t *testing.T) {
	c := Crowd{Clients: 1000, Capacity: 1000, Answer: time.Second, Arrivals: Rate{50, time.Second}, Policy: policy(t, "constant(1s)")}
	r := run(t, c, 1)
	if r.Served != 1000 || r.CallsSent != 1000 || math.Abs(r.LastServed-1) > 1e-9 || r.PeakCallsPerSecond < 50 || r.PeakCallsPerSecond > 80 {
		t.Errorf("got %+v", r)
	}
}

func TestSummaryJSON(t *testing.T) {
	s := Summarise([]Result{{LastServed: math.NaN(), TypicalServed: math.NaN(), CallsSent: 3}})
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"last_served_s":{"median":null`, `"calls_sent":{"median":3,"p10":3,"p90":3}`, `"typical_served_s"`, `"peak_calls_per_s"`, `"calls_refused"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("JSON %s lacks %s", b, k)
		}
	}
}

func TestParseRate(t *testing.T) {
	for s, want := range map[string]Rate{"20/s": {20, time.Second}, "600/m": {600, time.Minute}, "5/100ms": {5, 100 * time.Millisecond}, "1.5/2h": {1.5, 2 * time.Hour}} {
		if r, err := ParseRate(s); err != nil || r != want {
			t.Errorf("ParseRate(%q) = %v, %v; want %v", s, r, err, want)
		}
	}
	for _, s := range []string{"20", "x/s", "20/x", "-1/s", "0/s", "20abc/s"} {
		if _, err := ParseRate(s); err == nil {
			t.Errorf("ParseRate(%q) accepted", s)
		}
	}
}

func TestRunaway(t *testing.T) {
	c := Crowd{Clients: 2, Capacity: 1, Answer: time.Second, MaxCalls: 1000, Policy: policy(t, "perl.Constant(delay=0)")}
	if _, err := c.Run(rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), "too fast") {
		t.Errorf("err = %v", err)
	}
}

// The retry-storm study, 200 clients at once, 20 calls/s, answers in
// 1.07 s, worked by hand for the deterministic rules.
//
// Retry every 0.1 s: in second k (k = 0..9) the 200 − 20k waiting
// clients call at k.0 (20 accepted) and the other 180 − 20k call nine
// more times, all refused. Calls Σ (200 − 20k) + 9 Σ (180 − 20k) =
// 1100 + 8100 = 9200; the last is accepted at 9.0 and served at 10.07;
// 20 clients are served at k + 1.07 for each k, so the median of 200 is
// (5.07 + 6.07)/2 = 5.57; second 0 sees 200 + 9·180 = 1820 calls.
//
// Exponential from 0.1 s doubling to 20 s: all refused clients call
// together at ages 0.1, 0.3, 0.7 (second 0, refused), then 1.5, 3.1,
// 6.3, 12.7, 25.5, 45.5, 65.5, 85.5, 105.5, each in a fresh second
// where 20 are accepted. Calls 200 + 3·180 + 180 + 160 + ... + 20 =
// 1640; the last is served at 106.57; the median is between the 100th
// (served at 12.7 + 1.07) and the 101st (25.5 + 1.07): 20.17; second 0
// sees 200 + 3·180 = 740 calls.
func TestRetryStorm(t *testing.T) {
	c := Crowd{Clients: 200, Capacity: 20, Answer: 1070 * time.Millisecond}
	rows := map[string]Result{
		"constant(100ms)": {LastServed: 10.07, TypicalServed: 5.57, CallsSent: 9200, CallsRefused: 9000, PeakCallsPerSecond: 1820, Served: 200},
		"exponential(initial=100ms, factor=2, max=20s)": {LastServed: 106.57, TypicalServed: 20.17, CallsSent: 1640, CallsRefused: 1440, PeakCallsPerSecond: 740, Served: 200},
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	for spec, want := range rows {
		c.Policy = policy(t, spec)
		got := run(t, c, 1)
		if !near(got.LastServed, want.LastServed) || !near(got.TypicalServed, want.TypicalServed) {
			t.Errorf("%s: served last %v typical %v, want %v %v", spec, got.LastServed, got.TypicalServed, want.LastServed, want.TypicalServed)
		}
		got.LastServed, got.TypicalServed = want.LastServed, want.TypicalServed
		if got != want {
			t.Errorf("%s: got %+v, want %+v", spec, got, want)
		}
	}
	// Full jitter breaks the herd: over 50 runs it serves everyone far
	// sooner than plain backoff, with fewer calls than either.
	c.Policy = policy(t, "exponential(initial=100ms, factor=2, max=20s, jitter=full)")
	s, err := c.Repeat(context.Background(), 1, 50)
	if err != nil {
		t.Fatal(err)
	}
	if !(s.LastServed.P90 < 106.57/2) || !(s.CallsSent.P90 < 1640) || !(s.TypicalServed.Median < 20.17/2) || s.LastServed.P10 == s.LastServed.P90 {
		t.Errorf("jitter: %+v", s)
	}
}

// Arrival times from a log: clients at 0, 0.5 and 3 s, capacity 1/s,
// answers 2 s, retry every 1 s. c0 accepted at 0 (served 2); c1 refused
// at 0.5, accepted at 1.5 (window 1; served 3.5, after 3); c2 accepted at
// 3 (served 2 after arriving). Answers drawn from {2s} behave the same.
func TestArrivalTimesAndAnswerSample(t *testing.T) {
	c := Crowd{ArrivalTimes: []time.Duration{0, 500 * time.Millisecond, 3 * time.Second}, Capacity: 1,
		AnswerSample: []time.Duration{2 * time.Second}, Policy: policy(t, "constant(1s)")}
	r := run(t, c, 1)
	want := Result{LastServed: 3, TypicalServed: 2, CallsSent: 4, CallsRefused: 1, PeakCallsPerSecond: 2, Served: 3}
	if r != want {
		t.Errorf("got %+v, want %+v", r, want)
	}
	// Answers drawn from {1s, 3s}: c0 and c2 are served after 1 or 3 s,
	// c1 after 1 s more, so the last is 2, 3 or 4 s and the runs differ.
	c.AnswerSample = []time.Duration{time.Second, 3 * time.Second}
	s, err := c.Repeat(context.Background(), 1, 30)
	if err != nil {
		t.Fatal(err)
	}
	if s.LastServed.P10 < 2 || s.LastServed.P90 > 4 || s.LastServed.P10 == s.LastServed.P90 {
		t.Errorf("sampled answers: last served %+v", s.LastServed)
	}
}
