package adapters_test

import (
	"testing"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"

	"github.com/pollfit/pollfit/export/adapters/poll"
)

// failsafeGo is the adapter for github.com/failsafe-go/failsafe-go of
// the package documentation.
func failsafeGo(b *poll.BackOff, checkPayment func() error) error {
	policy := retrypolicy.NewBuilder[any]().
		WithMaxRetries(-1).                                            // no count limit: the schedule decides
		AbortIf(func(any, error) bool { return b.NextBackOff() < 0 }). // plans the next ask; stops after the last
		WithDelayFunc(func(failsafe.ExecutionAttempt[any]) time.Duration { return b.Wait() }).
		Build()
	err := failsafe.With(policy).Run(func() error {
		time.Sleep(b.Wait()) // 0 unless the schedule starts later
		return checkPayment()
	})
	return err
}

// TestFailsafeGo runs failsafeGo on the real clock: failsafe-go takes
// no timer.
func TestFailsafeGo(t *testing.T) { runReal(t, failsafeGo) }
