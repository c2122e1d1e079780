package fit

import (
	"math"
	"strings"
	"testing"
)

// TestFrontierLimitNote: a frontier whose limit is by age says so, and
// counts the budgets (with both figures) where the fitted schedule waits
// less than the limit, worked by hand; a plain limit says nothing.
func TestFrontierLimitNote(t *testing.T) {
	pt := func(limit, fitted float64, name string) FrontierPoint {
		p := FrontierPoint{LimitName: name, Limit: nanPrediction(), Fitted: nanPrediction()}
		p.Limit.Lag.Mean, p.Fitted.Lag.Mean = limit, fitted
		return p
	}
	byAgeName := LimitLabel(BudgetRequests, false, mustSchedule(t, "every 1m at +5s until 5m"))
	if byAgeName != "limit (by age)" {
		t.Fatalf("label %q", byAgeName)
	}
	pts := []FrontierPoint{pt(10, 8, byAgeName), pt(5, 5.5, byAgeName), pt(2, 1, byAgeName), pt(math.NaN(), 3, byAgeName)}
	got := FrontierLimitNote(pts)
	if !strings.Contains(got, "asks by age alone") || !strings.HasSuffix(got, "(the fitted ones do at 2 of the 3 budgets)") {
		t.Errorf("by age: %q", got)
	}
	pts = []FrontierPoint{pt(10, 11, byAgeName), pt(5, 5.5, byAgeName)}
	if got := FrontierLimitNote(pts); !strings.HasSuffix(got, "and so may beat it") {
		t.Errorf("by age, never beaten: %q", got)
	}
	plain := LimitLabel(BudgetRequests, false)
	if got := FrontierLimitNote([]FrontierPoint{pt(10, 8, plain), pt(5, 4, plain)}); got != "" {
		t.Errorf("a plain limit: %q", got)
	}
}
