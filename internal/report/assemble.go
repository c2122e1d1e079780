package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/plot"
)

// assemble writes the facts, the metrics and the pictures.
func (b *builder) assemble() {
	r := b.r
	st := b.study
	r.Schedule = schedule.Format(b.fitted)
	r.Metrics = b.metrics
	r.Facts = b.facts()
	if st.Holdout > 0 {
		r.MetricsNote = fmt.Sprintf("Replayed on the %.0f held-out items (%.0f%%, seed %d) to the give-up age %s; the estimates and the fit use the other %.0f.",
			st.HeldOut.Total(), 100*st.Holdout, st.Seed, plot.FormatAge(st.GiveUp.Age.Seconds()), st.FitOn.Total())
	} else {
		r.MetricsNote = fmt.Sprintf("Replayed on all %.0f items, the ones the schedule was fitted to, to the give-up age %s: expect a little worse on new data (use --holdout).", st.HeldOut.Total(), plot.FormatAge(st.GiveUp.Age.Seconds()))
	}
	r.MetricsNote += " " + st.LimitNote + "."
	for _, c := range st.Baselines {
		r.MetricsNote += fmt.Sprintf(" Same cost as %s: %s.", c.Name, comparison(c))
		if c.SameLag != nil {
			r.MetricsNote += fmt.Sprintf(" Same lag as %s: %.1f%% fewer requests (%s vs %s per item).", c.Name, 100*c.Saving, num(c.SameLag.RequestsPerItem), num(c.Baseline.RequestsPerItem))
		}
	}
	marks := b.marks()
	t, f, S, h := b.dist.Grid()
	r.Sections = append(r.Sections,
		Section{ID: "density", Title: "Settle-time density",
			Text:   "Smoothed density of the age at the final answer, on a log-time axis (the area between two ages is the share answered between them). Dashed rules mark deadlines (timeouts where answers pile up), a dotted rule the batch period.",
			Figure: plot.Density(t, f, marks)},
		Section{ID: "survival", Title: "Survival",
			Text:   fmt.Sprintf("Share of items still without a final answer at each age: Kaplan–Meier steps, with + where items were last seen still pending (censored, %d of them); the smoothed estimate dashed. %.1f%% never answered within the data.", int(b.acc.Pending), 100*b.km.Never()),
			Figure: plot.Survival(b.km.Time, b.km.Surv, b.censored(), t, S, marks)},
		Section{ID: "hazard", Title: "Hazard and ask rate",
			Text:   b.hazardText(),
			Figure: plot.Hazard(t, trustedHazard(h, S), b.rates(), b.fittedAsks())},
		Section{ID: "lags", Title: "Lag per schedule",
			Text:   "Share of detected items seen within each lag (time from the answer to the ask that sees it). Further left is better. Schedules with reset on signal ask at each item's signal too, as the replay does.",
			Figure: plot.Lags(b.lagCurves())},
		Section{ID: "frontier", Title: "Expected wait versus cost",
			Text:   b.frontierText(),
			Figure: plot.Frontier(b.frontierXY())},
	)
	if b.period != nil {
		r.Sections = append(r.Sections, Section{ID: "phase", Title: "Batch phase",
			Text: fmt.Sprintf("Final answers by time after each %s wall-clock boundary: %.0f%% settle in the batch, about %s after the boundary (%s).",
				plot.FormatAge(b.period.Period), 100*b.period.Share, plot.FormatAge(math.Round(b.period.Phase*10)/10), pValue(b.period.PValue)),
			Figure: plot.Phase(b.phases(), b.period.Period, b.period.Phase, 0)})
	}
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

func (b *builder) frontierText() string {
	return "Mean lag against requests per item, all measured on the items of the table to the give-up age: pollfit frontier's table, drawn. The limit is the hindsight optimum on those very items at each cost: no schedule asking by age does better there. The fitted schedules are what pollfit fit ships at each budget. Dashed: the families people use, a fixed interval and exponential backoff doubling each gap (with and without full jitter), each at its best parameter within the budget and the stuck cap. The knee is the first budget past which one more request per item buys less than 5% of the mean lag."
}

// comparison is the one sentence comparing a baseline with the fit at
// its cost.
func comparison(c fit.Comparison) string {
	d := 100 * c.Change
	word := "less"
	if d > 0 {
		word = "more"
	}
	return fmt.Sprintf("%.1f%% %s mean lag at its held-out cost of %.2f requests per item (%s vs %s)", math.Abs(d), word, c.Baseline.RequestsPerItem, age(c.EqualCostLag), age(c.Baseline.Lag.Mean))
}

func (b *builder) marks() plot.Marks {
	var m plot.Marks
	for _, d := range b.dist.Atoms() {
		m.Deadlines = append(m.Deadlines, d.Age)
	}
	if b.period != nil {
		m.Period = b.period.Period
	}
	return m
}

func (b *builder) censored() []float64 {
	var c []float64
	for _, it := range b.train {
		if !it.Status.Final() {
			c = append(c, it.Age)
		}
	}
	return c
}

func (b *builder) fittedAsks() []float64 {
	asks, err := b.fitted.Timeline().Asks(b.res.Horizon)
	if err != nil {
		return nil
	}
	out := make([]float64, len(asks))
	for i, a := range asks {
		out[i] = a.Seconds()
	}
	return out
}

func (b *builder) rates() []plot.Curve {
	var cs []plot.Curve
	if len(b.continuous()) > 1 {
		x, y := plot.AskRate(b.continuous())
		cs = append(cs, plot.Curve{Name: "optimal rate r(t)", X: x, Y: y, Colour: plot.Palette(4)})
	}
	if x, y := plot.AskRate(b.res.Optimum.Asks); len(x) > 0 {
		// The exact optimum's gaps scatter around the continuous rate:
		// points read better than a jagged staircase.
		cs = append(cs, plot.Curve{Name: "exact optimum (1/gap)", X: x, Y: y, Points: true, Colour: plot.Palette(1)})
	}
	if x, y := plot.AskRate(b.fittedAsks()); len(x) > 0 {
		cs = append(cs, plot.Curve{Name: "fitted schedule", X: x, Y: y, Steps: true, Colour: plot.Palette(0)})
	}
	return cs
}

// lagCurves are the lag distributions: each item's lag, or for a
// histogram (whose items are weighted bins) the replayed percentiles.
func (b *builder) lagCurves() []plot.Curve {
	if b.study.HeldOut.Weighted() {
		var cs []plot.Curve
		for _, m := range b.lagged {
			x, y := percentileCurve(m.Lag)
			cs = append(cs, plot.Curve{Name: m.Name, X: x, Y: y})
		}
		return cs
	}
	return LagCurves(b.lagged, b.scheds, b.test)
}

func (b *builder) frontierXY() (curves []plot.Curve, pts []plot.Point) {
	curves = b.front
	for _, m := range b.metrics {
		if strings.HasPrefix(m.Name, "limit") {
			continue // on the limit curve by construction
		}
		pts = append(pts, plot.Point{Name: m.Name, Cost: m.RequestsPerItem, Wait: m.Lag.Mean})
	}
	if b.knee != nil {
		pts = append(pts, *b.knee)
	}
	return curves, pts
}

// phases are the settle times of the final training items modulo the
// batch period, in seconds.
func (b *builder) phases() []float64 {
	p := int64(b.period.Period * 1e9)
	var out []float64
	for _, it := range b.train {
		if !it.Status.Final() || !it.HasCreated() {
			continue
		}
		at := it.Created + int64(math.Round(it.Age*1e9))
		out = append(out, float64(((at%p)+p)%p)/1e9)
	}
	return out
}

func (b *builder) facts() []Fact {
	fs := []Fact{
		{"items", b.counts()},
		{"never answered", fmt.Sprintf("%.2f%% (Kaplan–Meier, at the last observed age %s)", 100*b.km.Never(), plot.FormatAge(math.Round(b.km.End())))},
	}
	if q := b.km.Quantiles([]float64{0.5, 0.9, 0.99}); len(q) == 3 {
		fs = append(fs, Fact{"answered by", fmt.Sprintf("50%%: %s, 90%%: %s, 99%%: %s", ageOrNot(q[0]), ageOrNot(q[1]), ageOrNot(q[2]))})
	}
	fs = append(fs, Fact{"deadlines", deadlines(b.dist.Atoms())})
	if p := b.period; p != nil {
		fs = append(fs, Fact{"batch period", fmt.Sprintf("%s, %.0f%% of answers, about %s after each boundary", plot.FormatAge(p.Period), 100*p.Share, plot.FormatAge(math.Round(p.Phase*10)/10))})
	} else {
		fs = append(fs, Fact{"batch period", "none found"})
	}
	st := b.study
	fs = append(fs,
		Fact{"budget", budget(st)},
		Fact{"give up at", fmt.Sprintf("%s (%s)", plot.FormatAge(st.GiveUp.Age.Seconds()), st.GiveUp.Reason)},
		Fact{"stuck cap", fmt.Sprintf("%d asks by the give-up age to an item that never answers (%s)", st.StuckCap, st.StuckCapReason)},
		Fact{"hold-out", holdout(st)},
	)
	if len(b.opt.Shapes) > 0 {
		fs = append(fs, Fact{"shapes", strings.Join(b.opt.Shapes, "; ")})
	}
	if len(b.metrics) > 0 {
		m := b.metrics[0]
		fs = append(fs, Fact{"fitted schedule achieves", fmt.Sprintf("mean lag %s, p99 %s, %.2f requests per item", age(m.Lag.Mean), age(m.Lag.P99), m.RequestsPerItem)})
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
	return fmt.Sprintf("%s: %s settled, %s failed, %s pending", whole(n), whole(settled), whole(failed), whole(pending))
}

func ageOrNot(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "not reached"
	}
	return age(x)
}

func deadlines(ds []estimate.Deadline) string {
	if len(ds) == 0 {
		return "none found"
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("%s (%.1f%% of items)", age(d.Age), 100*d.Share)
	}
	return strings.Join(parts, ", ")
}

// budget describes the fit's budget and objective.
func budget(st *fit.StudyResult) string {
	b := st.Budget
	var s string
	switch {
	case b.RequestsPerItem > 0:
		s = fmt.Sprintf("%.3g requests per item", b.RequestsPerItem)
	case b.AsksBy > 0:
		s = fmt.Sprintf("%d asks by %s to an item that never settles", b.AsksBy, plot.FormatAge(b.AsksByAge.Seconds()))
	case b.MaxAttempts > 0:
		s = fmt.Sprintf("%d attempts in all", b.MaxAttempts)
	default:
		s = fmt.Sprintf("price %.3g s of lag per request", b.Price)
	}
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

// trustedHazard blanks the hazard where fewer than 1 in 1000 items are
// still waiting: there f/S divides noise by almost nothing.
func trustedHazard(h, S []float64) []float64 {
	out := make([]float64, len(h))
	for i := range h {
		out[i] = h[i]
		if S[i] < 1e-3 {
			out[i] = math.NaN()
		}
	}
	return out
}

func pValue(p float64) string {
	if p < 1e-3 {
		return "p < 0.001"
	}
	return fmt.Sprintf("p = %.2g", p)
}
