package export

import (
	"slices"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// expectedWalk is the asks a BackOff walk should make, worked out from
// the schedule package: the aligned asks and the age-based asks,
// restarted at each signal when the schedule resets on signal (each
// signal being an ask itself), up to horizon.
func expectedWalk(t *testing.T, c goCase) []int64 {
	set := map[time.Duration]bool{}
	aligned, err := (&schedule.Schedule{Aligned: c.s.Aligned}).ItemAsks(c.created, c.horizon)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range aligned {
		set[a] = true
	}
	ages, err := c.s.Timeline().Asks(c.horizon)
	if err != nil {
		t.Fatal(err)
	}
	starts := []time.Duration{0}
	if c.s.ResetOnSignal {
		starts = append(starts, c.signals...)
	}
	for i, b := range starts {
		if i > 0 {
			set[b] = true
		}
		for _, a := range ages {
			if b+a > c.horizon || i+1 < len(starts) && b+a >= starts[i+1] {
				break
			}
			set[b+a] = true
		}
	}
	var out []int64
	for a := range set {
		out = append(out, int64(a))
	}
	slices.Sort(out)
	return out
}

// expectedSlowWalk is the asks of a walk whose checks take c.slow,
// worked out from the schedule package's ask list: after an ask at a
// the next is the first listed ask after a and at or after a+c.slow.
func expectedSlowWalk(t *testing.T, c goCase) []int64 {
	all, err := c.s.ItemAsks(c.created, c.horizon)
	if err != nil {
		t.Fatal(err)
	}
	return ints(slowAsks(all, c.slow))
}

// slowAsks are the asks of the list all that a caller whose checks take
// slow makes: after an ask at a, the first listed after a and at or
// after a+slow.
func slowAsks(all []time.Duration, slow time.Duration) []time.Duration {
	var out []time.Duration
	for i := 0; i < len(all); {
		out = append(out, all[i])
		due := all[i] + slow
		for i++; i < len(all) && all[i] < due; i++ {
		}
	}
	return out
}

func expectedNext(c goCase, age time.Duration, aligned bool) [2]int64 {
	next, ok := c.s.Timeline().Next(age + 1) // first ask ≥ age+1 ns: strictly after age
	if aligned {
		for _, a := range c.s.Aligned {
			if at, found := a.Next(c.created, max(age+1, 0)); found && (!ok || at < next) {
				next, ok = at, true
			}
		}
	}
	if !ok {
		return [2]int64{0, 0}
	}
	return [2]int64{int64(next - age), 1}
}

// walkProgram is the main program of the temporary module; the test
// puts the case table in place of the CASES line.
const walkProgram = `package main

import (
	"encoding/json"
	"os"
	"time"

	"gentest/poll"
)

type tcase struct {
	name    string
	s       poll.Schedule
	created int64
	horizon time.Duration
	signals []int64
	probes  []int64
	slow    time.Duration
}

var cases = []tcase{
	// CASES
}

type result struct {
	Name     string
	Asks     []int64
	AsksFrom []int64
	Walk     []int64
	SlowWalk []int64
	AfterEnd []int64
	Next     [][2]int64
	NextFrom [][2]int64
	End      [2]int64
}

// afterEnd is what NextBackOff returns, twice, an hour after the end of
// a stopping schedule.
func afterEnd(c tcase) []int64 {
	end, ok := c.s.End()
	if !ok {
		return nil
	}
	now := time.Unix(0, c.created)
	b := c.s.BackOff()
	b.Now = func() time.Time { return now }
	b.Reset()
	now = now.Add(end + time.Hour)
	return []int64{int64(b.NextBackOff()), int64(b.NextBackOff())}
}

func ns(ds []time.Duration) []int64 {
	out := []int64{}
	for _, d := range ds {
		out = append(out, int64(d))
	}
	return out
}

func pair(d time.Duration, ok bool) [2]int64 {
	if ok {
		return [2]int64{int64(d), 1}
	}
	return [2]int64{int64(d), 0}
}

// walk follows a BackOff on a fake clock from the creation time,
// making the first ask after Wait and delivering each signal when
// it comes before the next planned ask.
func walk(c tcase) []int64 {
	now := time.Unix(0, c.created)
	b := c.s.BackOff()
	b.Now = func() time.Time { return now }
	b.Reset()
	t := time.Duration(0)
	var asks []int64
	sigs := c.signals
	planned, have := b.Wait(), true
	plan := func() {
		w := b.NextBackOff()
		planned, have = t+w, w >= 0
	}
	for len(asks) < 100000 {
		if len(sigs) > 0 && (!have || time.Duration(sigs[0]) <= planned) {
			t = time.Duration(sigs[0])
			sigs = sigs[1:]
			now = time.Unix(0, c.created).Add(t)
			if b.Signal() {
				if len(asks) == 0 || asks[len(asks)-1] != int64(t) {
					asks = append(asks, int64(t))
				}
				plan()
			}
			continue
		}
		if !have || planned > c.horizon {
			break
		}
		t = planned
		now = time.Unix(0, c.created).Add(t)
		asks = append(asks, int64(t))
		plan()
	}
	return asks
}

// slowWalk follows a BackOff whose every check takes c.slow on the
// fake clock: it asks when told to and calls NextBackOff when the
// check returns.
func slowWalk(c tcase) []int64 {
	created := time.Unix(0, c.created)
	now := created
	b := c.s.BackOff()
	b.Now = func() time.Time { return now }
	b.Reset()
	now = now.Add(b.Wait())
	var asks []int64
	for len(asks) < 100000 && now.Sub(created) <= c.horizon {
		asks = append(asks, int64(now.Sub(created)))
		now = now.Add(c.slow)
		w := b.NextBackOff()
		if w < 0 {
			break
		}
		now = now.Add(w)
	}
	return asks
}

func main() {
	enc := json.NewEncoder(os.Stdout)
	for _, c := range cases {
		created := time.Unix(0, c.created)
		r := result{Name: c.name, Asks: ns(c.s.Asks(c.horizon)), AsksFrom: ns(c.s.AsksFrom(created, c.horizon)), Walk: walk(c), SlowWalk: slowWalk(c), AfterEnd: afterEnd(c)}
		for _, p := range c.probes {
			r.Next = append(r.Next, pair(c.s.Next(time.Duration(p))))
			r.NextFrom = append(r.NextFrom, pair(c.s.NextFrom(created, time.Duration(p))))
		}
		r.End = pair(c.s.End())
		if err := enc.Encode(r); err != nil {
			panic(err)
		}
	}
}
`
