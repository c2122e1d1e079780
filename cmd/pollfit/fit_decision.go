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
	return fmt.Sprintf("%s %s: shipping its schedule instead of %s: %s requests per item (%s vs %s) at %s (%s vs %s)",
		by, segmentName(value), against.Name,
		changeWord(fitted.RequestsPerItem, against.RequestsPerItem, "fewer", "more"),
		withCI(fmt.Sprintf("%.2f", fitted.RequestsPerItem), fitted.RequestsCI, func(x float64) string { return fmt.Sprintf("%.2f", x) }),
		withCI(fmt.Sprintf("%.2f", against.RequestsPerItem), against.RequestsCI, func(x float64) string { return fmt.Sprintf("%.2f", x) }),
		lagWord(fitted.Lag.Mean, against.Lag.Mean),
		withCI(schedule.FormatAge(fitted.Lag.Mean), fitted.LagCI, schedule.FormatAge),
		withCI(schedule.FormatAge(against.Lag.Mean), against.LagCI, schedule.FormatAge))
}

// changeWord is a's change from b as "38.0% fewer" or "12.5% more"
// ("the same" within 0.05%).
func changeWord(a, b float64, less, more string) string {
	d := 100 * (a/b - 1)
	switch {
	case math.IsNaN(d) || math.IsInf(d, 0):
		return "no comparable"
	case math.Abs(d) < 0.05:
		return "the same"
	case d < 0:
		return fmt.Sprintf("%.1f%% %s", -d, less)
	}
	return fmt.Sprintf("%.1f%% %s", d, more)
}

// lagWord is mean lag a against b: "41.2% less mean lag", or for a
// longer wait the ratio, "2.1× the mean lag".
func lagWord(a, b float64) string {
	if a > b && b > 0 {
		return fmt.Sprintf("%.2g× the mean lag", a/b)
	}
	return changeWord(a, b, "less", "more") + " mean lag"
}

// withCI is x with its interval in brackets, when there is one.
func withCI(x string, ci fit.Interval, f func(float64) string) string {
	if ci[0] == 0 && ci[1] == 0 || math.IsNaN(ci[0]) || math.IsNaN(ci[1]) {
		return x
	}
	return fmt.Sprintf("%s [%s, %s]", x, f(ci[0]), f(ci[1]))
}
