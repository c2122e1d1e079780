package main

import (
	"fmt"
	"math"

	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// decisionText is one group's decision under --by: what shipping its
// schedule (row fitted) changes against another (row against, on the
// same held-out items): requests per item and mean lag, each with its
// 95% interval when the study bootstrapped one.
func decisionText(by, value string, fitted, against fit.Row) string {
	return fmt.Sprintf("%s %s: shipping its schedule instead of %s: %s per item (%s vs %s) at %s (%s vs %s)",
		by, segmentName(value), against.Name,
		fit.FormatRequestsChange(fitted.RequestsPerItem/against.RequestsPerItem-1, noCI),
		withCI(fmt.Sprintf("%.2f", fitted.RequestsPerItem), fitted.RequestsCI, func(x float64) string { return fmt.Sprintf("%.2f", x) }),
		withCI(fmt.Sprintf("%.2f", against.RequestsPerItem), against.RequestsCI, func(x float64) string { return fmt.Sprintf("%.2f", x) }),
		fit.FormatLagChange(fitted.Lag.Mean/against.Lag.Mean-1, noCI),
		withCI(schedule.FormatAge(fitted.Lag.Mean), fitted.LagCI, schedule.FormatAge),
		withCI(schedule.FormatAge(against.Lag.Mean), against.LagCI, schedule.FormatAge))
}

// noCI is the interval of a change the study did not bootstrap.
var noCI = fit.Interval{math.NaN(), math.NaN()}

// withCI is x with its interval in brackets, when there is one.
func withCI(x string, ci fit.Interval, f func(float64) string) string {
	if ci[0] == 0 && ci[1] == 0 || math.IsNaN(ci[0]) || math.IsNaN(ci[1]) {
		return x
	}
	return fmt.Sprintf("%s [%s, %s]", x, f(ci[0]), f(ci[1]))
}
