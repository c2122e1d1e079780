package fit

import (
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
)

// limitByAge is LimitLabel's word for a limit that schedules beside it may
// beat, asking by the wall clock or resetting on signal.
const limitByAge = "by age"

// LimitLabel is the one label of the limit's row or column, in fit's
// table, frontier's, the report's and --json's names: "limit", with in
// brackets what it is bounded to. "by age" when one of the schedules
// beside it (scheds: the fitted ones and the baselines) resets on signal
// or asks by the wall clock, which the limit does not, so that they may
// beat it; the budget's kind when it is not requests per item
// ("asks-by budget", "max-attempts budget", "price budget"), under which
// it is the optimum; and "a bound, not a schedule" when it is a
// Lagrangian bound rather than a schedule that could be shipped. For
// example "limit", "limit (by age)", "limit (asks-by budget)", "limit
// (by age, max-attempts budget; a bound, not a schedule)".
func LimitLabel(kind BudgetKind, bound bool, scheds ...*schedule.Schedule) string {
	var parts []string
	for _, s := range scheds {
		if s != nil && (s.ResetOnSignal || len(s.Aligned) > 0) {
			parts = append(parts, limitByAge)
			break
		}
	}
	if kind != BudgetRequests && kind != BudgetNone {
		parts = append(parts, kind.String()+" budget")
	}
	label := "limit"
	if len(parts) > 0 {
		label += " (" + strings.Join(parts, ", ")
		if bound {
			label += "; a bound, not a schedule"
		}
		return label + ")"
	}
	if bound {
		label += " (a bound, not a schedule)"
	}
	return label
}
