package estimate_test

import (
	"fmt"

	"github.com/pollfit/pollfit/estimate"
)

func ExampleKaplanMeier() {
	// Ages in seconds; the third item was still pending at 3 s.
	t := []float64{1, 2, 3, 4, 5}
	final := []bool{true, true, false, true, true}
	s := estimate.KaplanMeier(t, final, nil)
	fmt.Printf("S(2) = %.3f, S(4) = %.3f\n", s.At(2), s.At(4))
	fmt.Println("median:", s.Quantile(0.5))
	// Output:
	// S(2) = 0.600, S(4) = 0.300
	// median: 4
}

func ExampleAccumulator() {
	var acc estimate.Accumulator
	for _, age := range []float64{2, 3, 3, 5, 60, 60} {
		acc.Add(estimate.Item{Age: age, Status: estimate.Settled})
	}
	acc.Add(estimate.Item{Age: 30, Status: estimate.Pending})
	s := acc.Survival()
	fmt.Println("items:", acc.Items, "pending:", acc.Pending)
	fmt.Printf("S(10) = %.3f, never = %.3f\n", s.At(10), s.Never())
	// Output:
	// items: 7 pending: 1
	// S(10) = 0.429, never = 0.000
}
