package fit

import (
	"fmt"
	"math"
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
