package fit

import (
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// WithSignals decides whether schedule s should reset on signal, by
// replaying items (which carry the signals: a push, the app coming to the
// foreground) with and without it up to horizon. A signal makes the
// client ask at once and restart the schedule, so when signals follow
// the answer closely the ask at the signal sees it early, often for no
// extra request. It returns s with reset on signal when that is better
// under the budget b (the same kind Fit takes: within the requests per
// item, at a lower lag + price × requests, or, for budgets counting the
// asks to an item that never settles, which gets no signal, at no more
// requests per item), else s itself; ok reports which. Items without
// signals leave s alone. Each item of smp counts with its weight.
func WithSignals(s *schedule.Schedule, smp Sample, horizon time.Duration, b Budget) (out *schedule.Schedule, ok bool, err error) {
	if !smp.HasSignals() || s.ResetOnSignal {
		return s, false, nil
	}
	r := *schedule.Canonical(s)
	r.ResetOnSignal = true
	plain, err := ReplaySample(s, smp, ReplayOptions{Horizon: horizon})
	if err != nil {
		return s, false, err
	}
	reset, err := ReplaySample(&r, smp, ReplayOptions{Horizon: horizon})
	if err != nil {
		return s, false, err
	}
	better := reset.Lag.Mean < plain.Lag.Mean
	switch b.Kind() {
	case BudgetPrice:
		better = reset.Lag.Mean+b.Price*reset.RequestsPerItem < plain.Lag.Mean+b.Price*plain.RequestsPerItem
	case BudgetRequests:
		better = better && reset.RequestsPerItem <= max(b.RequestsPerItem, plain.RequestsPerItem)
	default:
		better = better && reset.RequestsPerItem <= plain.RequestsPerItem
	}
	if better {
		return &r, true, nil
	}
	return s, false, nil
}
