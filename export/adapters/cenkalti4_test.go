package adapters_test

import (
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/pollfit/pollfit/export/adapters/poll"
)

var _ backoff.BackOff = (*poll.BackOff)(nil)

// cenkaltiV4 is the adapter for github.com/cenkalti/backoff/v4 of the
// package documentation.
func cenkaltiV4(b *poll.BackOff, checkPayment func() error) error {
	err := backoff.Retry(func() error {
		time.Sleep(b.Wait()) // 0 unless the schedule starts later
		return checkPayment()
	}, b)
	return err
}

// fakeTimer is a backoff timer that moves a fake clock and fires.
type fakeTimer struct {
	clock *fakeClock
	c     chan time.Time
}

func (f *fakeTimer) Start(d time.Duration) { f.clock.Sleep(d); f.c <- f.clock.Now() }
func (f *fakeTimer) Stop()                 {}
func (f *fakeTimer) C() <-chan time.Time   { return f.c }

// TestCenkaltiV4 runs cenkaltiV4 on the real clock and, through
// RetryNotifyWithTimer, on a fake one.
func TestCenkaltiV4(t *testing.T) {
	runFake(t, func(b *poll.BackOff, clock *fakeClock, checkPayment func() error) error {
		return backoff.RetryNotifyWithTimer(func() error {
			clock.Sleep(b.Wait()) // 0 unless the schedule starts later
			return checkPayment()
		}, b, nil, &fakeTimer{clock: clock, c: make(chan time.Time, 1)})
	})
	runReal(t, cenkaltiV4)
}
