package schedule_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// The outputs below are worked out by hand from the package
// documentation, not pasted from a run.

func ExampleParse() {
	// "1s until 5s" implies an ask at 0 and asks at 1s, ..., 5s; "2s
	// until 10s" asks 2s after each previous ask while the age stays
	// ≤ 10s: at 7s and 9s; the bare "5s" goes on from 9s forever.
	s, err := schedule.Parse("1s until 5s, 2s until 10s, 5s # then every 5s")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(s.Clauses), "clauses, stops:", s.Stops())
	fmt.Println(s)
	// Output:
	// 3 clauses, stops: false
	// 1s until 5s, 2s until 10s, 5s
}

func ExampleParse_error() {
	// The second clause would ask at 5s+2s = 7s, past its until: it never
	// asks, and the error points at the clause, on line 2, column 1.
	_, err := schedule.Parse("1s until 5s,\n2s until 6s")
	var se *schedule.SyntaxError
	if errors.As(err, &se) {
		fmt.Printf("%d:%d: %s\n", se.Line, se.Col, se.Msg)
	}
	// Output:
	// 2:1: 2s until 6s never asks: the previous ask is at 5s
}

func ExampleFormat() {
	for _, src := range []string{
		// A lone "at 0s" before an interval is implied by it: dropped.
		"at 0, 2s until 1m, 10s until 5m",
		// Adjacent explicit asks merge into one clause.
		"at 0s 1s, at 3s, 30s",
		// Age-based clauses come first, then aligned ones, then reset.
		"every 5m at +2s +5s until 1h, 1s until 10s, reset on signal",
	} {
		s, err := schedule.Parse(src)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(schedule.Format(s))
	}
	// A schedule built by hand formats the same way: 90s is 1m30s and
	// 36h is 1d12h.
	s := &schedule.Schedule{Clauses: []schedule.Clause{{Every: 90 * time.Second, Until: 36 * time.Hour}}}
	fmt.Println(schedule.Format(s))
	// Output:
	// 2s until 1m, 10s until 5m
	// at 0s 1s 3s, 30s
	// 1s until 10s, every 5m at +2s +5s until 1h, reset on signal
	// 1m30s until 1d12h
}

func ExampleParseDuration() {
	d, err := schedule.ParseDuration("1d12h")
	fmt.Println(d, err)
	fmt.Println(schedule.FormatDuration(d), schedule.FormatDuration(1500*time.Millisecond))
	_, err = schedule.ParseDuration("90")
	fmt.Println(err)
	// Output:
	// 36h0m0s <nil>
	// 1d12h 1.5s
	// duration "90" has no unit (write 90s, 90ms, ...)
}

func ExampleTimeline() {
	s, err := schedule.Parse("1s until 5s, 2s until 10s, 5s")
	if err != nil {
		fmt.Println(err)
		return
	}
	t := s.Timeline()
	// 0s to 5s every second (6 asks), then 7s and 9s, then every 5s
	// from 9s: 14s, 19s, 24s, ...
	asks, err := t.Asks(20 * time.Second)
	fmt.Println(asks, err)
	// By 10s: the six asks 0s–5s and those at 7s and 9s.
	fmt.Println(t.Count(10 * time.Second))
	// After 9s the next ask is 5s later; an ask at exactly 7s is "at or
	// after" 7s.
	fmt.Println(t.Next(10 * time.Second))
	fmt.Println(t.Next(7 * time.Second))
	// Output:
	// [0s 1s 2s 3s 4s 5s 7s 9s 14s 19s] <nil>
	// 8
	// 14s true
	// 7s true
}

func ExampleTimeline_stopping() {
	s, err := schedule.Parse("at 0s 3s 8s, 10s until 1m")
	if err != nil {
		fmt.Println(err)
		return
	}
	// 10s after 8s while ≤ 1m: 18s, 28s, 38s, 48s, 58s.
	t := s.Timeline()
	fmt.Println(t.Count(time.Hour))
	fmt.Println(t.Last())
	fmt.Println(t.Next(59 * time.Second))
	fmt.Println(s.End())
	// Output:
	// 8
	// 58s true
	// 0s false
	// 58s true
}

func ExampleFormatAge() {
	for _, s := range []float64{0.25, 1.5, 90, 600, 1340, 9360, 3 * 86400} {
		fmt.Print(schedule.FormatAge(s), " ")
	}
	fmt.Println()
	// Output: 250ms 1.5s 90s 10m 22m20s 2h36m 3d
}
