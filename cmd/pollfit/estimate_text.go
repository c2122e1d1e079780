package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// age formats seconds for people: 0.25s, 4.2s, 95s (1m35s).
func age(sec float64) string {
	s := strconv.FormatFloat(sec, 'g', 4, 64) + "s"
	if sec >= 120 {
		s += " (" + time.Duration(math.Round(sec)*1e9).String() + ")"
	}
	return s
}

// spreadAge formats a deadline's age and spread, the age to the spread's
// second significant digit: "60.0s ± 1.5s", "60.015s ± 0.023s"; an exact
// atom (spread under 0.5 ms) as age does.
func spreadAge(sec, spread float64) string {
	if !(spread >= 5e-4) {
		return age(sec)
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
	return strconv.FormatFloat(*v, 'g', 4, 64)
}

func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }

func (sum *summary) writeText(w io.Writer) error {
	r := &sum.report
	var b strings.Builder
	fmt.Fprintf(&b, "items:        %d: %d final (%.0f settled, %.0f failed), %d pending", r.Items, r.Final, r.Settled, r.Failed, r.Pending)
	if r.Skipped > 0 {
		fmt.Fprintf(&b, ", %d rows skipped", r.Skipped)
	}
	fmt.Fprintf(&b, "\nnever:        %s with no final answer by the last observed age\n", pct(r.Never))
	b.WriteString("quantiles:    (Kaplan–Meier, 95% interval)\n")
	for _, q := range sum.qs {
		k := quantileKey(q)
		if v := r.Quantiles[k]; v != nil {
			ci := r.QuantileCI[k]
			fmt.Fprintf(&b, "  %-6s %-22s [%s, %s]\n", k, age(*v), ciEnd(ci[0]), ciEnd(ci[1]))
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
		fmt.Fprintf(&b, " %s", age(m))
	}
	if len(r.Modes) == 0 {
		b.WriteString(" none")
	}
	b.WriteString("\ndeadlines:   ")
	for _, d := range r.Deadlines {
		fmt.Fprintf(&b, " %s holding %s of items", spreadAge(d.Age, d.Spread), pct(d.Share))
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
			time.Duration(p.Period*1e9), age(p.Phase), pct(p.Share), pv)
	} else {
		b.WriteString("none")
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}
