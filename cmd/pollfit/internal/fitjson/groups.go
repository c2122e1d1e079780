package fitjson

import (
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Groups is the document pollfit fit --by COLUMN --json writes: a
// schedule per value of the column, at a budget shared between them,
// against the one schedule fitted to all values at the same budget.
type Groups struct {
	// Decisions are each value's decision, in the order of Groups.
	Decisions []GroupDecision `json:"decisions"`
	// By is the column.
	By     string      `json:"by"`
	Budget GroupBudget `json:"budget"`
	// MinGroup is the fewest final answers a value is fitted on
	// (--min-group); one with fewer follows the one schedule.
	MinGroup int     `json:"min_segment"`
	Groups   []Group `json:"segments"`
	// Total is the groups' schedules together on all held-out items.
	Total Total `json:"total"`
	// Shared is the one schedule for all values.
	Shared Shared `json:"shared"`
	// Change is Total's mean lag's change against the one schedule's.
	Change  *float64 `json:"change"`
	Holdout Holdout  `json:"holdout"`
	Notes   []string `json:"notes"`
}

// GroupDecision is one value's decision beside its schedule's held-out
// row (Fitted) and the one it is weighed against (Other: its own first
// baseline, the first for all, or the one schedule).
type GroupDecision struct {
	Value string `json:"value"`
	*Decision
	Fitted Row `json:"fitted"`
	Other  Row `json:"other"`
}

// GroupBudget is the budget shared: the requests per item on
// average (each value's own with PerSegment), the price at which it was
// shared, null for none, and what the values' budgets come to on
// average (Spent: RequestsPerItem, unless every value's dearest fit
// costs less than its share, the stuck cap binding in each).
type GroupBudget struct {
	PerGroup        bool     `json:"per_segment"`
	Price           *float64 `json:"price"`
	RequestsPerItem float64  `json:"requests_per_item"`
	Spent           float64  `json:"spent"`
}

// Group is one value: its share of the items, the fitting items and
// final answers it has, its budget, whether it follows the one schedule
// (Fallback), its schedule and that schedule's held-out row.
type Group struct {
	Value    string  `json:"value"`
	Share    float64 `json:"share"`
	FitItems float64 `json:"fit_items"`
	Final    float64 `json:"final"`
	Budget   float64 `json:"budget"`
	Fallback bool    `json:"fallback"`
	Schedule string  `json:"schedule"`
	Row      Row     `json:"metrics"`
}

// Total is fit.Total: the held-out items and the figures of every
// value's schedule on its own.
type Total struct {
	Items           float64  `json:"items"`
	LagMean         *float64 `json:"lag_mean_s"`
	RequestsPerItem *float64 `json:"requests_per_item"`
	Stuck           *float64 `json:"stuck_asks"`
	MissedShare     *float64 `json:"missed_share"`
}

// Shared is the one schedule and its held-out row.
type Shared struct {
	Schedule string `json:"schedule"`
	Row      Row    `json:"metrics"`
}

// NewGroups is the JSON of the study s of a log split by the column
// by, with its notes.
func NewGroups(by string, s *fit.GroupStudy, notes []string) *Groups {
	sh := s.Shared
	out := &Groups{By: by, MinGroup: s.MinFinal,
		Budget: GroupBudget{RequestsPerItem: s.Budget, PerGroup: s.PerGroup, Price: fit.JSONNumber(s.Allocation.Price), Spent: s.BudgetSpent()},
		Total: Total{Items: s.Total.Items, LagMean: fit.JSONNumber(s.Total.LagMean), RequestsPerItem: fit.JSONNumber(s.Total.RequestsPerItem),
			Stuck: fit.JSONNumber(s.Total.Stuck), MissedShare: fit.JSONNumber(s.Total.MissedShare)},
		Shared: Shared{Schedule: schedule.Format(sh.Schedule), Row: NewRow(sh.Fitted)},
		Change: fit.JSONNumber(s.Change()), Notes: append([]string{}, notes...)}
	if sh.FitOn != nil && sh.HeldOut != nil {
		out.Holdout = Holdout{Share: sh.Holdout, Seed: sh.Seed, FitItems: sh.FitOn.Total(), Test: sh.HeldOut.Total()}
	}
	for _, f := range s.Groups {
		out.Decisions = append(out.Decisions, GroupDecision{Value: f.Value, Decision: NewDecision(&f.Decision), Fitted: NewRow(f.Row), Other: NewRow(f.Against)})
		out.Groups = append(out.Groups, Group{Value: f.Value, Share: f.Share, FitItems: f.Items, Final: f.Final,
			Budget: f.Budget, Fallback: f.Fallback, Schedule: schedule.Format(f.Schedule), Row: NewRow(f.Row)})
	}
	return out
}
