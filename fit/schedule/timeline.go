package schedule

import (
	"fmt"
	"sort"
	"time"
)

// Timeline is the age-based part of a schedule compiled for fast
// look-ups: counting asks up to an age and finding the next ask are
// O(log clauses), whatever the number of asks.
type Timeline struct {
	runs []run
	cum  []int64 // asks in the runs before runs[i]
}

// run is an arithmetic progression of asks: start, start+step, ...
// n asks in all, or forever when n < 0.
type run struct {
	start, step time.Duration
	n           int64
}

func (r run) lastAsk() time.Duration { return r.start + time.Duration(r.n-1)*r.step }

// Timeline compiles the age-based clauses of s. It assumes s is valid.
func (s *Schedule) Timeline() *Timeline {
	t := &Timeline{}
	prev := time.Duration(0)
	for i, c := range s.Clauses {
		switch {
		case c.IsAt():
			for _, a := range c.At {
				t.add(run{start: a, n: 1})
			}
		default:
			if i == 0 {
				t.add(run{start: 0, n: 1})
			}
			r := run{start: prev + c.Every, step: c.Every, n: -1}
			if !c.Forever {
				r.n = int64((c.Until - prev) / c.Every)
			}
			t.add(r)
		}
		prev = c.last(prev)
	}
	return t
}

func (t *Timeline) add(r run) {
	if r.n == 0 {
		return
	}
	var c int64
	if k := len(t.runs); k > 0 {
		c = t.cum[k-1] + t.runs[k-1].n
	}
	t.runs = append(t.runs, r)
	t.cum = append(t.cum, c)
}

// Forever reports whether the timeline never stops.
func (t *Timeline) Forever() bool {
	return len(t.runs) > 0 && t.runs[len(t.runs)-1].n < 0
}

// Last is the age of the last ask; ok is false if there is none or the
// timeline never stops.
func (t *Timeline) Last() (last time.Duration, ok bool) {
	if len(t.runs) == 0 || t.Forever() {
		return 0, false
	}
	return t.runs[len(t.runs)-1].lastAsk(), true
}

// find returns the index of the last run starting at or before age, or -1.
func (t *Timeline) find(age time.Duration) int {
	return sort.Search(len(t.runs), func(i int) bool { return t.runs[i].start > age }) - 1
}

// Count is the number of asks at ages ≤ age.
func (t *Timeline) Count(age time.Duration) int64 {
	k := t.find(age)
	if k < 0 {
		return 0
	}
	r := t.runs[k]
	if r.n == 1 {
		return t.cum[k] + 1
	}
	in := int64((age-r.start)/r.step) + 1
	if r.n > 0 {
		in = min(in, r.n)
	}
	return t.cum[k] + in
}

// Next is the age of the first ask at or after age; ok is false if the
// timeline has no ask that late.
func (t *Timeline) Next(age time.Duration) (next time.Duration, ok bool) {
	k := t.find(age)
	if k >= 0 {
		r := t.runs[k]
		if r.n != 1 {
			j := (age - r.start + r.step - 1) / r.step
			if r.n < 0 || int64(j) < r.n {
				return r.start + j*r.step, true
			}
		} else if r.start == age {
			return age, true
		}
	}
	if k+1 < len(t.runs) {
		return t.runs[k+1].start, true
	}
	return 0, false
}

// Asks lists every ask at ages ≤ horizon. It refuses to list more than
// MaxAsks asks.
func (t *Timeline) Asks(horizon time.Duration) ([]time.Duration, error) {
	n := t.Count(horizon)
	if n > MaxAsks {
		return nil, fmt.Errorf("schedule asks %d times by %s, more than the %d pollfit will list", n, FormatDuration(horizon), MaxAsks)
	}
	out := make([]time.Duration, 0, n)
	for _, r := range t.runs {
		for j := int64(0); r.n < 0 || j < r.n; j++ {
			a := r.start + time.Duration(j)*r.step
			if a > horizon {
				return out, nil
			}
			out = append(out, a)
		}
	}
	return out, nil
}

// Run is an arithmetic progression of asks in a Timeline: Start,
// Start+Step, ..., N asks in all, or forever when N < 0. Step is 0 for a
// single ask.
type Run struct {
	Start, Step time.Duration
	N           int64
}

// Runs lists the timeline's progressions in order of age; they do not
// overlap.
func (t *Timeline) Runs() []Run {
	out := make([]Run, len(t.runs))
	for i, r := range t.runs {
		out[i] = Run{Start: r.start, Step: r.step, N: r.n}
	}
	return out
}
