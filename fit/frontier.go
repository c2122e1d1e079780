package fit

import (
	"fmt"
	"math"
	"strings"
)

// FrontierPoint is the lag each kind of schedule achieves at one cost,
// measured on the held-out items (or the model) to the give-up age (see
// StudyFrontier). Lags are means over detected items, in seconds; NaN
// when no schedule of that kind fits the budget.
type FrontierPoint struct {
	// RequestsPerItem is the budget.
	RequestsPerItem float64
	// Limit is the hindsight optimum at the budget, asking by age (on a
	// model, on a grid of candidate ages), and LimitName its label there
	// (LimitLabel: "limit (by age)" when the fitted schedule or a
	// baseline resets on signal or asks by the wall clock).
	Limit     Prediction
	LimitName string
	// Fitted is what Study ships at the budget, measured, and Schedule
	// its text.
	Fitted   Prediction
	Schedule string
	// Clauses is what Schedule counts against the clause cap
	// (ClauseCount, with the study's deadlines and the fit's give-up
	// age; 0 where nothing fits).
	Clauses int
	// Fixed asks every FixedInterval seconds.
	Fixed         Prediction
	FixedInterval float64
	// Backoff doubles the gap after each ask, from BackoffBase seconds.
	Backoff     Prediction
	BackoffBase float64
	// Jitter is Backoff with full jitter (each gap uniform between 0 and
	// the doubled gap), averaged over 100 seeded draws, from JitterBase seconds.
	Jitter     Prediction
	JitterBase float64
	// Gain is the mean lag, in seconds, one more request per item buys
	// past this budget on the fitted schedules' curve (NaN at the last
	// budget); Knee marks the first budget from which on that is less
	// than KneeShare of the lag at every budget (see Knee).
	Gain float64
	Knee bool
}

// jitterDraws is the number of Monte Carlo draws of jittered schedules.
const jitterDraws = 100

func nanPrediction() Prediction {
	n := math.NaN()
	return Prediction{Lag: LagStats{n, n, n, n, n, n}, RMSLag: n, RequestsPerItem: n, Detected: n}
}

// FrontierLimitLabel is the label of a frontier table's limit column:
// "limit", or the points' "limit (by age)" when it is so at any budget
// (a frontier's budgets are all requests per item).
func FrontierLimitLabel(pts []FrontierPoint) string {
	label := LimitLabel(BudgetRequests, false)
	for _, p := range pts {
		if p.LimitName != "" && p.LimitName != label {
			return p.LimitName
		}
	}
	return label
}

// FrontierLimitNote is what a frontier's limit is and does not cover,
// when its label says "by age" (FrontierLimitLabel): the schedules that
// ask by the wall clock or reset on signal, which may beat it, and at
// how many budgets the fitted ones do; "" for a limit no schedule beside
// it can beat. pollfit frontier prints it under the table, after the
// label, and the report in its picture's text.
func FrontierLimitNote(pts []FrontierPoint) string {
	if !strings.Contains(FrontierLimitLabel(pts), limitByAge) {
		return ""
	}
	beat, n := 0, 0
	for _, p := range pts {
		if math.IsNaN(p.Limit.Lag.Mean) || math.IsNaN(p.Fitted.Lag.Mean) {
			continue
		}
		n++
		if p.Fitted.Lag.Mean < p.Limit.Lag.Mean {
			beat++
		}
	}
	s := "the least mean lag at each budget of a schedule that asks by age alone; schedules here also ask by the wall clock or reset on signal, which it does not cover, and so may beat it"
	if beat > 0 {
		s += fmt.Sprintf(" (the fitted ones do at %d of the %d budgets)", beat, n)
	}
	return s
}
