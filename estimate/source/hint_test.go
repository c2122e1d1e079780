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
	n := fit.DefaultMinGroupFinal
	h := source.Hint(context.Background(), []string{laneLog(t, n, time.Second, 10*time.Second)}, logs.Options{}, int64(2*n))
	if h == nil || h.Column != "lane" || fmt.Sprint(h.Ages) != "[{a 1} {b 10}]" || h.Status != nil {
		t.Errorf("1 s and 10 s: %+v", h)
	}
	if h := source.Hint(context.Background(), []string{laneLog(t, n, 2*time.Second, 5*time.Second)}, logs.Options{}, int64(2*n)); h != nil {
		t.Errorf("2 s and 5 s: hint %+v", h)
	}
	if h := source.Hint(context.Background(), []string{laneLog(t, n-1, time.Second, 10*time.Second)}, logs.Options{}, int64(2*n)); h != nil {
		t.Errorf("%d answers a lane: hint %+v", n-1, h)
	}
}

// TestHintStatusWords: a column whose default status words (COMPLETED
// x3, DECLINED x1: 4 of 6 rows) cover half the rows or more is named as
// a status column, with its other value; given as the status column it
// is not; a column with status words on 2 of 6 rows is not named.
func TestHintStatusWords(t *testing.T) {
	const head = "id,started,finished,state\n"
	rows := []string{"2026-01-01T00:00:00Z,2026-01-01T00:00:04Z", "2026-01-01T00:00:01Z,2026-01-01T00:00:09Z",
		"2026-01-01T00:00:02Z,2026-01-01T00:00:30Z", "2026-01-01T00:00:03Z,2026-01-01T00:00:05Z",
		"2026-01-01T00:00:04Z,", "2026-01-01T00:00:05Z,"}
	csv := func(name string, vals ...string) string {
		var b strings.Builder
		b.WriteString(head)
		for i, r := range rows {
			fmt.Fprintf(&b, "%d,%s,%s\n", i+1, r, vals[i])
		}
		return writeFile(t, name, b.String())
	}
	opt := logs.Options{CreatedCol: "started", SettledCol: "finished"}
	words := csv("words.csv", "COMPLETED", "COMPLETED", "DECLINED", "COMPLETED", "AWAITING_PSP", "AWAITING_PSP")
	h := source.Hint(context.Background(), []string{words}, opt, 6)
	if h == nil || h.Column != "state" || fmt.Sprint(h.Status, h.Other) != "[COMPLETED DECLINED] [AWAITING_PSP]" {
		t.Errorf("status words: %+v", h)
	}
	given := opt
	given.StatusCol, given.PendingStatus = "state", []string{"AWAITING_PSP"}
	if h := source.Hint(context.Background(), []string{words}, given, 6); h != nil {
		t.Errorf("--status-col given: %+v", h)
	}
	few := csv("few.csv", "done", "blue", "done", "red", "green", "green")
	if h := source.Hint(context.Background(), []string{few}, opt, 6); h != nil {
		t.Errorf("2 of 6 rows status words: %+v", h)
	}
}
