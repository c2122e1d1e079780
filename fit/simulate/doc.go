// Package simulate is a seeded discrete-event simulation of many
// clients calling one server of limited capacity, for comparing retry
// strategies (the retry-storm study), and of the load a polling fleet
// puts on its status endpoint.
//
// # The crowd model (Crowd)
//
// Time runs in whole nanoseconds from 0. M clients (Clients) arrive
// either all at time 0 or, when Arrivals is set, as a Poisson stream of
// that rate: client i arrives at the sum of i+1 independent exponential
// gaps with mean 1/rate. On arrival a client calls the server (with a
// schedule as its policy, at its first ask age instead).
//
// The server accepts at most Capacity calls in each window [k·W,
// (k+1)·W) of simulated time, W = Window (1 s by default; "20/s" on the
// command line is Capacity 20, W = 1 s); windows are fixed, not sliding,
// and the count restarts in each. A call beyond the window's capacity is
// refused at once. An accepted call is answered Answer later, and its
// client is served then; it makes no more calls.
//
// A refused client follows its Policy. With a strategy, the retrier is
// told the refusal's age (time since the client arrived) and returns a
// wait; the client calls again after it, or gives up when the strategy
// does. With a schedule, the client calls at the schedule's next ask
// age strictly after the refusal (aligned clauses count the simulation's
// time 0 as the Unix epoch); it gives up when the schedule stops. A call
// that would come after Horizon (24 h by default) is not made and its
// client is unfinished.
//
// Calls are events in a priority queue (container/heap) ordered by time
// and then by a sequence number given when the event was scheduled, so
// simultaneous calls are handled in the order they were scheduled
// (arrivals by client index first). One *rand.Rand draws the arrival
// times first, then every jitter in event order, so a seed fixes the
// whole run. Repeat runs the crowd R times, run i with a PCG seeded
// (seed, i).
//
// Each run reports, in seconds from a client's arrival: LastServed, the
// longest time to be served, and TypicalServed, the median (type-7
// quantile) over served clients (NaN when none is); CallsSent and
// CallsRefused over all clients; PeakCallsPerSecond, the most calls sent
// (accepted or refused) in one second [k, k+1) of simulated time; and
// the numbers of clients served, gave up and unfinished. Summarise gives
// the median, 10th and 90th percentiles of each over the runs; Repeat
// folds each run into running quantile sketches (quantile.Quantiles:
// exact up to 1024 runs, within 0.1% beyond), so its memory does not
// grow with the runs, and stops when its context is done.
//
// The retry-storm study (200 agents at once, 20 calls/s, answers in
// 1.07 s) is
//
//	pollfit simulate --clients 200 --capacity 20/s --answer 1.07s --runs 50 \
//	    --strategy 'constant(100ms)' \
//	    --strategy 'exponential(initial=100ms, factor=2, max=20s)' \
//	    --strategy 'exponential(initial=100ms, factor=2, max=20s, jitter=full)'
//
// Its two deterministic rows are worked out by hand in the tests: 9200
// calls and the last agent served at 10.07 s for the immediate retry,
// 1640 calls and 106.57 s for plain exponential backoff.
//
// # The fleet model (Fleet)
//
// Items are created as a Poisson stream (Arrivals) from −MaxAge on, plus
// Burst items together at time 0, and each asks by Policy from its
// creation: at its ask ages up to and including the first at or after
// its settle age (drawn from Settle; never settling without it), and
// none after MaxAge. Nothing is refused. Load counts the asks in the
// measured span [0, Duration): the mean per second, the busiest second
// [k, k+1) (Peak), the busiest second after the first (Echo: the retry
// waves of the burst without its first asks), and the mean asks per
// stream item, so that the steady-state rate is Arrivals·PerItem.
package simulate
