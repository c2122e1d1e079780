package adapters_test

import (
	"context"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v5"

	"github.com/pollfit/pollfit/export/adapters/poll"
)

var _ backoff.BackOff = (*poll.BackOff)(nil)

// cenkaltiV5 is the adapter for github.com/cenkalti/backoff/v5 of the
// package documentation.
func cenkaltiV5(ctx context.Context, b *poll.BackOff, checkPayment func() error) error {
	_, err := backoff.Retry(ctx, func() (bool, error) {
		time.Sleep(b.Wait()) // 0 unless the schedule starts later
		return true, checkPayment()
	}, backoff.WithBackOff(b), backoff.WithMaxElapsedTime(0)) // no time limit: the schedule stops
	return err
}

// TestCenkaltiV5 runs cenkaltiV5 on the real clock: v5 takes no timer
// from its callers.
func TestCenkaltiV5(t *testing.T) {
	runReal(t, func(b *poll.BackOff, checkPayment func() error) error {
		return cenkaltiV5(context.Background(), b, checkPayment)
	})
}
