package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// SegmentTable is pollfit fit --by's table in the summary: for each
// value of the column its share of the items, held-out lag (mean and
// 95th percentile), requests per item, budget, stuck cost, missed share,
// give-up age and the schedule to ship for it; then the totals and the
// one schedule fitted to all values at the same budget, and the
// segmenting sentence. Every figure is the segments study's, never
// computed here, and each Fig key is "by." and its path in pollfit fit
// --by COLUMN --json ("by.segments.0.metrics.lag_s.mean", "by.change").
type SegmentTable struct {
	// By is the column.
	By string
	// Decisions are each value's decision (fit.SegmentFit.Decision), the
	// first thing the summary says under --by, as fit --by opens.
	Decisions []Sentence
	// Lead says how the budget was shared.
	Lead Sentence
	// Rows are one per value in the study's order, then the total and
	// the one schedule.
	Rows []SegmentRow
	// Points are the footnote on values that follow the one schedule,
	// the price the budget was shared at and the segmenting sentence.
	Points []Sentence
}

// SegmentRow is one row of a SegmentTable. The total has no p95, give-up
// age or schedule (each part "").
type SegmentRow struct {
	// Name is the value as fit --by's table writes it ("*" after a value
	// that follows the one schedule), "total" or "one schedule".
	Name                                string
	Share, Lag, P95, Req, Budget, Stuck Part
	Missed, GiveUp, Schedule            Part
}

// SummariseSegments is the summary's table of the study s of a log
// split by the column by.
func SummariseSegments(by string, s *fit.SegmentStudy) *SegmentTable {
	t := &SegmentTable{By: by, Lead: segmentsLead(by, s)}
	fallback := false
	for i, f := range s.Segments {
		t.Decisions = append(t.Decisions, decision("by.decisions."+strconv.Itoa(i), &f.Decision))
		key := "by.segments." + strconv.Itoa(i)
		name := export.DSLValue(f.Value)
		if f.Fallback {
			name, fallback = name+" *", true
		}
		row := segmentRow(name, key+".metrics", f.Row, key+".schedule", f.Schedule)
		row.Share = shown(key+".share", f.Share, percent(f.Share))
		row.Budget = numFig(key+".budget", f.Budget)
		t.Rows = append(t.Rows, row)
	}
	tot := s.Total
	t.Rows = append(t.Rows, SegmentRow{Name: "total", Share: plain(percent(1)), Lag: ageFig("by.total.lag_mean_s", tot.LagMean),
		Req: numFig("by.total.requests_per_item", tot.RequestsPerItem), Budget: numFig("by.budget.requests_per_item", s.Budget),
		Stuck: shown("by.total.stuck_asks", tot.Stuck, strconv.FormatFloat(tot.Stuck, 'f', 1, 64)), Missed: shown("by.total.missed_share", tot.MissedShare, percent(tot.MissedShare))})
	one := segmentRow("one schedule", "by.shared.metrics", s.Shared.Fitted, "by.shared.schedule", s.Shared.Schedule)
	one.Share, one.Budget = plain(percent(1)), numFig("by.budget.requests_per_item", s.Budget)
	t.Rows = append(t.Rows, one)
	if fallback {
		t.Points = append(t.Points, Sentence{plain("* Fewer than "), shown("by.min_segment", float64(s.MinFinal), strconv.Itoa(s.MinFinal)),
			plain(" final answers to fit on (--min-segment): follows the one schedule.")})
	}
	if a := s.Allocation; !s.PerSegment && a.Costs != nil {
		t.Points = append(t.Points, Sentence{plain("Budget shared at one price: the last request per item buys "),
			shown("by.budget.price", a.Price, strconv.FormatFloat(a.Price, 'g', 3, 64)+" s"),
			plain(" of lag per item in every segment above its cheapest fit (--budget-per-segment gives each the budget itself).")})
	}
	t.Points = append(t.Points, segmentingSentence(s))
	return t
}

// segmentRow is the figures of a replayed row, under key, and its
// schedule, under skey.
func segmentRow(name, key string, r fit.Row, skey string, s *schedule.Schedule) SegmentRow {
	give := plain("never")
	if r.Horizon > 0 {
		give = shown(key+".horizon_s", r.Horizon.Seconds(), schedule.FormatDuration(r.Horizon))
	}
	text := schedule.Format(s)
	return SegmentRow{Name: name, Lag: ageFig(key+".lag_s.mean", r.Lag.Mean), P95: ageFig(key+".lag_s.p95", r.Lag.P95),
		Req: numFig(key+".requests_per_item", r.RequestsPerItem), Stuck: shown(key+".stuck_asks", r.Stuck, count(r.Stuck)),
		Missed: shown(key+".missed_share", r.MissedShare, percent(r.MissedShare)), GiveUp: give,
		Schedule: Part{Text: text, Figs: []Fig{{skey, text}}, Code: true}}
}

// segmentsLead says how the budget was given out.
func segmentsLead(by string, s *fit.SegmentStudy) Sentence {
	lead := Sentence{plain("Or ship one schedule per value of " + by + ", ")}
	b := shown("by.budget.requests_per_item", s.Budget, strconv.FormatFloat(s.Budget, 'g', 4, 64))
	if s.PerSegment {
		return append(lead, plain("each at "), b, plain(" requests per item (--budget-per-segment):"))
	}
	return append(lead, b, plain(" requests per item on average, shared where the next request buys the most lag:"))
}

// segmentingSentence compares the segments' schedules with the one
// schedule, as fit --by's last line does.
func segmentingSentence(s *fit.SegmentStudy) Sentence {
	t, o := s.Total, s.Shared.Fitted
	ch := s.Change()
	chp := shown("by.change", ch, fit.FormatChange(ch))
	if chp.Figs == nil { // not finite: "no comparable"
		chp = plain(fit.FormatChange(ch))
	}
	lead := plain("Segmenting: ")
	if !s.SameCost() { // as s.Changes() words it
		lead = plain("Segmenting: " + fit.FormatRequestsChange(s.RequestsChange(), fit.Interval{math.NaN(), math.NaN()}) + " and ")
	}
	return Sentence{lead, chp, plain(" mean lag at the same budget ("),
		ageFig("by.total.lag_mean_s", t.LagMean), plain(" against "), ageFig("by.shared.metrics.lag_s.mean", o.Lag.Mean), plain(" for the one schedule, at "),
		numFig("by.total.requests_per_item", t.RequestsPerItem), plain(" against "), numFig("by.shared.metrics.requests_per_item", o.RequestsPerItem),
		plain(" requests per item, on the same "), shown("by.total.items", t.Items, whole(t.Items)), plain(" held-out items).")}
}

// percent is a share as a percentage with one decimal.
func percent(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
