package simulate_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/pollfit/pollfit/fit/simulate"
)

// The outputs below are worked out by hand in the comments, not pasted
// from a run.

func ExampleCrowd() {
	// Five clients arrive at 0 and poll at the ages of "1s": 0s, 1s,
	// 2s, ... The server accepts 2 calls a second and answers 500ms
	// later.
	//
	//	0s: all 5 call; clients 0 and 1 are accepted (served at 0.5s), 3 refused.
	//	1s: clients 2, 3, 4 call; 2 and 3 are accepted (1.5s), 1 refused.
	//	2s: client 4 calls and is accepted (2.5s).
	//
	// 5 + 3 + 1 = 9 calls, 3 + 1 = 4 refused, 5 of them in the second
	// [0, 1); served at 0.5, 0.5, 1.5, 1.5 and 2.5s: median 1.5s.
	p, err := simulate.ParsePolicy("1s")
	if err != nil {
		fmt.Println(err)
		return
	}
	c := simulate.Crowd{Clients: 5, Capacity: 2, Answer: 500 * time.Millisecond, Policy: p}
	r, err := c.Run(rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("served %d: last at %gs, median %gs\n", r.Served, r.LastServed, r.TypicalServed)
	fmt.Printf("calls %d, refused %d, peak %d/s\n", r.CallsSent, r.CallsRefused, r.PeakCallsPerSecond)
	// Output:
	// served 5: last at 2.5s, median 1.5s
	// calls 9, refused 4, peak 5/s
}

func ExampleCrowd_strategy() {
	// Three clients, one call a second, answers in 100ms, and a retry
	// 400ms after each refusal:
	//
	//	0s:   clients 0, 1, 2 call; 0 is accepted (served at 0.1s).
	//	0.4s: 1 and 2 are refused; again at 0.8s.
	//	1.2s: a new second: 1 is accepted (1.3s), 2 refused.
	//	1.6s: 2 is refused; at 2.0s it is accepted (2.1s).
	//
	// 3 + 2 + 2 + 2 + 1 + 1 = 11 calls, 2 + 2 + 2 + 1 + 1 = 8 refused,
	// 3 + 2 + 2 = 7 of them in the second [0, 1).
	p, err := simulate.ParsePolicy("constant(400ms)")
	if err != nil {
		fmt.Println(err)
		return
	}
	c := simulate.Crowd{Clients: 3, Capacity: 1, Answer: 100 * time.Millisecond, Policy: p}
	r, err := c.Run(rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("served %d: last at %gs, median %gs\n", r.Served, r.LastServed, r.TypicalServed)
	fmt.Printf("calls %d, refused %d, peak %d/s\n", r.CallsSent, r.CallsRefused, r.PeakCallsPerSecond)
	// Output:
	// served 3: last at 2.1s, median 1.3s
	// calls 11, refused 8, peak 7/s
}
