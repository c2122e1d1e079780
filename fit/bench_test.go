package fit

import (
	"context"
	"testing"
	"time"
)

// BenchmarkFit1M fits a 4-clause schedule to a million-item log, after
// reading (the items are generated before the timer starts).
func BenchmarkFit1M(b *testing.B) {
	items := payments(1_000_000, 1)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Fit(items, Options{Budget: Budget{RequestsPerItem: 10}, Horizon: 15 * time.Minute}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFrontier50 sweeps 50 budgets on the payments model.
func BenchmarkFrontier50(b *testing.B) {
	m := mustModel(b, paymentsModel)
	budgets := geometric(3, 40, 50)
	for b.Loop() {
		if _, _, err := StudyFrontier(context.Background(), Sample{}, nil, m, StudyOptions{Options: Options{Horizon: 15 * time.Minute}}, budgets); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFrontier50Log sweeps 50 budgets on a million-item log.
func BenchmarkFrontier50Log(b *testing.B) {
	items := payments(1_000_000, 1)
	budgets := geometric(3, 40, 50)
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := StudyFrontier(context.Background(), ItemSample(items), nil, nil, StudyOptions{Options: Options{Horizon: 15 * time.Minute}}, budgets); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOptimalModel fits the payments model at a requests budget.
func BenchmarkOptimalModel(b *testing.B) {
	m := mustModel(b, paymentsModel)
	for b.Loop() {
		if _, err := Optimal(m, Options{Budget: Budget{RequestsPerItem: 10}, Horizon: 15 * time.Minute}); err != nil {
			b.Fatal(err)
		}
	}
}
