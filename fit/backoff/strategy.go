package backoff

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// A Strategy is a retry rule: the waits a client makes after each failed
// (or still pending) attempt. Strategies are values; Start makes the
// state of one client.
type Strategy interface {
	// Start begins one client's sequence. rng draws the jitter; it may be
	// nil for a deterministic strategy.
	Start(rng *rand.Rand) Retrier
	// Deterministic reports whether every client waits the same: no
	// jitter, so Start ignores rng.
	Deterministic() bool
	// String is the strategy in the spec syntax Parse reads.
	String() string
}

// A Retrier is one client following a strategy.
type Retrier interface {
	// Next is called after each failed attempt, elapsed after the first
	// attempt, and returns the wait before the next attempt, or ok false
	// when the strategy gives up.
	Next(elapsed time.Duration) (wait time.Duration, ok bool)
}

// steadier is implemented by retriers that can tell that every further
// wait is the same and they never give up.
type steadier interface {
	steady() (wait time.Duration, ok bool)
}

// seconds converts a duration to float seconds.
func seconds(d time.Duration) float64 { return d.Seconds() }

// dur converts float seconds to a duration rounded to the nanosecond,
// saturating at the largest duration.
func dur(s float64) time.Duration {
	ns := math.Round(s * 1e9)
	switch {
	case ns >= math.MaxInt64:
		return math.MaxInt64
	case ns <= 0 || math.IsNaN(ns):
		return 0
	}
	return time.Duration(ns)
}

// maxZeroWaits is how many waits of 0 in a row Asks takes before it
// calls a strategy stuck.
const maxZeroWaits = 1000

// Asks is one realisation of st as a polling schedule: the ages 0, w1,
// w1+w2, ... up to horizon, stopping early where the strategy gives up.
// rng draws the jitter (nil for a deterministic strategy). A wait that
// rounds to 0 ns asks again at the same age; the ages are strictly
// increasing, so such an ask is listed once, and after 1000 waits of 0
// in a row the strategy is taken to be stuck and the list ends. Asks
// lists at most schedule.MaxAsks ages and asks the strategy at most that
// many times.
func Asks(st Strategy, rng *rand.Rand, horizon time.Duration) []time.Duration {
	asks := []time.Duration{0}
	r := st.Start(rng)
	sd, _ := r.(steadier)
	var age time.Duration
	zeros := 0
	// Bound the calls, not the asks: a strategy stuck at waits of 0
	// would never add one.
	for i := 0; i < schedule.MaxAsks && len(asks) < schedule.MaxAsks; i++ {
		if sd != nil {
			if w, ok := sd.steady(); ok && w == 0 {
				break // waits of 0 for ever: no further age
			}
		}
		w, ok := r.Next(age)
		if !ok || w > horizon-age {
			break
		}
		if w == 0 {
			if zeros++; zeros >= maxZeroWaits {
				break // stuck at one age
			}
			continue
		}
		zeros = 0
		age += w
		asks = append(asks, age)
	}
	return asks
}

// Realise is one realisation of st as a schedule of explicit asks (see
// Asks), for replaying a randomised strategy once per realisation.
func Realise(st Strategy, rng *rand.Rand, horizon time.Duration) *schedule.Schedule {
	return &schedule.Schedule{Clauses: []schedule.Clause{{At: Asks(st, rng, horizon)}}}
}

// Schedule converts a deterministic strategy to a schedule with the same
// asks. Where the strategy settles on one wait forever (it reaches its
// cap and has no attempt or time limit) the schedule ends in that
// interval and asks forever; otherwise it lists the asks up to horizon
// (or until the strategy gives up), writing runs of three or more equal
// waits as "D until T" clauses. It refuses a randomised strategy and a
// wait of 0 (two asks at one age).
func Schedule(st Strategy, horizon time.Duration) (*schedule.Schedule, error) {
	if !st.Deterministic() {
		return nil, fmt.Errorf("%s is randomised: replay realisations (Realise) instead", st)
	}
	r := st.Start(nil)
	sd, _ := r.(steadier)
	asks := []time.Duration{0}
	var age, forever time.Duration
	for {
		if sd != nil {
			if w, ok := sd.steady(); ok {
				if w <= 0 {
					return nil, fmt.Errorf("%s waits 0 after the ask at %s: a schedule cannot ask twice at one age", st, schedule.FormatDuration(age))
				}
				forever = w
				break
			}
		}
		w, ok := r.Next(age)
		if !ok || w > horizon-age {
			break
		}
		if w <= 0 {
			return nil, fmt.Errorf("%s waits 0 after the ask at %s: a schedule cannot ask twice at one age", st, schedule.FormatDuration(age))
		}
		if len(asks) >= schedule.MaxAsks {
			return nil, fmt.Errorf("%s asks more than %d times by %s", st, schedule.MaxAsks, schedule.FormatDuration(horizon))
		}
		age += w
		asks = append(asks, age)
	}
	s := &schedule.Schedule{Clauses: compress(asks)}
	if forever > 0 {
		s.Clauses = append(s.Clauses, schedule.Clause{Every: forever, Forever: true})
	}
	return schedule.Canonical(s), nil
}

// compress writes strictly increasing asks starting at 0 as clauses:
// runs of at least three equal gaps become "D until T", the rest "at".
func compress(asks []time.Duration) []schedule.Clause {
	var out []schedule.Clause
	var at []time.Duration
	flush := func() {
		if len(at) > 0 {
			out = append(out, schedule.Clause{At: at})
			at = nil
		}
	}
	at = append(at, asks[0])
	for i := 1; i < len(asks); {
		d := asks[i] - asks[i-1]
		j := i
		for j+1 < len(asks) && asks[j+1]-asks[j] == d {
			j++
		}
		if j-i+1 >= 3 {
			flush()
			out = append(out, schedule.Clause{Every: d, Until: asks[j]})
			i = j + 1
			continue
		}
		at = append(at, asks[i])
		i++
	}
	flush()
	return out
}
