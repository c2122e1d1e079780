package fit

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
)

// TestGroupFullOnRequest: the groups' own studies and the shared one
// are whole only with GroupOptions.Full. Without it each limit row is
// NaN and says why, no study has an exact (fit) row, and a study whose
// schedule no deadline burst is placed in has no exact optimum on its
// smoothed density (no cross-validated smoothing); and nothing else
// moves: the same allocation, schedules, rows and intervals, decisions
// and totals. On the segmented model and on realistic logs of several
// channels, some with a timeout whose deadline burst is placed over
// the smoothed optimum.
func TestGroupFullOnRequest(t *testing.T) {
	cases := map[string][]Group{"segmented": methodGroups(4000, 4)}
	for _, seed := range []uint64{2, 5, 9, 14} {
		cases[fmt.Sprintf("realistic %d", seed)] = realisticGroups(t, seed, 8000)
	}
	bursts := 0
	for name, segs := range cases {
		opt := GroupOptions{StudyOptions: StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 8}}, Holdout: 0.3, Seed: 1, Bootstrap: 20}}
		run := func(full bool) *GroupStudy {
			t.Helper()
			o := opt
			o.Full = full
			s, err := StudyGroups(context.Background(), nil, segs, o)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return s
		}
		with, without := run(true), run(false)
		if !reflect.DeepEqual(with.Allocation, without.Allocation) || with.Total != without.Total || with.SharedTotal != without.SharedTotal {
			t.Errorf("%s: allocation %+v, total %+v; without Full %+v, %+v", name, with.Allocation, with.Total, without.Allocation, without.Total)
		}
		if with.Shared.Schedule.String() != without.Shared.Schedule.String() || !reflect.DeepEqual(with.Shared.Fitted, without.Shared.Fitted) {
			t.Errorf("%s: shared %s %+v, without Full %s %+v", name, with.Shared.Schedule, with.Shared.Fitted, without.Shared.Schedule, without.Shared.Fitted)
		}
		checkFull(t, name+": the shared study", with.Shared)
		bursts += checkLean(t, name+": the shared study", without.Shared)
		for i, f := range with.Groups {
			g := without.Groups[i]
			// %+v, not DeepEqual: a decision's NaN intervals are alike.
			if a, b := fmt.Sprintf("%s %+v %+v %+v", f.Schedule, f.Row, f.Against, f.Decision), fmt.Sprintf("%s %+v %+v %+v", g.Schedule, g.Row, g.Against, g.Decision); a != b {
				t.Errorf("%s: group %s: %s,\nwithout Full %s", name, f.Value, a, b)
			}
			if f.Study == nil || g.Study == nil {
				continue // a fallback has no study of its own
			}
			checkFull(t, name+": group "+f.Value, f.Study)
			bursts += checkLean(t, name+": group "+f.Value, g.Study)
		}
	}
	if bursts == 0 {
		t.Error("no lean study placed a deadline burst over its smoothed optimum: the case where it must still be made is untried")
	}
}

// checkFull checks a whole study's limit and exact (fit) rows.
func checkFull(t *testing.T, name string, r *StudyResult) {
	t.Helper()
	if l := r.Limit; math.IsNaN(l.Lag.Mean) || !(l.RequestsPerItem > 0) || r.LimitNote == groupNoLimit {
		t.Errorf("%s with Full: limit %+v, note %q", name, l, r.LimitNote)
	}
	if r.ExactFit == nil {
		t.Errorf("%s with Full: no exact (fit) row", name)
	}
}

// checkLean checks what a lean study leaves out, and returns 1 when its
// schedule holds a deadline burst placed over its smoothed optimum.
func checkLean(t *testing.T, name string, r *StudyResult) int {
	t.Helper()
	if l := r.Limit; !math.IsNaN(l.Lag.Mean) || r.LimitNote != groupNoLimit {
		t.Errorf("%s without Full: limit %+v, note %q", name, l, r.LimitNote)
	}
	if r.ExactFit != nil {
		t.Errorf("%s without Full: an exact (fit) row %+v", name, r.ExactFit)
	}
	if len(r.Shapes.Deadlines) > 0 {
		return 1 // the smoothed optimum was made, and the schedules matched
	}
	if r.Smoothing != nil && r.Smoothing.Rule == SmoothCrossValidated {
		t.Errorf("%s without Full: the smoothing was cross-validated, for no deadline burst", name)
	}
	return 0
}

// realisticGroups are the channels of the realistic log of seed with
// rows rows, read as pollfit reads it, in the order they first come.
func realisticGroups(t *testing.T, seed uint64, rows int) []Group {
	t.Helper()
	path := filepath.Join(t.TempDir(), "own.csv")
	if _, err := writeRealistic(t, path, seed, rows); err != nil {
		t.Fatal(err)
	}
	var segs []Group
	_, err := logs.EachBy([]string{path}, realisticRead, func(it estimate.Item, _ float64, k int, v string) {
		if k == len(segs) {
			segs = append(segs, Group{Value: v})
		}
		segs[k].Sample.Items = append(segs[k].Sample.Items, it)
	})
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	return segs
}
