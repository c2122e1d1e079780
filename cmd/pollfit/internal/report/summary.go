package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/fitjson"
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
	Segments *GroupTable
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
// ("fitted.lag_s.mean", "comparisons.0.change_ci.1"), found from the
// field of fitjson.Fit the figure is read from (fitjson.Path), or under
// "frontier." for the knee (pollfit frontier --json's points); Value is
// the figure as JSON writes it (shortest round-trip float, or text).
type Fig struct{ Key, Value string }

// plain is a part without figures.
func plain(s string) Part { return Part{Text: s} }

// shown is a number shown as text, stored as key; "-" and no figure
// when v is not finite. For the knee's figures, which are not in a
// fitjson document.
func shown(key string, v float64, shown string) Part {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return plain("-")
	}
	return Part{Text: shown, Figs: []Fig{{key, g(v)}}}
}

func ageFig(key string, v float64) Part { return shown(key, v, schedule.FormatAge(v)) }

// Summarise makes the summary of a study and its frontier table (nil
// for none). Its figures are read from the study's fit --json
// (fitjson.New), by field; the words around them from the study.
func Summarise(st *fit.StudyResult, front []fit.FrontierPoint) *Summary {
	j := fitjson.New(st, nil)
	f := figs{root: j}
	s := &Summary{Schedule: j.Schedule}
	s.Decision, s.Lead = decision(f, j.Decision, st.Decision), lead(f, j, st)
	s.Rows = append(s.Rows, summaryRow(f, &j.Fitted, "to ship"))
	if len(st.Baselines) == 0 {
		s.Points = append(s.Points, Sentence{plain("No baseline was given (--baseline NAME=SCHEDULE), so there is no schedule of today's to compare with.")})
	} else {
		c := cmp{f: f, j: &j.Comparisons[0], base: &j.Baselines[0], cost: &j.AtCost[0], st: st.Baselines[0]}
		s.Rows = append(s.Rows, summaryRow(f, c.base, "today"))
		s.Points = append(s.Points, c.sameCost())
		if st.Budget.Kind() == fit.BudgetRequests {
			s.Points = append(s.Points, c.sameLag())
		}
	}
	s.Points = append(s.Points, stuck(f, j, st), giveUp(f, j, st))
	if k := knee(st, front); k != nil {
		s.Points = append(s.Points, k)
	}
	return s
}

// decision is a decision as a sentence, its figures read from jd in the
// document f reads, its words from d; nil for none. A segment's names
// its group first.
func decision(f figs, jd *fitjson.Decision, d *fit.Decision) Sentence {
	if d == nil {
		return nil
	}
	head := "Shipping the fitted schedule instead of " + d.Against + ": "
	if d.Group != "" {
		head = d.Group + ": shipping its fitted schedule instead of " + d.Against + ": "
	}
	change := func(x **float64, ci *[2]*float64, text string) Part {
		if *x == nil {
			return plain(text)
		}
		return f.withCI(f.at(x, **x, text), ci)
	}
	return Sentence{plain(head),
		change(&jd.Requests, jd.RequestsCI, fit.FormatRequestsChange(d.RequestsChange, d.RequestsCI)), plain(" and "),
		change(&jd.Lag, jd.LagCI, fit.FormatLagChange(d.LagChange, d.LagCI)), plain(", on the held-out items.")}
}

// lead is the opening sentence: the budget the schedule to ship spends.
func lead(f figs, j *fitjson.Fit, st *fit.StudyResult) Sentence {
	b := &j.Budget.RequestsPerItem
	switch {
	case st.BudgetFrom != "":
		return Sentence{plain(fmt.Sprintf("Ship this schedule, fitted at %s's cost on the fitting items (", st.BudgetFrom)),
			f.number(b), plain(" requests per item; no budget was given, so the fit spends what today's schedule spends):")}
	case st.Budget.Kind() == fit.BudgetRequests:
		return Sentence{plain("Ship this schedule, fitted at the budget given, "), f.num(b, func(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }), plain(" requests per item:")}
	}
	return Sentence{plain("Ship this schedule, fitted at the budget given (" + budget(st) + "):")}
}

// summaryRow is the row r of the document f reads.
func summaryRow(f figs, r *fitjson.Row, role string) SummaryRow {
	missed := plain("-")
	if r.MissedShare != nil {
		missed = f.at(&r.MissedShare, *r.MissedShare, fmt.Sprintf("%.1f%%", 100**r.MissedShare))
	}
	return SummaryRow{Name: r.Name, Role: role,
		Lag: f.age(&r.Lag.Mean), LagCI: f.ci(&r.LagCI, schedule.FormatAge),
		Req: f.number(&r.RequestsPerItem), ReqCI: f.ci(&r.RequestsCI, num),
		Stuck: f.num(&r.StuckAsks, count), Missed: missed}
}

// stuck is the stuck cost of the schedule to ship, and today's.
func stuck(f figs, j *fitjson.Fit, st *fit.StudyResult) Sentence {
	s := Sentence{plain("Stuck cost: an item that never answers is asked "), f.num(&j.Fitted.StuckAsks, count), plain(" times by " + stuckAge(st) + " by the schedule to ship")}
	if len(j.Baselines) > 0 {
		b := &j.Baselines[0]
		s = append(s, plain(", "), f.num(&b.StuckAsks, count), plain(" by "+b.Name))
	}
	return append(s, plain("; the fit's cap is "), f.at(&j.StuckCap.Asks, float64(j.StuckCap.Asks), strconv.Itoa(j.StuckCap.Asks)), plain(" ("+j.StuckCap.Reason+")."))
}

// stuckAge is the age the stuck cost counts to.
func stuckAge(st *fit.StudyResult) string {
	if st.Never {
		return schedule.FormatAge(st.Fitted.Horizon.Seconds())
	}
	return schedule.FormatAge(st.GiveUp.Age.Seconds())
}

// giveUp is the give-up age.
func giveUp(f figs, j *fitjson.Fit, st *fit.StudyResult) Sentence {
	if j.GiveUp.Never {
		return Sentence{plain("Give up: never (--horizon never); a stuck item is asked for as long as it is watched.")}
	}
	return Sentence{plain("Give up at "), f.age(&j.GiveUp.Age), plain(" (" + j.GiveUp.Reason + "): every schedule here, the one to ship and today's alike, stops asking then and is costed to there.")}
}

// knee is the frontier's knee, nil when the table has none. Its figures
// are pollfit frontier --json's, under "frontier.".
func knee(st *fit.StudyResult, front []fit.FrontierPoint) Sentence {
	if p := fit.Knee(front); p != nil {
		where := "more"
		if st.Fitted.RequestsPerItem < p.RequestsPerItem {
			where = "less"
		}
		return Sentence{plain("The frontier's knee is at "), shown("frontier.knee.requests_per_item", p.RequestsPerItem, strconv.FormatFloat(p.RequestsPerItem, 'g', 3, 64)),
			plain(" requests per item, where the fit waits "), ageFig("frontier.knee.fitted.lag_s.mean", p.Fitted.Lag.Mean),
			plain(fmt.Sprintf(": from it on, one more request per item buys less than %.0f%% of the mean lag at every budget the frontier picture draws. The schedule to ship spends %s than that.", 100*fit.KneeShare, where))}
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
