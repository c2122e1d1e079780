package fit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// One label rule for the limit, written out by hand for each case: "by
// age" only when a schedule beside it asks otherwise than by age, the
// budget's kind when it is not requests per item, and "a bound, not a
// schedule" when it is one. Before, frontier called the limit "limit (by
// age)" on every log while fit said "limit", and fit named no budget
// kind.
func TestLimitLabel(t *testing.T) {
	byAge, _ := schedule.Parse("1s until 1m")
	signal, _ := schedule.Parse("1s until 1m, reset on signal")
	aligned, _ := schedule.Parse("10s until 5m, every 5m at +3s until 5m")
	for _, c := range []struct {
		kind   BudgetKind
		bound  bool
		scheds []*schedule.Schedule
		want   string
	}{
		{BudgetRequests, false, []*schedule.Schedule{byAge}, "limit"},
		{BudgetRequests, false, nil, "limit"},
		{BudgetRequests, false, []*schedule.Schedule{byAge, signal}, "limit (by age)"},
		{BudgetRequests, false, []*schedule.Schedule{aligned}, "limit (by age)"},
		{BudgetAsksBy, false, []*schedule.Schedule{byAge}, "limit (asks-by budget)"},
		{BudgetMaxAttempts, true, []*schedule.Schedule{byAge}, "limit (max-attempts budget; a bound, not a schedule)"},
		{BudgetPrice, false, []*schedule.Schedule{signal}, "limit (by age, price budget)"},
	} {
		if got := LimitLabel(c.kind, c.bound, c.scheds...); got != c.want {
			t.Errorf("LimitLabel(%s, %v, %d schedules) = %q, want %q", c.kind, c.bound, len(c.scheds), got, c.want)
		}
	}
	var pts []FrontierPoint
	if got := FrontierLimitLabel(pts); got != "limit" {
		t.Errorf("an empty frontier's limit is %q", got)
	}
	pts = []FrontierPoint{{LimitName: "limit"}, {LimitName: "limit (by age)"}, {LimitName: "limit"}}
	if got := FrontierLimitLabel(pts); got != "limit (by age)" {
		t.Errorf("a frontier with a signal fit at one budget labels its limit %q", got)
	}
}

// The give-up line counts the answers of the fitting items (the give-up
// age is chosen without the held-out ones) and says so. Worked by hand:
// 200 fitting items answer at 0.05 s, 0.10 s, ..., 10 s and one at 500
// s, so 200 of 201 answers (99.50%) land by 10 s, and 200/201 < 99% of
// none of the smaller nice ages (5 s holds 100, 49.8%); the 100 held-out
// items all answer by 1 s, which must not enter. Before, the reason said
// "99.5% of answers land by then" beside a table of held-out figures.
func TestGiveUpNamesItsSet(t *testing.T) {
	var train, test Sample
	for i := 1; i <= 200; i++ {
		train.Items = append(train.Items, estimate.Item{Age: 0.05 * float64(i), Status: estimate.Settled})
	}
	train.Items = append(train.Items, estimate.Item{Age: 500, Status: estimate.Settled})
	for i := 1; i <= 100; i++ {
		test.Items = append(test.Items, estimate.Item{Age: 0.01 * float64(i), Status: estimate.Settled})
	}
	res, err := Study(context.Background(), train, &HeldOut{Sample: test}, StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 6}}})
	if err != nil {
		t.Fatal(err)
	}
	g := res.GiveUp
	if g.Age != 10*time.Second || g.Of != "the fitting items" || g.Reason != "99.5% of the fitting items' answers land by then" {
		t.Errorf("give up %s, share %.4f of %q; want 10s, 99.5%% of the fitting items' answers", g, g.Share, g.Of)
	}
	if want := 200.0 / 201; g.Share < want-1e-9 || g.Share > want+1e-9 {
		t.Errorf("share %.6f, want 200/201 = %.6f", g.Share, want)
	}
	if !strings.Contains(g.String(), "fitting items") {
		t.Errorf("String() %q does not name the set", g)
	}
}
