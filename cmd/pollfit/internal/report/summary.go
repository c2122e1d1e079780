package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Summary is what the report opens with: the decision. It names the
// schedule to ship, the study's fitted schedule (at the budget given,
// or without one at the first baseline's cost, as pollfit fit does), and
// today's, the first baseline; their lag and cost with intervals; the
// same-cost and same-lag comparisons; the stuck cost, the give-up age
// and the frontier's knee. Every figure is the study's (or, for the
// knee, the frontier table's), never computed here, and each names where
// pollfit fit --json writes it (for the Segments table, fit --by's).
type Summary struct {
	// Decision is what shipping the fitted schedule changes against
	// today's (fit.StudyResult.Decision); nil without a baseline.
	Decision Sentence
	// Lead says what to ship and at what cost.
	Lead Sentence
	// Schedule is the schedule to ship, in the schedule language.
	Schedule string
	// Rows are the schedule to ship and today's, side by side.
	Rows []SummaryRow
	// Points are the comparisons, the stuck cost, the give-up age and
	// the knee, a sentence each.
	Points []Sentence
	// Segments is, with --by, the schedule to ship for each value of the
	// column beside the one schedule (SummariseSegments), shown after
	// the whole log's; nil without --by.
	Segments *SegmentTable
}

// SummaryRow is one schedule of the summary's table.
type SummaryRow struct {
	Name, Role                            string
	Lag, LagCI, Req, ReqCI, Stuck, Missed Part
}

// Sentence is text with figures in it.
type Sentence []Part

// Part is a piece of a sentence: plain text, or a figure's text with
// the figures it shows.
type Part struct {
	Text string
	Figs []Fig
	// Code marks text in the schedule language.
	Code bool
}

// Fig is one figure: Key is its path in pollfit fit --json
// ("fitted.lag_s.mean", "comparisons.0.change_ci.1"), or under
// "frontier." for the knee (pollfit frontier --json's points); Value is
// the figure as JSON writes it (shortest round-trip float, or text).
type Fig struct{ Key, Value string }

// plain is a part without figures.
func plain(s string) Part { return Part{Text: s} }

// shown is a number shown as text, stored as key; "-" and no figure
// when v is not finite.
func shown(key string, v float64, shown string) Part {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return plain("-")
	}
	return Part{Text: shown, Figs: []Fig{{key, strconv.FormatFloat(v, 'g', -1, 64)}}}
}

func ageFig(key string, v float64) Part { return shown(key, v, schedule.FormatAge(v)) }

func numFig(key string, v float64) Part { return shown(key, v, num(v)) }

// ciFig is an interval's part, "low – high", or "-" without one.
func ciFig(key string, c fit.Interval, f func(float64) string) Part {
	if c == (fit.Interval{}) || math.IsNaN(c[0]) || math.IsNaN(c[1]) {
		return plain("-")
	}
	return Part{Text: f(c[0]) + " – " + f(c[1]), Figs: []Fig{{key + ".0", strconv.FormatFloat(c[0], 'g', -1, 64)}, {key + ".1", strconv.FormatFloat(c[1], 'g', -1, 64)}}}
}

// Summarise makes the summary of a study and its frontier table (nil
// for none).
func Summarise(st *fit.StudyResult, front []fit.FrontierPoint) *Summary {
	s := &Summary{Schedule: schedule.Format(st.Schedule)}
	s.Decision, s.Lead = decision("decision", st.Decision), lead(st)
	s.Rows = append(s.Rows, summaryRow(st.Fitted, "fitted", "to ship"))
	if len(st.Baselines) == 0 {
		s.Points = append(s.Points, Sentence{plain("No baseline was given (--baseline NAME=SCHEDULE), so there is no schedule of today's to compare with.")})
	} else {
		c := st.Baselines[0]
		s.Rows = append(s.Rows, summaryRow(c.Baseline, "baselines.0", "today"))
		s.Points = append(s.Points, sameCost(c))
		if st.Budget.Kind() == fit.BudgetRequests {
			s.Points = append(s.Points, sameLag(c))
		}
	}
	s.Points = append(s.Points, stuck(st), giveUp(st))
	if k := knee(st, front); k != nil {
		s.Points = append(s.Points, k)
	}
	return s
}

// decision is a decision as a sentence, its figures keyed under key as
// pollfit fit --json writes them ("decision", "by.decisions.0"); nil for
// none. A segment's names its group first.
func decision(key string, d *fit.Decision) Sentence {
	if d == nil {
		return nil
	}
	head := "Shipping the fitted schedule instead of " + d.Against + ": "
	if d.Group != "" {
		head = d.Group + ": shipping its fitted schedule instead of " + d.Against + ": "
	}
	change := func(key string, x float64, ci fit.Interval, text string) Part {
		p := Part{Text: text, Figs: []Fig{{key, strconv.FormatFloat(x, 'g', -1, 64)}}}
		if !math.IsNaN(ci[0]) {
			p.Figs = append(p.Figs, Fig{key + "_ci.0", strconv.FormatFloat(ci[0], 'g', -1, 64)}, Fig{key + "_ci.1", strconv.FormatFloat(ci[1], 'g', -1, 64)})
		}
		return p
	}
	return Sentence{plain(head),
		change(key+".requests_change", d.RequestsChange, d.RequestsCI, fit.FormatRequestsChange(d.RequestsChange, d.RequestsCI)), plain(" and "),
		change(key+".lag_change", d.LagChange, d.LagCI, fit.FormatLagChange(d.LagChange, d.LagCI)), plain(", on the held-out items.")}
}

// lead is the opening sentence: the budget the schedule to ship spends.
func lead(st *fit.StudyResult) Sentence {
	b := st.Budget
	switch {
	case st.BudgetFrom != "":
		return Sentence{plain(fmt.Sprintf("Ship this schedule, fitted at %s's cost on the fitting items (", st.BudgetFrom)),
			numFig("budget.requests_per_item", b.RequestsPerItem), plain(" requests per item; no budget was given, so the fit spends what today's schedule spends):")}
	case b.Kind() == fit.BudgetRequests:
		return Sentence{plain("Ship this schedule, fitted at the budget given, "), shown("budget.requests_per_item", b.RequestsPerItem, strconv.FormatFloat(b.RequestsPerItem, 'g', 3, 64)), plain(" requests per item:")}
	}
	return Sentence{plain("Ship this schedule, fitted at the budget given (" + budget(st) + "):")}
}

func summaryRow(r fit.Row, key, role string) SummaryRow {
	return SummaryRow{Name: r.Name, Role: role,
		Lag: ageFig(key+".lag_s.mean", r.Lag.Mean), LagCI: ciFig(key+".lag_mean_ci", r.LagCI, schedule.FormatAge),
		Req: numFig(key+".requests_per_item", r.RequestsPerItem), ReqCI: ciFig(key+".requests_per_item_ci", r.RequestsCI, num),
		Stuck: shown(key+".stuck_asks", r.Stuck, count(r.Stuck)), Missed: shown(key+".missed_share", r.MissedShare, fmt.Sprintf("%.1f%%", 100*r.MissedShare))}
}

// sameCost is the comparison at today's cost: "the same cost" only
// where it is read there, else both changes at the two costs.
func sameCost(c fit.Comparison) Sentence {
	ch := Part{Text: c.Changes(), Figs: []Fig{{"comparisons.0.change", strconv.FormatFloat(c.Change, 'g', -1, 64)}}}
	if !c.AtSameCost() {
		ch.Figs = append(ch.Figs, Fig{"comparisons.0.requests_change", strconv.FormatFloat(c.RequestsChange, 'g', -1, 64)})
	}
	if !math.IsNaN(c.ChangeCI[0]) {
		ch.Figs = append(ch.Figs, Fig{"comparisons.0.change_ci.0", strconv.FormatFloat(c.ChangeCI[0], 'g', -1, 64)}, Fig{"comparisons.0.change_ci.1", strconv.FormatFloat(c.ChangeCI[1], 'g', -1, 64)})
	}
	lags := []Part{ageFig("comparisons.0.equal_cost_lag_s", c.EqualCostLag), plain(" against "), ageFig("baselines.0.lag_s.mean", c.Baseline.Lag.Mean)}
	if c.Interpolated {
		s := append(Sentence{plain("At the same cost as " + c.Name + ": "), ch, plain(": ")}, lags...)
		return append(s, plain(" at "+c.Name+"'s "), numFig("baselines.0.requests_per_item", c.Baseline.RequestsPerItem),
			plain(" requests per item, read between fits that spent "), numFig("comparisons.0.bracket.0.requests_per_item", c.Bracket[0].RequestsPerItem),
			plain(" and "), numFig("comparisons.0.bracket.1.requests_per_item", c.Bracket[1].RequestsPerItem),
			plain(" (the fit at "+c.Name+"'s cost on the fitting items spent "), numFig("at_baseline_cost.0.requests_per_item", c.Fitted.RequestsPerItem), plain(")."))
	}
	head := "At the same cost as " + c.Name + ": "
	if !c.SameCost {
		head = "Against " + c.Name + ", at the fit at its cost: "
	}
	s := append(Sentence{plain(head), ch, plain(": ")}, lags...)
	s = append(s, plain(" at "), numFig("at_baseline_cost.0.requests_per_item", c.Fitted.RequestsPerItem), plain(" against "), numFig("baselines.0.requests_per_item", c.Baseline.RequestsPerItem),
		plain(" requests per item, on the same held-out items"))
	if c.NoBracket {
		s = append(s, plain("; no fit spent "+c.Name+"'s held-out cost, so this is the fit's own pair"))
	}
	return append(s, plain("."))
}

// sameLag is the comparison at today's lag.
func sameLag(c fit.Comparison) Sentence {
	r := c.SameLag
	if r == nil {
		return Sentence{plain(fmt.Sprintf("At the same lag as %s: no fit up to %s's cost waits as little on the held-out items.", c.Name, c.Name))}
	}
	return Sentence{plain("At the same lag as " + c.Name + ": "), shown("comparisons.0.same_lag.saving", c.Saving, fmt.Sprintf("%.1f%%", 100*c.Saving)),
		plain(" fewer requests, "), numFig("comparisons.0.same_lag.metrics.requests_per_item", r.RequestsPerItem), plain(" against "), numFig("baselines.0.requests_per_item", c.Baseline.RequestsPerItem),
		plain(" per item, waiting "), ageFig("comparisons.0.same_lag.metrics.lag_s.mean", r.Lag.Mean), plain(" against "), ageFig("baselines.0.lag_s.mean", c.Baseline.Lag.Mean),
		plain(", with "), Part{Text: schedule.Format(c.SameLagSchedule), Figs: []Fig{{"comparisons.0.same_lag.schedule", schedule.Format(c.SameLagSchedule)}}, Code: true}, plain(".")}
}

// stuck is the stuck cost of the schedule to ship, and today's.
func stuck(st *fit.StudyResult) Sentence {
	s := Sentence{plain("Stuck cost: an item that never answers is asked "), shown("fitted.stuck_asks", st.Fitted.Stuck, count(st.Fitted.Stuck)), plain(" times by " + stuckAge(st) + " by the schedule to ship")}
	if len(st.Baselines) > 0 {
		b := st.Baselines[0].Baseline
		s = append(s, plain(", "), shown("baselines.0.stuck_asks", b.Stuck, count(b.Stuck)), plain(" by "+b.Name))
	}
	return append(s, plain("; the fit's cap is "), shown("stuck_cap.asks", float64(st.StuckCap), strconv.Itoa(st.StuckCap)), plain(" ("+st.StuckCapReason+")."))
}

// stuckAge is the age the stuck cost counts to.
func stuckAge(st *fit.StudyResult) string {
	if st.Never {
		return schedule.FormatAge(st.Fitted.Horizon.Seconds())
	}
	return schedule.FormatAge(st.GiveUp.Age.Seconds())
}

// giveUp is the give-up age.
func giveUp(st *fit.StudyResult) Sentence {
	if st.Never {
		return Sentence{plain("Give up: never (--horizon never); a stuck item is asked for as long as it is watched.")}
	}
	g := st.GiveUp
	return Sentence{plain("Give up at "), ageFig("give_up.age_s", g.Age.Seconds()), plain(" (" + g.Reason + "): every schedule here, the one to ship and today's alike, stops asking then and is costed to there.")}
}

// knee is the frontier's knee, nil when the table has none.
func knee(st *fit.StudyResult, front []fit.FrontierPoint) Sentence {
	if p := fit.Knee(front); p != nil {
		where := "more"
		if st.Fitted.RequestsPerItem < p.RequestsPerItem {
			where = "less"
		}
		return Sentence{plain("The frontier's knee is at "), shown("frontier.knee.requests_per_item", p.RequestsPerItem, strconv.FormatFloat(p.RequestsPerItem, 'g', 3, 64)),
			plain(" requests per item, where the fit waits "), ageFig("frontier.knee.fitted.lag_s.mean", p.Fitted.Lag.Mean),
			plain(fmt.Sprintf(": from it on, one more request per item buys less than %.0f%% of the mean lag at every budget of the frontier's table. The schedule to ship spends %s than that.", 100*fit.KneeShare, where))}
	}
	return nil
}

// count formats a count that may be fractional (expected aligned asks).
func count(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}
