package backoff_test

import (
	"fmt"
	"time"

	"github.com/pollfit/pollfit/fit/backoff"
)

func ExampleSchedule() {
	st, err := backoff.Parse("exponential(initial=100ms, factor=2, max=20s)")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := backoff.Schedule(st, 24*time.Hour)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s)
	// Output:
	// at 0s 100ms 300ms 700ms 1.5s 3.1s 6.3s 12.7s 25.5s, 20s
}

func ExamplePerl() {
	p := backoff.Perl{Algorithm: backoff.AlgoLIMD, InitialDelay: 2, MinDelay: 1,
		DelayIncrementOnFailure: 4, DelayMultipleOnSuccess: 0.2}
	b := p.New(0, nil)
	for _, ok := range []bool{false, false, false, true, true, true, false, false, false} {
		var d float64
		if ok {
			d, _ = b.Success(0)
		} else {
			d, _ = b.Failure(0)
		}
		fmt.Print(backoff.FormatPerl(d), " ")
	}
	fmt.Println()
	// Output:
	// 2 6 10 2 1 1 5 9 13
}
