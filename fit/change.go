package fit

import (
	"fmt"
	"math"
	"strings"
)

// FormatChange describes a relative change d (new/old − 1) in words:
// "12.3% less", "4.0% more", "the same" within 0.05%, and "no
// comparable" when d is not a number (an old value of zero, or none).
// It is the one change formatter of pollfit's text, JSON notes and
// report.
func FormatChange(d float64) string {
	p := 100 * d
	switch {
	case math.IsNaN(p) || math.IsInf(p, 0):
		return "no comparable"
	case math.Abs(p) < 0.05:
		return "the same"
	case p < 0:
		return fmt.Sprintf("%.1f%% less", -p)
	}
	return fmt.Sprintf("%.1f%% more", p)
}

// formatChangeCI writes ci, an interval of a relative change d, in the
// sense FormatChange words d: a reduction's interval for "less" (the
// bounds negated and swapped, so "8.9% less" reads "[5.3%, 11.5%]"), an
// increase's for "more", the signed change's for "the same"; "" when no
// interval was computed.
func formatChangeCI(d float64, ci Interval) string {
	if math.IsNaN(ci[0]) || math.IsNaN(ci[1]) {
		return ""
	}
	switch w := FormatChange(d); {
	case w == "the same":
		return fmt.Sprintf(" [%+.1f%%, %+.1f%%]", 100*ci[0], 100*ci[1])
	case d < 0:
		return fmt.Sprintf(" [%.1f%%, %.1f%%]", -100*ci[1], -100*ci[0])
	}
	return fmt.Sprintf(" [%.1f%%, %.1f%%]", 100*ci[0], 100*ci[1])
}

// LagChange is the comparison in one phrase: the fit's mean lag at the
// baseline's cost against the baseline's, with its 95% interval when
// one was bootstrapped, e.g. "8.9% less mean lag [5.3%, 11.5%]". A
// bound of a "less" interval below zero reads as more lag.
func (c Comparison) LagChange() string {
	return FormatChange(c.Change) + " mean lag" + formatChangeCI(c.Change, c.ChangeCI)
}

// AtSameCost reports whether the comparison is read at the baseline's
// held-out cost: the two spend the same to 0.5%, or the lag is
// interpolated between fits either side of it.
func (c Comparison) AtSameCost() bool { return c.SameCost || c.Interpolated }

// Changes is the comparison's changes in one phrase: the lag change at
// the same cost ("8.9% less mean lag [5.3%, 11.5%]"), or where the
// costs differ both ("7.6% fewer requests and 8.8% less mean lag
// [..]"), the requests first.
func (c Comparison) Changes() string {
	if c.AtSameCost() {
		return c.LagChange()
	}
	return FormatRequestsChange(c.RequestsChange, noInterval) + " and " + c.LagChange()
}

// Decision is what shipping the fitted schedule changes against today's
// schedule (the first baseline), both measured on the held-out items to
// the give-up age: the relative changes of the requests per item and of
// the mean lag (new/old − 1, at least −1), each with its 95% bootstrap
// interval (NaN without a bootstrap), read so that it contains the
// change. Under StudyGroups each group has one, Group naming it
// ("method card"), weighed on the group's held-out items against its
// first baseline, or without one the one schedule for all.
type Decision struct {
	Group                     string
	Against                   string
	RequestsChange, LagChange float64
	RequestsCI, LagCI         Interval
}

// decisionOf is the decision of shipping fitted instead of against,
// both rows measured on the same items, without intervals.
func decisionOf(fitted, against Row) Decision {
	return Decision{Against: against.Name, RequestsChange: relChange(fitted.RequestsPerItem, against.RequestsPerItem),
		LagChange: relChange(fitted.Lag.Mean, against.Lag.Mean), RequestsCI: noInterval, LagCI: noInterval}
}

// String is the decision in one sentence, the one pollfit's text,
// --json and report print, e.g. "shipping fitted vs now: 60.4% fewer
// requests [58.1%, 62.5%] and 2.1× the mean lag [1.9×, 2.3×]", or a
// group's "method card: shipping fitted vs now: ...".
func (d Decision) String() string {
	s := fmt.Sprintf("shipping fitted vs %s: %s and %s", d.Against, FormatRequestsChange(d.RequestsChange, d.RequestsCI), FormatLagChange(d.LagChange, d.LagCI))
	if d.Group != "" {
		s = d.Group + ": " + s
	}
	return s
}

// FormatRequestsChange words a relative change of requests per item
// with its interval: "7.6% fewer requests [5.0%, 9.9%]", "4.0% more
// requests", "the same requests".
func FormatRequestsChange(d float64, ci Interval) string {
	w := FormatChange(d)
	if d < 0 && w != "the same" {
		w = strings.Replace(w, "less", "fewer", 1)
	}
	return w + " requests" + formatChangeCI(d, ci)
}

// FormatLagChange words a relative change of the mean lag with its
// interval: "8.8% less mean lag [5.3%, 11.5%]"; at twice the old lag
// or more, as a multiple, "2.1× the mean lag [1.9×, 2.3×]".
func FormatLagChange(d float64, ci Interval) string {
	if d >= 1 {
		s := fmt.Sprintf("%.1f× the mean lag", 1+d)
		if !math.IsNaN(ci[0]) && !math.IsNaN(ci[1]) {
			s += fmt.Sprintf(" [%.1f×, %.1f×]", 1+ci[0], 1+ci[1])
		}
		return s
	}
	return FormatChange(d) + " mean lag" + formatChangeCI(d, ci)
}
