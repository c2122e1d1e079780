package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
)

// spreadAge formats a deadline's age and spread, the age to the spread's
// second significant digit: "60.0s ± 1.5s", "60.015s ± 0.023s"; an exact
// atom (spread under 0.5 ms) to four significant digits, "60.01s". It is
// not schedule.FormatAge, whose three digits would hide where an exact
// timeout sits: its precision is the measurement's.
func spreadAge(sec, spread float64) string {
	if !(spread >= 5e-4) {
		return strconv.FormatFloat(sec, 'g', 4, 64) + "s"
	}
	dec := max(0, 1-int(math.Floor(math.Log10(spread))))
	return strconv.FormatFloat(sec, 'f', dec, 64) + "s ± " + strconv.FormatFloat(spread, 'f', dec, 64) + "s"
}

// ciEnd formats an end of a quantile's interval, "?" where the band
// never reaches the quantile.
func ciEnd(v *float64) string {
	if v == nil {
		return "?"
	}
	return schedule.FormatAge(*v)
}

func (sum *summary) writeText(w io.Writer) error {
	r := &sum.report
	var b strings.Builder
	fmt.Fprintf(&b, "items:        %d: %d final (%.0f settled, %.0f failed), %d pending", r.Items, r.Final, r.Settled, r.Failed, r.Pending)
	if r.Skipped > 0 {
		fmt.Fprintf(&b, ", %d rows skipped", r.Skipped)
	}
	fmt.Fprintf(&b, "\nnever:        %s with no final answer by the last observed age\n", share(r.Never))
	b.WriteString("quantiles:    (of all items, an item that never answers counted as never reaching one; Kaplan–Meier, 95% interval)\n")
	for _, q := range sum.qs {
		k := quantileKey(q)
		if v := r.Quantiles[k]; v != nil {
			ci := r.QuantileCI[k]
			fmt.Fprintf(&b, "  %-6s %-22s [%s, %s]\n", k, schedule.FormatAge(*v), ciEnd(ci[0]), ciEnd(ci[1]))
		} else {
			fmt.Fprintf(&b, "  %-6s not reached\n", k)
		}
	}
	b.WriteString("survival:     (share still waiting, 95% interval)\n")
	for _, k := range sum.atKeys {
		ci := sum.ci[k]
		fmt.Fprintf(&b, "  S(%s) %.4f [%.4f, %.4f]\n", k, r.Survival[k], ci[0], ci[1])
	}
	b.WriteString("modes:       ")
	for _, m := range r.Modes {
		fmt.Fprintf(&b, " %s", schedule.FormatAge(m))
	}
	if len(r.Modes) == 0 {
		b.WriteString(" none")
	}
	b.WriteString("\ndeadlines:   ")
	for _, d := range r.Deadlines {
		fmt.Fprintf(&b, " %s holding %s of items", spreadAge(d.Age, d.Spread), share(d.Share))
		if d.Failed != nil {
			fmt.Fprintf(&b, " (%.0f%% failures)", 100**d.Failed)
		}
	}
	if len(r.Deadlines) == 0 {
		b.WriteString(" none")
	}
	b.WriteString("\nperiodicity:  ")
	if p := r.Period; p != nil {
		pv := fmt.Sprintf("p = %.2g", p.PValue)
		if p.PValue < 1e-300 {
			pv = "p < 1e-300"
		}
		fmt.Fprintf(&b, "every %s, answers %s after the boundary, %s of final answers (%s)",
			schedule.FormatAge(p.Period), schedule.FormatAge(p.Phase), share(p.Share), pv)
	} else if !r.PeriodTested {
		b.WriteString("not tested: no final item has a creation time (a sketch's bins and a histogram keep none)")
	} else {
		b.WriteString("none")
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}
