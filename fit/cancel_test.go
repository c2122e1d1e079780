package fit

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
)

// watchdog is how long a cancelled operation may take before the test
// calls it hung: generous, since the machine may be busy; uncancelled,
// the studies below take minutes.
const watchdog = 60 * time.Second

// cancelAfter runs f with a context cancelled after d and returns its
// error, failing the test if f outlives the watchdog.
func cancelAfter(t *testing.T, d time.Duration, f func(ctx context.Context) error) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(d, cancel)
	done := make(chan error, 1)
	go func() { done <- f(ctx) }()
	select {
	case err := <-done:
		return err
	case <-time.After(watchdog):
		t.Fatalf("still running %v after the context was cancelled", watchdog)
		return nil
	}
}

// wantCanceled checks err is context.Canceled, wrapped with what stopped.
func wantCanceled(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped: context canceled") {
		t.Errorf("%s: error %v, want context.Canceled wrapped as \"...: stopped: context canceled\"", what, err)
	}
}

// paymentsStudy is a study of the bundled payments log that takes
// minutes: 5000 bootstrap resamples, a baseline and the exponential
// family.
func paymentsStudy(t *testing.T) (Sample, StudyOptions) {
	items, _, err := logs.Read([]string{"../testdata/payments.csv"}, logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	now, err := schedule.Parse(nowDSL)
	if err != nil {
		t.Fatal(err)
	}
	return ItemSample(items), StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 8}}, Holdout: 0.3, Seed: 1,
		Baselines: []Baseline{{Name: "now", Schedule: now}}, Bootstrap: 5000, Family: "exponential"}
}

// TestStudyStops: Study, cancelled at once or a few milliseconds into
// its work (the fit's search, the shapes, the comparisons, the
// bootstrap), returns context.Canceled.
func TestStudyStops(t *testing.T) {
	smp, opt := paymentsStudy(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Study(ctx, smp, nil, opt)
	wantCanceled(t, "cancelled before", err)
	if err == nil || !strings.HasPrefix(err.Error(), "study: stopped") {
		t.Errorf("cancelled before: %v, want it to stop before any work", err)
	}
	for _, d := range []time.Duration{2 * time.Millisecond, 30 * time.Millisecond, 300 * time.Millisecond} {
		err := cancelAfter(t, d, func(ctx context.Context) error {
			_, err := Study(ctx, smp, nil, opt)
			return err
		})
		wantCanceled(t, "after "+d.String(), err)
	}
}

// TestStudyFrontierStops: the frontier sweep stops too.
func TestStudyFrontierStops(t *testing.T) {
	smp, opt := paymentsStudy(t)
	opt.Bootstrap, opt.Family = 0, ""
	budgets := make([]float64, 200)
	for i := range budgets {
		budgets[i] = 2 + float64(i)/4
	}
	err := cancelAfter(t, 20*time.Millisecond, func(ctx context.Context) error {
		_, _, err := StudyFrontier(ctx, smp, nil, nil, opt, budgets)
		return err
	})
	wantCanceled(t, "frontier", err)
}

// TestReplayStrategyStops: ten million realisations of a jittered
// strategy stop when cancelled.
func TestReplayStrategyStops(t *testing.T) {
	smp, _ := paymentsStudy(t)
	st, err := backoff.Parse("exponential(initial=100ms, factor=2, max=20s, jitter=full)")
	if err != nil {
		t.Fatal(err)
	}
	err = cancelAfter(t, 10*time.Millisecond, func(ctx context.Context) error {
		_, err := ReplayStrategySample(ctx, st, smp, ReplayOptions{Horizon: 5 * time.Minute}, 1, MaxStrategyRuns)
		return err
	})
	wantCanceled(t, "replay", err)
}
