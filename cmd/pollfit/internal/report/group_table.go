package report

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/fitjson"
	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// GroupTable is pollfit fit --by's table in the summary: for each
// value of the column its share of the items, held-out lag (mean and
// 95th percentile), requests per item, budget, stuck cost, missed share,
// give-up age and the schedule to ship for it; then the totals and the
// one schedule fitted to all values at the same budget, and the
// segmenting sentence. Every figure is the segments study's, never
// computed here, and each Fig key is "by." and its path in pollfit fit
// --by COLUMN --json ("by.segments.0.metrics.lag_s.mean", "by.change").
type GroupTable struct {
	// By is the column.
	By string
	// Decisions are each value's decision (fit.GroupFit.Decision), the
	// first thing the summary says under --by, as fit --by opens.
	Decisions []Sentence
	// Lead says how the budget was shared.
	Lead Sentence
	// Rows are one per value in the study's order, then the total and
	// the one schedule.
	Rows []GroupRow
	// Points are the footnote on values that follow the one schedule,
	// the price the budget was shared at and the segmenting sentence.
	Points []Sentence
}

// GroupRow is one row of a SegmentTable. The total has no p95, give-up
// age or schedule (each part "").
type GroupRow struct {
	// Name is the value as fit --by's table writes it ("*" after a value
	// that follows the one schedule), "total" or "one schedule".
	Name                                string
	Share, Lag, P95, Req, Budget, Stuck Part
	Missed, GiveUp, Schedule            Part
}

// SummariseGroups is the summary's table of the study s of a log
// split by the column by. Its figures are read from the study's fit
// --by --json (fitjson.NewSegments), by field; the words from s.
func SummariseGroups(by string, s *fit.GroupStudy) *GroupTable {
	j := fitjson.NewGroups(by, s, nil)
	f := figs{root: j, prefix: "by."}
	t := &GroupTable{By: by, Lead: groupsLead(f, j)}
	fallback := false
	for i := range j.Groups {
		sg := &j.Groups[i]
		t.Decisions = append(t.Decisions, decision(f, j.Decisions[i].Decision, &s.Groups[i].Decision))
		name := export.DSLValue(sg.Value)
		if sg.Fallback {
			name, fallback = name+" *", true
		}
		row := groupRow(f, name, &sg.Row, &sg.Schedule)
		row.Share, row.Budget = f.at(&sg.Share, sg.Share, percent(sg.Share)), f.at(&sg.Budget, sg.Budget, num(sg.Budget))
		t.Rows = append(t.Rows, row)
	}
	tot, b, spent := &j.Total, &j.Budget.RequestsPerItem, &j.Budget.Spent
	t.Rows = append(t.Rows, GroupRow{Name: "total", Share: plain(percent(1)), Lag: f.age(&tot.LagMean), Req: f.number(&tot.RequestsPerItem),
		Budget: f.at(spent, *spent, num(*spent)), Stuck: f.num(&tot.Stuck, func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }),
		Missed: f.num(&tot.MissedShare, percent)})
	one := groupRow(f, "one schedule", &j.Shared.Row, &j.Shared.Schedule)
	one.Share, one.Budget = plain(percent(1)), f.at(b, *b, num(*b))
	t.Rows = append(t.Rows, one)
	if fallback {
		t.Points = append(t.Points, Sentence{plain("* Fewer than "), f.at(&j.MinGroup, float64(j.MinGroup), strconv.Itoa(j.MinGroup)),
			plain(" final answers to fit on (--min-group): follows the one schedule.")})
	}
	switch a := s.Allocation; {
	case !s.PerGroup && a.Costs != nil && s.Unspent():
		t.Points = append(t.Points, Sentence{plain("Budget not all given out: within its stuck cap, every value's dearest fit spends less than its share; together they take "),
			f.at(spent, *spent, strconv.FormatFloat(*spent, 'f', 2, 64)), plain(" of the "), f.at(b, *b, num(*b)), plain(" requests per item (--stuck-asks to raise the caps).")})
	case !s.PerGroup && a.Costs != nil:
		t.Points = append(t.Points, Sentence{plain("Budget shared at one price: the last request per item buys "),
			f.num(&j.Budget.Price, func(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) + " s" }),
			plain(" of lag per item in every value above its cheapest fit (--budget-per-group gives each the budget itself).")})
	}
	t.Points = append(t.Points, segmentingSentence(f, j, s))
	return t
}

// groupRow is the figures of the replayed row r and its schedule
// sched, in the document f reads.
func groupRow(f figs, name string, r *fitjson.Row, sched *string) GroupRow {
	give := plain("never")
	if r.Horizon > 0 {
		give = f.at(&r.Horizon, r.Horizon, schedule.FormatDuration(time.Duration(math.Round(r.Horizon*1e9))))
	}
	return GroupRow{Name: name, Lag: f.age(&r.Lag.Mean), P95: f.age(&r.Lag.P95),
		Req: f.number(&r.RequestsPerItem), Stuck: f.num(&r.StuckAsks, count),
		Missed: f.num(&r.MissedShare, percent), GiveUp: give, Schedule: f.code(sched)}
}

// groupsLead says how the budget was given out.
func groupsLead(f figs, j *fitjson.Groups) Sentence {
	lead := Sentence{plain("Or ship one schedule per value of " + j.By + ", ")}
	b := &j.Budget.RequestsPerItem
	fig := f.at(b, *b, strconv.FormatFloat(*b, 'g', 4, 64))
	if j.Budget.PerGroup {
		return append(lead, plain("each at "), fig, plain(" requests per item (--budget-per-group):"))
	}
	return append(lead, fig, plain(" requests per item on average, shared where the next request buys the most lag:"))
}

// segmentingSentence compares the groups' schedules with the one
// schedule, as fit --by's last line does.
func segmentingSentence(f figs, j *fitjson.Groups, s *fit.GroupStudy) Sentence {
	// The changes as fit words them (the requests' too where the two
	// spend apart), the way the comparison with a baseline shows its own.
	chp := plain(s.Changes()) // not finite: "no comparable mean lag"
	if j.Change != nil {
		chp = f.at(&j.Change, *j.Change, chp.Text)
	}
	t, o := &j.Total, &j.Shared.Row
	return Sentence{plain("Segmenting: "), chp, plain(" at the same budget ("),
		f.age(&t.LagMean), plain(" against "), f.age(&o.Lag.Mean), plain(" for the one schedule, at "),
		f.number(&t.RequestsPerItem), plain(" against "), f.number(&o.RequestsPerItem),
		plain(" requests per item, on the same "), f.at(&t.Items, t.Items, whole(t.Items)), plain(" held-out items).")}
}

// percent is a share as a percentage with one decimal.
func percent(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
