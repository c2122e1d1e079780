package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/plot"
	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// assemble writes the facts, the metrics and the pictures.
func (b *builder) assemble() {
	r := b.r
	r.Schedule = schedule.Format(b.fitted)
	r.Metrics = b.metrics
	r.Facts = b.facts()
	r.MetricsNote = b.metricsNote()
	r.Sections = b.sections()
}

// metricsNote says what the metrics table was measured on and how the
// fit compares with each baseline.
func (b *builder) metricsNote() string {
	st := b.study
	var note string
	if st.Holdout > 0 {
		note = fmt.Sprintf("Replayed on the %.0f held-out items (%.0f%%, seed %d) to the give-up age %s; the estimates and the fit use the other %.0f.",
			st.HeldOut.Total(), 100*st.Holdout, st.Seed, schedule.FormatAge(st.GiveUp.Age.Seconds()), st.FitOn.Total())
	} else {
		note = fmt.Sprintf("Replayed on all %.0f items, the ones the schedule was fitted to, to the give-up age %s: expect a little worse on new data (use --holdout).", st.HeldOut.Total(), schedule.FormatAge(st.GiveUp.Age.Seconds()))
	}
	note += " " + st.LimitNote + "."
	for _, c := range st.Baselines {
		note += fmt.Sprintf(" Same cost as %s: %s.", c.Name, comparison(c))
		if c.SameLag != nil {
			note += fmt.Sprintf(" Same lag as %s: %.1f%% fewer requests (%s vs %s per item).", c.Name, 100*c.Saving, num(c.SameLag.RequestsPerItem), num(c.Baseline.RequestsPerItem))
		}
	}
	return note
}

// sections are the pictures, each with its explanation.
func (b *builder) sections() []Section {
	st := b.study
	var points []fit.Row
	for _, m := range b.metrics {
		if !strings.HasPrefix(m.Name, "limit") { // on the limit curve by construction
			points = append(points, m)
		}
	}
	secs := []Section{
		{ID: "density", Title: "Settle-time density",
			Text:   "Smoothed density of the age at the final answer, on a log-time axis (the area between two ages is the share answered between them). Dashed rules mark deadlines (timeouts where answers pile up), each with its share of items in the legend: a spike the smooth curve cannot show. A batch period is a wall-clock interval, not an age: the batch phase picture shows it.",
			Figure: plot.DensityOf(b.dist)},
		{ID: "survival", Title: "Survival",
			Text:   fmt.Sprintf("Share of items still without a final answer at each age: Kaplan–Meier steps, with + where items were last seen still pending (censored: %d of the fitting items); the smoothed estimate the wide pale line along them. %.1f%% of the fitting items never answered within the data.", int(b.pending), 100*b.km.Never()),
			Figure: plot.SurvivalOf(b.km, b.dist)},
		{ID: "hazard", Title: "Hazard and ask rate",
			Text:   b.hazardText(),
			Figure: plot.HazardOf(st)},
		{ID: "lags", Title: "Lag per schedule",
			Text:   "Share of detected items seen within each lag (time from the answer to the ask that sees it). Further left is better. Schedules with reset on signal ask at each item's signal too, as the replay does.",
			Figure: plot.LagsOf(b.lagged, b.scheds, *st.HeldOut)},
	}
	if f := plot.ItemsOf(st); f != nil {
		secs = append(secs, Section{ID: "items", Title: "Items one by one", Text: b.itemsText(), Figure: f})
	}
	if !b.group { // a group's frontier is its share of the budget: see the summary's table
		secs = append(secs, Section{ID: "frontier", Title: "Expected wait versus cost",
			Text:   b.frontierText(),
			Figure: plot.FrontierOf(b.front, plot.RowPoints(points), b.opt.Clauses)})
	}
	if b.period != nil {
		secs = append(secs, Section{ID: "phase", Title: "Batch phase",
			Text: fmt.Sprintf("Final answers by time after each %s wall-clock boundary: %.0f%% settle in the batch, about %s after the boundary (%s).",
				schedule.FormatAge(b.period.Period), 100*b.period.Share, schedule.FormatAge(math.Round(b.period.Phase*10)/10), pValue(b.period.PValue)),
			Figure: plot.PhaseOf(b.train, b.period)})
	}
	return secs
}

// continuous is the continuous-rate schedule's asks, if the fit has one.
func (b *builder) continuous() []float64 {
	if c := b.res.Continuous; c != nil {
		return c.Asks
	}
	return nil
}

func (b *builder) hazardText() string {
	s := "The hazard is the rate at which waiting items get their answer; a good schedule asks fast where it is high. Rates are asks per second: "
	if len(b.continuous()) > 1 {
		s += "the continuous optimum r(t), "
	}
	s += "the exact optimum's asks (a point per gap, at 1/gap) and the steps of the fitted schedule, whose asks are the ticks along the bottom."
	if len(b.continuous()) <= 1 {
		s += " (The optimiser gave no continuous rate at this budget, so r(t) is not drawn.)"
	}
	return s
}

func (b *builder) itemsText() string {
	which := "held-out items"
	if b.study.Holdout == 0 {
		which = "items"
	}
	drawn := fmt.Sprintf("%d of the %s, drawn at random (seed %d)", min(plot.ItemRows, len(b.test)), which, b.study.Seed)
	if b.study.HeldOut.Weighted() {
		drawn = fmt.Sprintf("Up to %d of the %s, drawn at random (seed %d) in proportion to weight, each at the representative age of its bin or interval (the input keeps counts, not the items themselves)", plot.ItemRows, which, b.study.Seed)
	}
	s := drawn + ", one row each, earliest answer at the top; replayed as the table replays them, to the give-up age. A ring marks where the answer landed, dots are asks and the bar is the lag, the time from the answer to the ask that sees it."
	if len(b.study.Baselines) > 0 {
		s += fmt.Sprintf(" Each row has two lanes: %s (today) above, the fitted schedule below, on the same item.", b.study.Baselines[0].Name)
	}
	return s + " A pending item (no answer yet) is asked up to the age it was last seen at, marked ×; a missed answer (after the give-up age) has a grey bar to it. The age axis is linear up to a second and logarithmic beyond."
}

func (b *builder) frontierText() string {
	at := make([]string, len(b.front))
	for i, p := range b.front {
		at[i] = strconv.FormatFloat(p.RequestsPerItem, 'g', 3, 64)
	}
	s := b.frontierAbout(at)
	if note := fit.FrontierLimitNote(b.front); note != "" {
		s += " The " + fit.FrontierLimitLabel(b.front) + " here: " + note + "."
	}
	return s
}

// frontierAbout is what the frontier's picture draws, at budgets at.
func (b *builder) frontierAbout(at []string) string {
	return "Mean lag against requests per item, all measured on the held-out items to the give-up age: the fit's frontier, at " + strings.Join(at, ", ") +
		" requests per item (pollfit frontier --budgets prints these points as a table). The limit is the hindsight optimum on those very items at each cost: no schedule asking by age does better there. The fitted schedules are what pollfit fit ships at each budget, at the fit's own the schedule to ship. Dashed: the families people use, a fixed interval and exponential backoff doubling each gap (with and without full jitter), each at its best parameter within the budget and the stuck cap. The knee is the first budget from which on one more request per item buys less than 5% of the mean lag at every budget drawn."
}

// comparison is the one sentence comparing a baseline with the fit at
// its cost.
func comparison(c fit.Comparison) string {
	if !c.AtSameCost() {
		return fmt.Sprintf("%s at %.2f against its held-out %.2f requests per item (%s vs %s)", c.Changes(), c.Fitted.RequestsPerItem, c.Baseline.RequestsPerItem, schedule.FormatAge(c.EqualCostLag), schedule.FormatAge(c.Baseline.Lag.Mean))
	}
	return fmt.Sprintf("%s at its held-out cost of %.2f requests per item (%s vs %s)", c.LagChange(), c.Baseline.RequestsPerItem, schedule.FormatAge(c.EqualCostLag), schedule.FormatAge(c.Baseline.Lag.Mean))
}

func (b *builder) facts() []Fact {
	fs := []Fact{
		{"items", b.counts()},
		{"never answered", fmt.Sprintf("%.2f%% of the fitting items (Kaplan–Meier, at the last observed age %s)", 100*b.km.Never(), schedule.FormatAge(math.Round(b.km.End())))},
	}
	if q := b.km.Quantiles([]float64{0.5, 0.9, 0.99}); len(q) == 3 {
		fs = append(fs, Fact{"answered by", fmt.Sprintf("50%%: %s, 90%%: %s, 99%%: %s of the fitting items (Kaplan–Meier)", ageOrNot(q[0]), ageOrNot(q[1]), ageOrNot(q[2]))})
	}
	fs = append(fs, Fact{"deadlines", deadlines(b.dist.Atoms())})
	if p := b.period; p != nil {
		fs = append(fs, Fact{"batch period", fmt.Sprintf("%s, %.0f%% of the fitting items' answers, about %s after each boundary", schedule.FormatAge(p.Period), 100*p.Share, schedule.FormatAge(math.Round(p.Phase*10)/10))})
	} else {
		fs = append(fs, Fact{"batch period", "none found"})
	}
	st := b.study
	fs = append(fs,
		Fact{"budget", budget(st)},
		Fact{"give up at", fmt.Sprintf("%s (%s)", schedule.FormatAge(st.GiveUp.Age.Seconds()), st.GiveUp.Reason)},
		Fact{"stuck cap", fmt.Sprintf("%d asks by the give-up age to an item that never answers (%s)", st.StuckCap, st.StuckCapReason)},
		Fact{"hold-out", holdout(st)},
	)
	if len(b.opt.Shapes) > 0 {
		fs = append(fs, Fact{"shapes", strings.Join(b.opt.Shapes, "; ")})
	}
	return fs
}

// counts describes all the items read, training and held out.
func (b *builder) counts() string {
	var n, settled, failed, pending float64
	for _, part := range []*fit.Sample{b.study.FitOn, b.study.HeldOut} {
		for i, it := range part.Items {
			w := part.Weight(i)
			n += w
			switch it.Status {
			case estimate.Settled:
				settled += w
			case estimate.Failed:
				failed += w
			default:
				pending += w
			}
		}
		if b.study.Holdout == 0 {
			break // test is train
		}
	}
	what := fmt.Sprintf("%s in all (%s fitting, %s held out)", whole(n), whole(b.study.FitOn.Total()), whole(b.study.HeldOut.Total()))
	if b.study.Holdout == 0 {
		what = whole(n) + " in all, each fitted and measured on"
	}
	count := whole
	if b.study.FitOn.Scale > 1 || b.study.HeldOut.Scale > 1 {
		// A uniform sample of the rows: its counts by status are
		// estimates, not the log's.
		count = func(x float64) string { return "about " + strconv.FormatFloat(math.Round(x), 'f', 0, 64) }
	}
	return fmt.Sprintf("%s: %s settled, %s failed, %s pending", what, count(settled), count(failed), count(pending))
}

func ageOrNot(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "not reached"
	}
	return schedule.FormatAge(x)
}

func deadlines(ds []estimate.Deadline) string {
	if len(ds) == 0 {
		return "none found"
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("%s (%.1f%% of the fitting items)", schedule.FormatAge(d.Age), 100*d.Share)
	}
	return strings.Join(parts, ", ")
}

// budget describes the fit's budget and objective.
func budget(st *fit.StudyResult) string {
	s := st.Budget.String()
	if st.BudgetFrom != "" {
		s += " (" + st.BudgetFrom + "'s cost on the fitting items)"
	}
	return fmt.Sprintf("%s; objective %s lag", s, st.Objective)
}

func holdout(st *fit.StudyResult) string {
	if st.Holdout == 0 {
		return "none: fitted and measured on all items"
	}
	return fmt.Sprintf("%.0f%% of items (%.0f) held out to measure on, by a random split with seed %d; %.0f to fit", 100*st.Holdout, st.HeldOut.Total(), st.Seed, st.FitOn.Total())
}

func pValue(p float64) string {
	if p < 1e-3 {
		return "p < 0.001"
	}
	return fmt.Sprintf("p = %.2g", p)
}
