package fit

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
)

// TestGroupCurvesInChunks: groups whose rows are too many to keep every
// group's study (keptCurveRows) have their curves fitted a few groups at
// a time and their own studies started afresh, and find the same
// allocation, schedules and figures as when every study is kept.
func TestGroupCurvesInChunks(t *testing.T) {
	var segs []Group // eight groups: each method's items split in two
	for _, g := range methodGroups(6000, 3) {
		var odd, even Group
		odd.Value, even.Value = g.Value+" odd", g.Value+" even"
		for i, it := range g.Sample.Items {
			h := &even
			if i%2 == 1 {
				h = &odd
			}
			h.Sample.Items = append(h.Sample.Items, it)
		}
		segs = append(segs, odd, even)
	}
	opt := GroupOptions{StudyOptions: StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 8}}, Holdout: 0.3, Seed: 1, Bootstrap: 20}}
	run := func(kept int) *GroupStudy {
		t.Helper()
		old := keptCurveRows
		keptCurveRows = kept
		defer func() { keptCurveRows = old }()
		one := make([]Sample, len(segs))
		for i := range one {
			one[i] = segs[i].Sample
		}
		if chunk, keep := curveGroups(one, one); (kept == 0) == keep || (!keep && chunk >= len(segs)) {
			t.Fatalf("kept %d rows: chunks of %d (of %d groups), keep %v", kept, chunk, len(segs), keep)
		}
		s, err := StudyGroups(context.Background(), nil, segs, opt)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	kept, chunked := run(1<<30), run(0)
	if !reflect.DeepEqual(kept.Allocation, chunked.Allocation) || kept.Total != chunked.Total {
		t.Fatalf("allocation %+v total %+v, in chunks %+v total %+v", kept.Allocation, kept.Total, chunked.Allocation, chunked.Total)
	}
	for i, f := range kept.Groups {
		g := chunked.Groups[i]
		if f.Schedule.String() != g.Schedule.String() || !reflect.DeepEqual(f.Row, g.Row) || f.Budget != g.Budget {
			t.Errorf("group %s: %s, %+v; in chunks %s, %+v", f.Value, f.Schedule, f.Row, g.Schedule, g.Row)
		}
	}
}

// TestSharedBesideCurvesError: the shared schedule's study runs beside
// the groups' curves; when it fails, its error is the one returned, as
// when the two ran in turn, not the curves' stop it causes.
func TestSharedBesideCurvesError(t *testing.T) {
	segs := methodGroups(3000, 5)
	all := ItemSample([]estimate.Item{}) // no items: nothing to fit the shared schedule on
	opt := GroupOptions{StudyOptions: StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 8}}, Holdout: 0.3, Seed: 1}}
	_, err := StudyGroups(context.Background(), &all, segs, opt)
	if err == nil || !strings.HasPrefix(err.Error(), "the shared schedule: ") || strings.Contains(err.Error(), "canceled") {
		t.Fatalf("error %v, want the shared schedule's own", err)
	}
	_, alone := Study(context.Background(), all, &HeldOut{Sample: all, Holdout: 0.3, Seed: 1}, opt.StudyOptions)
	if alone == nil || err.Error() != "the shared schedule: "+alone.Error() {
		t.Errorf("error %v, want the shared schedule's study's own: %v", err, alone)
	}
}
