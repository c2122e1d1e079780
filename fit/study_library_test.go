package fit

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
)

// The library family's member is at least as good, on the fitting items
// within the budget and the stuck cap, as every member without jitter,
// each worked out here apart from the search: its asks up to the give-up
// age (and one there, where a missed answer is seen at last) replayed.
func TestLibraryFamilyBeatsEveryPlainMember(t *testing.T) {
	items := payments(3000, 31)
	h := 5 * time.Minute
	res, err := Study(context.Background(), ItemSample(items), nil, StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 6}, Horizon: h},
		Holdout: 0.3, Seed: 3, NoSignals: true, Family: "exponential"})
	if err != nil {
		t.Fatal(err)
	}
	lf := res.Library
	if lf == nil {
		t.Fatal("no member fits")
	}
	score := func(b backoff.Backoff) (wait, req, stuck float64) {
		s, err := backoff.Schedule(b, h)
		if err != nil {
			t.Fatal(err)
		}
		asks, err := s.Timeline().Asks(h)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ReplaySample(s, *res.FitOn, ReplayOptions{Horizon: h})
		if err != nil {
			t.Fatal(err)
		}
		if asks[len(asks)-1] < h {
			asks = append(asks, h)
		}
		w, err := ReplaySample(&schedule.Schedule{Clauses: []schedule.Clause{{At: asks}}}, *res.FitOn, ReplayOptions{Horizon: h})
		if err != nil {
			t.Fatal(err)
		}
		return w.Lag.Mean, m.RequestsPerItem, AsksBy(s, h)
	}
	best, bestB := math.Inf(1), backoff.Backoff{}
	for _, b := range libraryMembers("exponential", backoff.Jitter{}) {
		if !b.Deterministic() {
			continue
		}
		if w, req, stuck := score(b); req <= 6 && stuck <= float64(res.StuckCap) && w < best {
			best, bestB = w, b
		}
	}
	if lf.Strategy.Deterministic() {
		if w, _, _ := score(lf.Strategy); w > best+1e-12 {
			t.Errorf("search chose %s (%.4gs) over %s (%.4gs)", lf.Strategy, w, bestB, best)
		}
	}
	t.Logf("chosen %s; best plain %s %.4gs; held out: %.4gs, wait %.4gs, %.3f req", lf.Strategy, bestB, best, lf.Fitted.Lag.Mean, lf.WaitLag, lf.Fitted.RequestsPerItem)
	if lf.WaitLag < lf.Fitted.Lag.Mean-1e-12 {
		t.Errorf("the wait with missed answers %.4g is below the lag over seen ones %.4g", lf.WaitLag, lf.Fitted.Lag.Mean)
	}
}

// gRPC's members have the client's jitter, a cap and 2 to 5 attempts.
func TestLibraryFamilyGRPCMembers(t *testing.T) {
	for _, j := range []backoff.Jitter{backoff.GRPC, {Kind: backoff.Full}} {
		ms := libraryMembers("grpc", j)
		if len(ms) == 0 {
			t.Fatal("no members")
		}
		for _, b := range ms {
			if b.Jitter != j || b.Max <= 0 || b.Attempts < 2 || b.Attempts > 5 || b.Kind != backoff.Exponential {
				t.Fatalf("member %s is not a gRPC retry policy with jitter %s", b, j)
			}
		}
	}
}
