package simulate

import (
	"container/heap"
	"context"
	"fmt"
	"github.com/pollfit/pollfit/internal/quantile"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// Crowd is a crowd of clients calling one server of limited capacity;
// see the package documentation for the model. The zero values of the
// optional fields have the documented defaults.
type Crowd struct {
	Clients int // M, at least 1
	// Arrivals is the rate of a Poisson stream of arrivals; the zero
	// Rate means every client arrives at time 0.
	Arrivals Rate
	// ArrivalTimes, when not empty, are the clients' arrival times (for
	// example the creation times of a log, from its first): they replace
	// Clients and Arrivals.
	ArrivalTimes []time.Duration
	// Capacity is the most calls the server accepts in each window
	// [k·Window, (k+1)·Window); Window defaults to 1 s.
	Capacity int
	Window   time.Duration
	Answer   time.Duration // from an accepted call to its answer
	// AnswerSample, when not empty, replaces Answer: each accepted call
	// is answered after a time drawn from it uniformly with replacement
	// (for example the settle times of a log).
	AnswerSample []time.Duration
	Policy       Policy // what a client does after a refusal
	// Horizon ends the simulation: calls later than this are not made
	// and their clients count as unfinished. Default 24 h.
	Horizon time.Duration
	// MaxCalls guards against a policy that retries without waiting:
	// Run fails beyond this many calls. Default 10 million.
	MaxCalls int
}

// Result is one run of a Crowd. Times are in seconds.
type Result struct {
	// LastServed is the longest and TypicalServed the median time from a
	// served client's arrival to its answer (NaN when nobody is served).
	LastServed, TypicalServed float64
	CallsSent, CallsRefused   int
	// PeakCallsPerSecond is the most calls (accepted or refused) sent in
	// one second [k, k+1) of simulated time.
	PeakCallsPerSecond int
	Served, GaveUp     int // clients answered; clients whose policy gave up
	Unfinished         int // clients still retrying at the horizon
}

func (c Crowd) withDefaults() Crowd {
	if c.Window == 0 {
		c.Window = time.Second
	}
	if c.Horizon == 0 {
		c.Horizon = 24 * time.Hour
	}
	if c.MaxCalls == 0 {
		c.MaxCalls = 10_000_000
	}
	if len(c.ArrivalTimes) > 0 {
		c.Clients = len(c.ArrivalTimes)
	}
	return c
}

// Check reports a Crowd that cannot run.
func (c Crowd) Check() error {
	c = c.withDefaults()
	switch {
	case c.Clients < 1:
		return fmt.Errorf("need at least one client, not %d", c.Clients)
	case len(c.ArrivalTimes) == 0 && c.Clients > MaxClients:
		return fmt.Errorf("%d clients is more than the %d pollfit simulates", c.Clients, MaxClients)
	case c.Capacity < 1:
		return fmt.Errorf("capacity must be at least 1 call per window, not %d", c.Capacity)
	case c.Window < 0 || c.Answer < 0 || c.Horizon < 0 || slices.Min(append([]time.Duration{0}, c.ArrivalTimes...)) < 0 || slices.Min(append([]time.Duration{0}, c.AnswerSample...)) < 0:
		return fmt.Errorf("negative duration")
	case c.Arrivals != (Rate{}) && !(c.Arrivals.PerSecond() > 0):
		return fmt.Errorf("arrival rate %v must be positive", c.Arrivals)
	}
	return c.Policy.check()
}

// call is an event: client makes a call at time t. seq breaks ties in
// the order the events were scheduled.
type call struct {
	t      time.Duration
	seq    uint64
	client int
}

type queue []call

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	return q[i].t < q[j].t || q[i].t == q[j].t && q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(call)) }
func (q *queue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// sim is the state of one run.
type sim struct {
	c        Crowd
	rng      *rand.Rand
	q        queue
	seq      uint64
	arrival  []time.Duration
	callers  []caller
	window   int64 // current capacity window and calls accepted in it
	accepted int
	second   int64 // current second and calls sent in it
	inSecond int
	res      Result
	served   []float64
}

func (s *sim) push(t time.Duration, client int) {
	heap.Push(&s.q, call{t: t, seq: s.seq, client: client})
	s.seq++
}

// Run simulates the crowd once, drawing arrivals and jitter from rng.
func (c Crowd) Run(rng *rand.Rand) (Result, error) {
	return c.run(context.Background(), rng)
}

// ctxEvery is how many calls a run makes between looks at its context.
const ctxEvery = 1 << 12

// run is Run, stopping with ctx's error soon after ctx is done.
func (c Crowd) run(ctx context.Context, rng *rand.Rand) (Result, error) {
	if err := c.Check(); err != nil {
		return Result{}, err
	}
	c = c.withDefaults()
	s := &sim{c: c, rng: rng, arrival: make([]time.Duration, c.Clients), callers: make([]caller, c.Clients), window: -1, second: -1}
	var tl *schedule.Timeline
	if c.Policy.Schedule != nil {
		tl = c.Policy.Schedule.Timeline()
	}
	var t float64
	for i := range c.Clients {
		if len(c.ArrivalTimes) > 0 {
			s.arrival[i] = c.ArrivalTimes[i]
		} else if c.Arrivals != (Rate{}) {
			t += rng.ExpFloat64() / c.Arrivals.PerSecond()
			s.arrival[i] = time.Duration(math.Round(t * 1e9))
		}
	}
	for i, a := range s.arrival {
		s.callers[i] = c.Policy.start(rng, tl, int64(a))
		if age, ok := s.callers[i].first(); !ok {
			s.res.GaveUp++
		} else if a+age > c.Horizon {
			s.res.Unfinished++
		} else {
			s.push(a+age, i)
		}
	}
	for n := 0; s.q.Len() > 0; n++ {
		if n%ctxEvery == 0 && ctx.Err() != nil {
			return Result{}, fmt.Errorf("simulate: stopped: %w", ctx.Err())
		}
		if s.res.CallsSent >= c.MaxCalls {
			return Result{}, fmt.Errorf("more than %d calls: %s retries too fast for this crowd", c.MaxCalls, c.Policy)
		}
		s.handle(heap.Pop(&s.q).(call))
	}
	s.finish()
	return s.res, nil
}

// handle makes one call: accepted if the window has room, else refused
// and the client's next call scheduled.
func (s *sim) handle(e call) {
	c := s.c
	s.res.CallsSent++
	if sec := int64(e.t / time.Second); sec != s.second {
		s.second, s.inSecond = sec, 0
	}
	s.inSecond++
	s.res.PeakCallsPerSecond = max(s.res.PeakCallsPerSecond, s.inSecond)
	if w := int64(e.t / c.Window); w != s.window {
		s.window, s.accepted = w, 0
	}
	if s.accepted < c.Capacity {
		s.accepted++
		answer := c.Answer
		if n := len(c.AnswerSample); n > 0 {
			answer = c.AnswerSample[s.rng.IntN(n)]
		}
		s.served = append(s.served, (e.t + answer - s.arrival[e.client]).Seconds())
		return
	}
	s.res.CallsRefused++
	age := e.t - s.arrival[e.client]
	next, ok := s.callers[e.client].after(age)
	switch {
	case !ok:
		s.res.GaveUp++
	case s.arrival[e.client]+next > c.Horizon:
		s.res.Unfinished++
	default:
		s.push(s.arrival[e.client]+next, e.client)
	}
}

func (s *sim) finish() {
	s.res.Served = len(s.served)
	slices.Sort(s.served)
	sp := quantile.Summarise(s.served)
	s.res.TypicalServed = sp.Median
	s.res.LastServed = math.NaN()
	if n := len(s.served); n > 0 {
		s.res.LastServed = s.served[n-1]
	}
}
