package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/fitjson"
)

// TestFitJSONFirstAsk: fit --json's first_ask on a tiny log, counted by
// hand. Eighteen items settle at the ages below and one is still
// pending; measured on the fitting items themselves (--holdout 0), the
// first ask at --first-ask 5s sees the five answers at 1s, 2s, 3s, 4s
// and 5s (one at exactly 5s counts) of the 19 items: 5/19.
func TestFitJSONFirstAsk(t *testing.T) {
	ages := []int{1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 90, 120}
	var b strings.Builder
	b.WriteString("created_at,settled_at,status\n")
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, a := range ages {
		c := t0.Add(time.Duration(i) * time.Minute)
		fmt.Fprintf(&b, "%s,%s,settled\n", c.Format(time.RFC3339), c.Add(time.Duration(a)*time.Second).Format(time.RFC3339))
	}
	fmt.Fprintf(&b, "%s,,pending\n", t0.Add(30*time.Minute).Format(time.RFC3339))
	log := filepath.Join(t.TempDir(), "tiny.csv")
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var doc fitjson.Fit
	out := mustRun(t, "fit", "-q", "--json", "--holdout", "0", "--requests-per-item", "4", "--first-ask", "5s", log)
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	fa := doc.FirstAsk
	if fa.Age == nil || *fa.Age != 5 || fa.SeenShare == nil || *fa.SeenShare != 5.0/19 {
		t.Errorf("first_ask %s, want age_s 5 and seen_share 5/19", out[:min(len(out), 300)])
	}
	if !strings.HasPrefix(doc.Schedule, "at 5s") {
		t.Errorf("schedule %q does not ask first at 5s", doc.Schedule)
	}
}
