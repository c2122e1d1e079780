package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
	"time"

	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// fitReport is a study and where its input came from: what pollfit fit
// renders as text, JSON, a plot or an exported schedule.
type fitReport struct {
	res    *fit.StudyResult
	source string
	sample fit.Sample // the log read, or a sketch's fitting part (empty for a model)
	// heldOut is the sketch's held-out part, nil for a model or a log
	// the study split itself.
	heldOut *fit.HeldOut
	opt     fit.StudyOptions // the options the study ran with
	explore *fit.ExploreCost // --explore's cost, or nil
	// hint is the note on a column the read did not use, looked for
	// beside the study (nil: none looked for); the command says it.
	hint *hintNote
}

func (r *fitReport) writeText(w io.Writer) {
	res := r.res
	if res.Decision != nil {
		fmt.Fprintln(w, res.Decision)
	}
	fmt.Fprintln(w, schedule.Format(res.Schedule))
	fmt.Fprintln(w)
	switch {
	case res.Model != nil:
		fmt.Fprintf(w, "fitted to %s; figures are exact integrals\n", r.source)
	case res.Holdout > 0:
		fmt.Fprintf(w, "fitted to %.0f items of %s, measured on the %.0f held out (--holdout %g, --seed %d)\n",
			res.FitOn.Total(), r.source, res.HeldOut.Total(), res.Holdout, res.Seed)
	default:
		fmt.Fprintf(w, "fitted to and measured on %s\n", r.source)
	}
	b := res.Budget.String()
	if res.BudgetFrom != "" {
		b += " (" + res.BudgetFrom + "'s cost on the fitting items)"
	}
	fmt.Fprintf(w, "budget: %s; objective: %s lag\n", b, res.Objective)
	fmt.Fprintln(w, giveUpText(res))
	fmt.Fprintf(w, "stuck cap: %d asks by %s (%s)\n", res.StuckCap, stuckAge(res), res.StuckCapReason)
	if l := firstAskText(res, r.heldOutSample(), r.opt.FirstAsk); l != "" {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
	r.writeTable(w)
	writeIntervals(w, res)
	fmt.Fprintf(w, "\n%s\n", res.LimitNote)
	if r.explore != nil {
		fmt.Fprintln(w, exploreText(*r.explore))
	}
	if res.ExactFit != nil {
		fmt.Fprintln(w, exactFitNote(res))
	}
	writeShapes(w, res)
	for _, c := range res.Baselines {
		fmt.Fprintf(w, "\n%s", comparisonText(c))
		if c.Budget.Kind() == fit.BudgetRequests {
			fmt.Fprintf(w, "\n%s", sameLagText(c))
		}
	}
	if len(res.Baselines) > 0 {
		fmt.Fprintln(w)
	}
	for _, c := range res.Baselines {
		fmt.Fprintf(w, "fitted@%s: %s\n", c.Name, schedule.Format(c.Schedule))
	}
	if l := res.Library; l != nil {
		f := l.Fitted
		fmt.Fprintf(w, "\n--family %s: the best of %d members within the budget and the stuck cap is %s: on the held-out items %s mean lag over the answers it sees, %s of them missed, at %.2f requests per item and %s stuck asks; counting a missed answer as waiting until the give-up age it waits %s, %s than the fitted schedule's %s",
			l.Family, l.Tried, l.Strategy, schedule.FormatAge(f.Lag.Mean), share(f.MissedShare), f.RequestsPerItem, count(f.Stuck), schedule.FormatAge(l.WaitLag), fit.FormatChange(l.WaitLag/res.Fitted.Lag.Mean-1), schedule.FormatAge(res.Fitted.Lag.Mean))
		if l.Family == "grpc" {
			fmt.Fprintf(w, " (timed as %s waits, %s, --grpc-client to change; -f grpc writes it as a service config)", l.Client.Library, l.Client.WaitRule())
		}
		fmt.Fprintln(w)
	}
}

// firstAskText says what the fitted schedule's first ask buys: the share
// of the held-out items it sees answered, against the request it costs
// every item; "" for a model (no items) or a schedule that does not
// start with an ask at --first-ask.
func firstAskText(res *fit.StudyResult, held fit.Sample, first time.Duration) string {
	if held.Len() == 0 {
		return ""
	}
	if a, ok := res.Schedule.Timeline().Next(0); !ok || a != first {
		return ""
	}
	return fmt.Sprintf("first ask at %s (--first-ask to change): it sees %s of the held-out items answered, at one request for every item (of the fitted %.2f)",
		schedule.FormatDuration(first), share(held.AnsweredBy(first.Seconds())), res.Fitted.RequestsPerItem)
}

// heldOutSample is the sample the table is measured on: the sketch's
// held-out part, or the part the study held out itself (empty for a
// model).
func (r *fitReport) heldOutSample() fit.Sample {
	if r.heldOut != nil {
		return r.heldOut.Sample
	}
	if r.res.HeldOut != nil {
		return *r.res.HeldOut
	}
	return fit.Sample{}
}

// giveUpText is the give-up line.
func giveUpText(res *fit.StudyResult) string {
	if res.Never {
		return "give up: never (--horizon never); a stuck item is asked for as long as it is watched"
	}
	g := res.GiveUp
	return fmt.Sprintf("give up at %s (%s; --horizon to change)", schedule.FormatDuration(g.Age), g.Reason)
}

// stuckAge is the age the stuck cost counts to.
func stuckAge(res *fit.StudyResult) string {
	if res.Never {
		return schedule.FormatDuration(res.Fitted.Horizon)
	}
	return schedule.FormatDuration(res.GiveUp.Age)
}

// writeTable writes the rows: fitted, limit, exact (fit), continuous,
// then each baseline with the fit at its cost.
func (r *fitReport) writeTable(w io.Writer) {
	res := r.res
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "name\tlag mean\tp50\tp95\tp99\treq/item\tmissed\tstuck"
	for _, d := range res.Fitted.AsksByAges {
		head += "\tby " + schedule.FormatDuration(d)
	}
	fmt.Fprintln(tw, head+"\t")
	row := func(m fit.Row) {
		l := m.Lag
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s", m.Name, schedule.FormatAge(l.Mean), schedule.FormatAge(l.P50), schedule.FormatAge(l.P95), schedule.FormatAge(l.P99),
			m.RequestsPerItem, share(m.MissedShare), count(m.Stuck))
		for _, a := range m.AsksBy {
			fmt.Fprintf(tw, "\t%s", count(a))
		}
		fmt.Fprintln(tw, "\t")
	}
	row(res.Fitted)
	if !math.IsNaN(res.Limit.RequestsPerItem) { // not computed on intervals
		row(res.Limit)
	}
	if res.ExactFit != nil {
		row(*res.ExactFit)
	}
	if res.Continuous != nil {
		row(*res.Continuous)
	}
	for _, c := range res.Baselines {
		row(c.Baseline)
		row(c.Fitted)
	}
	tw.Flush()
}

// writeIntervals writes the bootstrap intervals of the rows measured.
func writeIntervals(w io.Writer, res *fit.StudyResult) {
	if res.Bootstrap == 0 {
		return
	}
	fmt.Fprintf(w, "\n95%% intervals (bootstrap of the held-out items, --bootstrap %d):\n", res.Bootstrap)
	rows := []fit.Row{res.Fitted}
	for _, c := range res.Baselines {
		rows = append(rows, c.Baseline, c.Fitted)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "name\tlag mean\tp95\treq/item\t")
	for _, m := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", m.Name, ageCI(m.LagCI), ageCI(m.P95CI), numCI(m.RequestsCI))
	}
	tw.Flush()
}

func ageCI(c fit.Interval) string {
	return schedule.FormatAge(c[0]) + " – " + schedule.FormatAge(c[1])
}

func numCI(c fit.Interval) string { return fmt.Sprintf("%.2f – %.2f", c[0], c[1]) }

// share writes a share (of answers, of items) as a percentage: "25.9%",
// "-" when undefined.
func share(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

// comparisonText is the one sentence comparing a baseline with the fit
// at its cost: "same cost" only where it is read at the baseline's
// held-out cost, else both changes.
func comparisonText(c fit.Comparison) string {
	b, f := c.Baseline, c.Fitted
	if c.Interpolated {
		lo, hi := c.Bracket[0].RequestsPerItem, c.Bracket[1].RequestsPerItem
		between := fmt.Sprintf("read between fits that spent %.2f and %.2f", lo, hi)
		if lo == hi {
			between = fmt.Sprintf("read off a fit that spent %.2f", lo)
		}
		return fmt.Sprintf("same cost as %s: %s at %s's held-out %.2f requests per item (%s vs %s, %s; fitted@%s itself spent %.2f)",
			c.Name, c.LagChange(), c.Name, b.RequestsPerItem, schedule.FormatAge(c.EqualCostLag), schedule.FormatAge(b.Lag.Mean), between, c.Name, f.RequestsPerItem)
	}
	head := "same cost as " + c.Name
	switch {
	case c.SameCost:
	case c.Budget.Kind() == fit.BudgetRequests:
		head = "against " + c.Name
	default:
		head = fmt.Sprintf("same budget as %s (%s)", c.Name, c.Budget)
	}
	s := fmt.Sprintf("%s: %s (%s vs %s at %.2f vs %.2f requests per item, on the same items)",
		head, c.Changes(), schedule.FormatAge(c.EqualCostLag), schedule.FormatAge(b.Lag.Mean), f.RequestsPerItem, b.RequestsPerItem)
	if c.NoBracket {
		s += fmt.Sprintf("; no fit spent %s's held-out cost, so this is fitted@%s's own pair", c.Name, c.Name)
	}
	return s
}

// sameLagText is the sentence on the requests the fit saves at the
// baseline's lag.
func sameLagText(c fit.Comparison) string {
	r := c.SameLag
	if r == nil {
		return fmt.Sprintf("same lag as %s: no fit up to %s's cost waits as little on the held-out items", c.Name, c.Name)
	}
	return fmt.Sprintf("same lag as %s: %.1f%% fewer requests (%.2f vs %.2f per item, at %s vs %s mean lag): %s",
		c.Name, 100*c.Saving, r.RequestsPerItem, c.Baseline.RequestsPerItem, schedule.FormatAge(r.Lag.Mean), schedule.FormatAge(c.Baseline.Lag.Mean), schedule.Format(c.SameLagSchedule))
}

func (r *fitReport) meta() *export.Meta {
	m := &export.Meta{Source: r.source, Budget: r.res.Budget.String(), Metrics: map[string]float64{}}
	put := func(k string, v float64) {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			m.Metrics[k] = v
		}
	}
	f := r.res.Fitted
	put("mean_lag_s", f.Lag.Mean)
	put("p95_lag_s", f.Lag.P95)
	put("requests_per_item", f.RequestsPerItem)
	put("stuck_asks", f.Stuck)
	if !r.res.Never {
		put("give_up_s", r.res.GiveUp.Age.Seconds())
	}
	return m
}
