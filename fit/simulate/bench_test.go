package simulate

import (
	"math/rand/v2"
	"testing"
	"time"
)

// One run of the retry-storm study per strategy.
func BenchmarkRetryStorm(b *testing.B) {
	for _, spec := range []string{"constant(100ms)", "exponential(initial=100ms, factor=2, max=20s)", "exponential(initial=100ms, factor=2, max=20s, jitter=full)"} {
		p, err := ParsePolicy(spec)
		if err != nil {
			b.Fatal(err)
		}
		c := Crowd{Clients: 200, Capacity: 20, Answer: 1070 * time.Millisecond, Policy: p}
		b.Run(spec, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if _, err := c.Run(rand.New(rand.NewPCG(1, uint64(i)))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A fleet of 50 items/s polling with jittered backoff for 10 minutes.
func BenchmarkFleet(b *testing.B) {
	p, _ := ParsePolicy("exponential(initial=1s, max=30s, jitter=full)")
	f := Fleet{Arrivals: Rate{50, time.Second}, MaxAge: 5 * time.Minute, Policy: p}
	for i := 0; b.Loop(); i++ {
		if _, err := f.Load(rand.New(rand.NewPCG(1, uint64(i)))); err != nil {
			b.Fatal(err)
		}
	}
}
