package fit

import (
	"context"
	"testing"
)

// A group that comes split with every row in its held-out part (a
// small group whose rows all hashed to one side) is fitted and measured
// on all its rows, as one too small to hold out is: its fitting items
// are its 300 rows, none dropped.
func TestStudyGroupsSplitAllHeldOut(t *testing.T) {
	t.Parallel()
	a, b := payments(900, 3), payments(300, 4)
	fitA, heldA := SplitSample(ItemSample(a), 0.3, 1)
	segs := []Group{
		{Value: "a", Sample: fitA, HeldOut: &HeldOut{Sample: heldA, Holdout: 0.3, Seed: 1}},
		{Value: "b", HeldOut: &HeldOut{Sample: ItemSample(b), Holdout: 0.3, Seed: 1}},
	}
	opt := GroupOptions{StudyOptions: StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 6}}, Holdout: 0.3, Seed: 1,
		NoDeadlines: true, NoBatches: true}, MinFinal: 50}
	res, err := StudyGroups(context.Background(), nil, segs, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Groups[1].Items; got != 300 {
		t.Errorf("group b fitted on %v items, want its 300 rows", got)
	}
	if got := res.Groups[0].Items; got != float64(fitA.Len()) {
		t.Errorf("group a fitted on %v items, want its fitting part's %d", got, fitA.Len())
	}
}
