package adapters_test

import (
	"testing"
	"time"

	"github.com/avast/retry-go/v5"

	"github.com/pollfit/pollfit/export/adapters/poll"
)

// retryGoV5 is the adapter for github.com/avast/retry-go/v5 of the
// package documentation.
func retryGoV5(b *poll.BackOff, checkPayment func() error) error {
	err := retry.New(
		retry.Attempts(0), // no count limit: the schedule decides
		retry.RetryIf(func(error) bool { return b.NextBackOff() >= 0 }), // plans the next ask; stops after the last
		retry.DelayType(func(uint, error, retry.DelayContext) time.Duration { return b.Wait() }),
	).Do(func() error {
		time.Sleep(b.Wait()) // 0 unless the schedule starts later
		return checkPayment()
	})
	return err
}

// TestRetryGoV5 runs retryGoV5 on the real clock and, with the same
// options and a fake timer (retry.WithTimer), on a fake one.
func TestRetryGoV5(t *testing.T) {
	runFake(t, func(b *poll.BackOff, clock *fakeClock, checkPayment func() error) error {
		return retry.New(
			retry.Attempts(0),
			retry.RetryIf(func(error) bool { return b.NextBackOff() >= 0 }),
			retry.DelayType(func(uint, error, retry.DelayContext) time.Duration { return b.Wait() }),
			retry.WithTimer(fakeAfter{clock}),
		).Do(func() error {
			clock.Sleep(b.Wait())
			return checkPayment()
		})
	})
	runReal(t, retryGoV5)
}
