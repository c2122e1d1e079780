package fitjson

import (
	"math"

	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// New is the JSON of the study res, with what exploring costs (nil
// without --explore). It computes no figure: each is res's (or
// explore's), converted to seconds and nulls.
func New(res *fit.StudyResult, explore *fit.ExploreCost) *Fit {
	out := &Fit{Decision: NewDecision(res.Decision), Schedule: schedule.Format(res.Schedule),
		Budget: NewBudget(res.Budget, res.Objective, res.BudgetFrom), StuckCap: StuckCap{res.StuckCap, res.StuckCapReason},
		Fitted: NewRow(res.Fitted), Limit: limit(res), LimitNote: res.LimitNote, ExactFit: rowPtr(res.ExactFit), Continuous: rowPtr(res.Continuous),
		Baselines: []Row{}, AtCost: []Row{}, Comparisons: []Comparison{}, Explore: newExplore(explore), Notes: append([]string{}, res.Notes...)}
	out.FirstAsk = newFirstAsk(res)
	out.GiveUp = GiveUp{Reason: res.GiveUp.Reason, Of: res.GiveUp.Of, Never: res.Never}
	if !res.Never {
		out.GiveUp.Age, out.GiveUp.Share = fit.JSONNumber(res.GiveUp.Age.Seconds()), fit.JSONNumber(res.GiveUp.Share)
	}
	for _, c := range res.Baselines {
		out.Baselines = append(out.Baselines, NewRow(c.Baseline))
		out.AtCost = append(out.AtCost, NewRow(c.Fitted))
		out.Comparisons = append(out.Comparisons, newComparison(c, res))
	}
	if l := res.Library; l != nil {
		out.Library = &Library{l.Family, l.Client.Name, l.Strategy.String(), l.Tried, NewRow(l.Fitted), fit.JSONNumber(l.WaitLag)}
	}
	if res.Model == nil && res.FitOn != nil && res.HeldOut != nil { // a log's (a study by hand may have neither)
		out.Holdout = &Holdout{res.Holdout, res.Seed, res.FitOn.Total(), res.HeldOut.Total()}
		out.Shapes = newShapes(res.Shapes)
	}
	if sm := res.Smoothing; sm != nil {
		out.Smoothing = &Smoothing{sm.Bandwidth, sm.Rule, sm.Factor}
	}
	return out
}

// newFirstAsk is the first ask of res's schedule and the held-out
// share answered by then, as fit counts it.
func newFirstAsk(res *fit.StudyResult) FirstAsk {
	if res.Schedule == nil {
		return FirstAsk{}
	}
	a, ok := res.Schedule.Timeline().Next(0)
	if !ok {
		return FirstAsk{}
	}
	out := FirstAsk{Age: fit.JSONNumber(a.Seconds())}
	if res.Model == nil && res.HeldOut != nil {
		out.SeenShare = fit.JSONNumber(res.HeldOut.AnsweredBy(a.Seconds()))
	}
	return out
}

// newComparison is the comparison c of the study res.
func newComparison(c fit.Comparison, res *fit.StudyResult) Comparison {
	out := Comparison{Name: c.Name, Budget: NewBudget(c.Budget, res.Objective, ""),
		StuckCap: c.StuckCap, EqualCostLag: fit.JSONNumber(c.EqualCostLag), Change: fit.JSONNumber(c.Change),
		Requests: fit.JSONNumber(c.RequestsChange), SameCost: c.SameCost, Interpolated: c.Interpolated, NoBracket: c.NoBracket}
	if c.Bracket != nil {
		out.Bracket = rows(c.Bracket)
	}
	if res.Bootstrap > 0 {
		out.ChangeCI = c.ChangeCI.JSON()
	}
	if c.SameLag != nil {
		out.SameLag = &SameLag{schedule.Format(c.SameLagSchedule), NewRow(*c.SameLag), fit.JSONNumber(c.Saving)}
	}
	return out
}

// NewDecision is d in JSON, nil for none; the intervals null without a
// bootstrap.
func NewDecision(d *fit.Decision) *Decision {
	if d == nil {
		return nil
	}
	ci := func(c fit.Interval) *[2]*float64 {
		if math.IsNaN(c[0]) {
			return nil
		}
		return c.JSON()
	}
	return &Decision{d.Against, fit.JSONNumber(d.RequestsChange), ci(d.RequestsCI), fit.JSONNumber(d.LagChange), ci(d.LagCI), d.String()}
}

// NewBudget is the budget b of objective obj; from names the baseline
// whose cost it is, if any.
func NewBudget(b fit.Budget, obj fit.Objective, from string) Budget {
	out := Budget{Objective: obj.String(), FromBaseline: from}
	switch b.Kind() {
	case fit.BudgetRequests:
		out.RequestsPerItem = &b.RequestsPerItem
	case fit.BudgetAsksBy:
		out.AsksBy = &AsksCap{b.AsksBy, b.AsksByAge.Seconds()}
	case fit.BudgetMaxAttempts:
		out.MaxAttempts = &b.MaxAttempts
	default:
		out.Price = &b.Price
	}
	return out
}

// limit is the limit row, nil where the study could not compute it
// (StudyOptions.NoLimit: its figures are NaN, which JSON cannot hold).
func limit(res *fit.StudyResult) *Row {
	if math.IsNaN(res.Limit.RequestsPerItem) {
		return nil
	}
	return rowPtr(&res.Limit)
}

// newExplore is c's JSON, nil for nil.
func newExplore(c *fit.ExploreCost) *Explore {
	if c == nil {
		return nil
	}
	return &Explore{c.Fraction, fit.JSONNumber(c.Lag), fit.JSONNumber(c.ExploredLag), fit.JSONNumber(c.LagChange()),
		fit.JSONNumber(c.Requests), fit.JSONNumber(c.ExploredRequests), fit.JSONNumber(c.RequestsChange()), c.String()}
}

// newShapes is f's JSON, nil for nil.
func newShapes(f *fit.Shapes) *Shapes {
	if f == nil {
		return nil
	}
	out := &Shapes{Deadlines: []Deadline{}, Signals: f.Signals, OverCap: append([]string{}, f.OverCap...)}
	for _, d := range f.Deadlines {
		out.Deadlines = append(out.Deadlines, Deadline{Age: d.Age, Share: d.Share, Width: d.Width})
	}
	if p := f.Period; p != nil {
		out.Period = &Period{p.Period, p.Phase, p.Share, p.PValue}
	}
	shape := func(s *fit.Shape) *Shape {
		if s == nil {
			return nil
		}
		j := &Shape{Paid: s.Paid, Plain: NewMetricsRow(s.Plain)}
		if s.Shaped.Items > 0 {
			r := NewMetricsRow(s.Shaped)
			j.Shaped = &r
		}
		return j
	}
	out.Deadline, out.Batch = shape(f.Deadline), shape(f.Batch)
	return out
}
