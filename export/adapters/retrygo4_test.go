package adapters_test

import (
	"testing"
	"time"

	"github.com/avast/retry-go/v4"

	"github.com/pollfit/pollfit/export/adapters/poll"
)

// retryGoV4 is the adapter for github.com/avast/retry-go/v4 of the
// package documentation.
func retryGoV4(b *poll.BackOff, checkPayment func() error) error {
	err := retry.Do(func() error {
		time.Sleep(b.Wait()) // 0 unless the schedule starts later
		return checkPayment()
	},
		retry.Attempts(0), // no count limit: the schedule decides
		retry.RetryIf(func(error) bool { return b.NextBackOff() >= 0 }), // plans the next ask; stops after the last
		retry.DelayType(func(uint, error, *retry.Config) time.Duration { return b.Wait() }))
	return err
}

// fakeAfter is a retry-go timer that moves a fake clock and fires.
type fakeAfter struct{ clock *fakeClock }

func (f fakeAfter) After(d time.Duration) <-chan time.Time {
	f.clock.Sleep(d)
	c := make(chan time.Time, 1)
	c <- f.clock.Now()
	return c
}

// TestRetryGoV4 runs retryGoV4 on the real clock and, with the same
// options and a fake timer (retry.WithTimer), on a fake one.
func TestRetryGoV4(t *testing.T) {
	runFake(t, func(b *poll.BackOff, clock *fakeClock, checkPayment func() error) error {
		return retry.Do(func() error {
			clock.Sleep(b.Wait())
			return checkPayment()
		},
			retry.Attempts(0),
			retry.RetryIf(func(error) bool { return b.NextBackOff() >= 0 }),
			retry.DelayType(func(uint, error, *retry.Config) time.Duration { return b.Wait() }),
			retry.WithTimer(fakeAfter{clock}))
	})
	runReal(t, retryGoV4)
}
