package source_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit"
)

// laneLog is a log of n answers in each of two lanes, lane a's all
// after fast, lane b's after slow.
func laneLog(t *testing.T, n int, fast, slow time.Duration) string {
	var b strings.Builder
	b.WriteString("created_at,settled_at,status,lane\n")
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for i := range n {
		c := t0.Add(time.Duration(i) * time.Second)
		fmt.Fprintf(&b, "%s,%s,settled,a\n", c.Format(time.RFC3339), c.Add(fast).Format(time.RFC3339))
		fmt.Fprintf(&b, "%s,%s,settled,b\n", c.Format(time.RFC3339), c.Add(slow).Format(time.RFC3339))
	}
	return writeFile(t, "lanes.csv", b.String())
}

// TestHint: a column whose values' medians are 3 times apart or more,
// each with enough answers, is the hint, fastest first; 2 s against 5 s
// (2.5 times) is not, nor lanes of fewer answers than a group needs.
func TestHint(t *testing.T) {
	n := fit.DefaultMinSegmentFinal
	col, meds := source.Hint(context.Background(), []string{laneLog(t, n, time.Second, 10*time.Second)}, logs.Options{}, int64(2*n))
	if col != "lane" || fmt.Sprint(meds) != "[{a 1} {b 10}]" {
		t.Errorf("1 s and 10 s: %q %v", col, meds)
	}
	if col, _ := source.Hint(context.Background(), []string{laneLog(t, n, 2*time.Second, 5*time.Second)}, logs.Options{}, int64(2*n)); col != "" {
		t.Errorf("2 s and 5 s: hint %q", col)
	}
	if col, _ := source.Hint(context.Background(), []string{laneLog(t, n-1, time.Second, 10*time.Second)}, logs.Options{}, int64(2*n)); col != "" {
		t.Errorf("%d answers a lane: hint %q", n-1, col)
	}
}
