package adapters_test

import (
	"context"
	"testing"
	"time"

	"github.com/sethvargo/go-retry"

	"github.com/pollfit/pollfit/export/adapters/poll"
)

var _ retry.Backoff = (*poll.BackOff)(nil)

// goRetry is the adapter for github.com/sethvargo/go-retry of the
// package documentation.
func goRetry(ctx context.Context, b *poll.BackOff, checkPayment func() error) error {
	err := retry.Do(ctx, b, func(ctx context.Context) error {
		time.Sleep(b.Wait()) // 0 unless the schedule starts later
		return retry.RetryableError(checkPayment())
	})
	return err
}

// TestGoRetry runs goRetry on the real clock: go-retry takes no timer.
func TestGoRetry(t *testing.T) {
	runReal(t, func(b *poll.BackOff, checkPayment func() error) error {
		return goRetry(context.Background(), b, checkPayment)
	})
}
