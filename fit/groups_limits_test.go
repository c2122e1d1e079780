package fit

import (
	"context"
	"math"
	"reflect"
	"testing"
)

// TestGroupLimitsOnRequest: the groups' own studies and the shared one
// compute their limits only with GroupOptions.Limits; without it each
// limit row is NaN and says why, and nothing else moves: the same
// allocation, schedules and rows, the shared schedule and its row.
func TestGroupLimitsOnRequest(t *testing.T) {
	segs := methodGroups(4000, 4)
	opt := GroupOptions{StudyOptions: StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 8}}, Holdout: 0.3, Seed: 1}}
	run := func(limits bool) *GroupStudy {
		t.Helper()
		o := opt
		o.Limits = limits
		s, err := StudyGroups(context.Background(), nil, segs, o)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	with, without := run(true), run(false)
	if !reflect.DeepEqual(with.Allocation, without.Allocation) || with.Total != without.Total {
		t.Fatalf("allocation %+v, without limits %+v", with.Allocation, without.Allocation)
	}
	if l := with.Shared.Limit; math.IsNaN(l.Lag.Mean) || !(l.RequestsPerItem > 0) {
		t.Errorf("the shared study's limit %+v", l)
	}
	if l := without.Shared.Limit; !math.IsNaN(l.Lag.Mean) || without.Shared.LimitNote != groupNoLimit {
		t.Errorf("the shared study's limit without limits: %+v, note %q", l, without.Shared.LimitNote)
	}
	if with.Shared.Schedule.String() != without.Shared.Schedule.String() || !reflect.DeepEqual(with.Shared.Fitted, without.Shared.Fitted) {
		t.Errorf("shared %s %+v, without limits %s %+v", with.Shared.Schedule, with.Shared.Fitted, without.Shared.Schedule, without.Shared.Fitted)
	}
	for i, f := range with.Groups {
		g := without.Groups[i]
		if f.Study == nil || g.Study == nil {
			continue // a fallback has no study of its own
		}
		if f.Schedule.String() != g.Schedule.String() || !reflect.DeepEqual(f.Row, g.Row) {
			t.Errorf("group %s: %s %+v, without limits %s %+v", f.Value, f.Schedule, f.Row, g.Schedule, g.Row)
		}
		if l := f.Study.Limit; math.IsNaN(l.Lag.Mean) || !(l.RequestsPerItem > 0) || f.Study.LimitNote == groupNoLimit {
			t.Errorf("group %s with limits: limit %+v, note %q", f.Value, l, f.Study.LimitNote)
		}
		if l := g.Study.Limit; !math.IsNaN(l.Lag.Mean) || g.Study.LimitNote != groupNoLimit {
			t.Errorf("group %s without limits: limit %+v, note %q", g.Value, l, g.Study.LimitNote)
		}
	}
}
