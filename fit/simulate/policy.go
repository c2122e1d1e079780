package simulate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"

	"github.com/pollfit/pollfit/internal/quote"
)

// Policy is what a client does after a refused call: follow a retry
// strategy (waits after each refusal) or a polling schedule (call at
// each of its ask ages). Exactly one of the two is set.
type Policy struct {
	Strategy backoff.Strategy
	Schedule *schedule.Schedule
}

// ParsePolicy reads a strategy spec such as "constant(100ms)" (see
// backoff.Parse) or a schedule in the schedule language.
func ParsePolicy(s string) (Policy, error) {
	if backoff.IsSpec(s) {
		st, err := backoff.Parse(s)
		return Policy{Strategy: st}, err
	}
	sc, err := schedule.Parse(s)
	if err != nil {
		return Policy{}, fmt.Errorf("%q is neither a strategy (name(...)) nor a schedule: %v", s, err)
	}
	return Policy{Schedule: sc}, nil
}

// String is the strategy spec or the schedule.
func (p Policy) String() string {
	switch {
	case p.Strategy != nil:
		return p.Strategy.String()
	case p.Schedule != nil:
		return schedule.Format(p.Schedule)
	}
	return "<none>"
}

// Deterministic reports whether every client calls at the same ages.
func (p Policy) Deterministic() bool { return p.Strategy == nil || p.Strategy.Deterministic() }

func (p Policy) check() error {
	switch {
	case p.Strategy == nil && p.Schedule == nil:
		return fmt.Errorf("no retry policy")
	case p.Strategy != nil && p.Schedule != nil:
		return fmt.Errorf("both a strategy and a schedule given")
	case p.Schedule != nil:
		return p.Schedule.Validate()
	}
	return nil
}

// caller gives one client's call ages.
type caller interface {
	// first is the age of the first call.
	first() (time.Duration, bool)
	// after is the age of the call after a refusal at age.
	after(age time.Duration) (time.Duration, bool)
}

// start makes the caller of a client arriving at time created (ns since
// the start of the simulation, taken as the Unix epoch for aligned
// clauses).
func (p Policy) start(rng *rand.Rand, tl *schedule.Timeline, created int64) caller {
	if p.Strategy != nil {
		return &strategyCaller{p.Strategy.Start(rng)}
	}
	return &scheduleCaller{tl: tl, al: p.Schedule.Aligned, created: created}
}

type strategyCaller struct{ r backoff.Retrier }

func (c *strategyCaller) first() (time.Duration, bool) { return 0, true }

func (c *strategyCaller) after(age time.Duration) (time.Duration, bool) {
	w, ok := c.r.Next(age)
	return age + w, ok
}

type scheduleCaller struct {
	tl      *schedule.Timeline
	al      []schedule.Aligned
	created int64
}

func (c *scheduleCaller) first() (time.Duration, bool) { return c.next(0) }

func (c *scheduleCaller) after(age time.Duration) (time.Duration, bool) { return c.next(age + 1) }

// next is the first ask at or after age.
func (c *scheduleCaller) next(age time.Duration) (time.Duration, bool) {
	best, ok := c.tl.Next(age)
	for _, a := range c.al {
		if n, aok := a.Next(c.created, age); aok && (!ok || n < best) {
			best, ok = n, true
		}
	}
	return best, ok
}

// Rate is a count per period: "20/s" is Rate{20, time.Second}.
type Rate struct {
	N   float64
	Per time.Duration
}

// PerSecond is the rate in events per second.
func (r Rate) PerSecond() float64 { return r.N / r.Per.Seconds() }

func (r Rate) String() string {
	if r.Per == time.Second {
		return fmt.Sprintf("%g/s", r.N)
	}
	return fmt.Sprintf("%g/%s", r.N, schedule.FormatDuration(r.Per))
}

// ParseRate reads "N/PERIOD": 20/s, 600/m, 5/100ms, 1.5/h. A bare unit
// means one of it.
func ParseRate(s string) (Rate, error) {
	n, per, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Rate{}, fmt.Errorf("rate %q: want N/PERIOD, e.g. 20/s", quote.Clip(s))
	}
	var r Rate
	var err error
	if r.N, err = strconv.ParseFloat(strings.TrimSpace(n), 64); err != nil || !(r.N > 0) || math.IsInf(r.N, 0) {
		return Rate{}, fmt.Errorf("rate %q: %q is not a positive number", quote.Clip(s), quote.Clip(n))
	}
	if per != "" && (per[0] < '0' || per[0] > '9') && per[0] != '.' {
		per = "1" + per
	}
	d, err := schedule.ParseDuration(strings.TrimSpace(per))
	if err != nil || d <= 0 {
		return Rate{}, fmt.Errorf("rate %q: period %q is not a positive duration", quote.Clip(s), quote.Clip(per))
	}
	r.Per = d
	return r, nil
}
