package fit

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestStudyGroupsProgress: a group study tells Progress the one
// schedule's stages, prefixed (those it reaches before the values'
// curves start beside it), then the values' cost curves and fits
// counted from 0 to the number of values, each count once and in order.
func TestStudyGroupsProgress(t *testing.T) {
	t.Parallel()
	segs := methodGroups(900, 3)
	var got []string
	// The stages, not the shapes: none searched for.
	opt := GroupOptions{StudyOptions: StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 6}}, Holdout: 0.3, Seed: 1, NoDeadlines: true, NoBatches: true,
		Progress: func(s string) { got = append(got, s) }}, MinFinal: 50}
	res, err := StudyGroups(context.Background(), nil, segs, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || strings.HasPrefix(got[0], "the one schedule: ") && got[0] != "the one schedule: fitting" {
		t.Fatalf("stages %q: want the one schedule's fitting first, if any of its stages", got)
	}
	own := 0
	for _, f := range res.Groups {
		if !f.Fallback {
			own++
		}
	}
	var want []string
	for _, c := range []struct {
		what string
		n    int
	}{{"the values' cost curves", own}, {"values fitted", len(segs)}} {
		for k := 0; k <= c.n; k++ {
			want = append(want, fmt.Sprintf("%s: %d of %d", c.what, k, c.n))
		}
	}
	i := slices.IndexFunc(got, func(s string) bool { return !strings.HasPrefix(s, "the one schedule: ") })
	if i < 0 || !slices.Equal(got[i:], want) {
		t.Errorf("stages after the one schedule's %q,\nwant %q", got[max(i, 0):], want)
	}
}
