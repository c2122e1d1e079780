package main

import (
	"io"
	"math"

	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// The JSON of pollfit fit:
//
//	{"decision": {"against", "requests_change", "requests_change_ci", "lag_change", "lag_change_ci", "sentence"} (null without a baseline),
//	 "schedule": "<DSL>",
//	 "give_up": {"age_s", "share", "share_of", "reason", "never"},
//	 "budget": {"objective", "requests_per_item" | "asks_by" | "max_attempts" | "price", "from_baseline"},
//	 "stuck_cap": {"asks", "reason"},
//	 "fitted": <row>, "limit": <row>, "limit_note": "...",
//	 "exact_fit": <row> (a log), "continuous": <row> (a model),
//	 "baselines": [<row>], "at_baseline_cost": [<row>],
//	 "comparisons": [{"name", "budget", "stuck_cap", "equal_cost_lag_s", "change", "change_ci", "requests_change",
//	                  "same_cost", "interpolated", "no_bracket", "bracket": [<row>, <row>], "same_lag"}],
//	 "holdout": {"share", "seed", "fit_items", "test_items"} (null for a model),
//	 "shapes": {...} (a log),
//	 "smoothing": {"bandwidth_log", "rule", "factor"} (a log, unless --smooth=false),
//	 "explore": {"fraction", "lag_mean_s", "explored_lag_mean_s", "lag_change", "requests_per_item",
//	             "explored_requests_per_item", "requests_change", "sentence"} (with --explore),
//	 "notes": [...]}
//
// with rows in eval's shape plus "stuck_asks" and "missed_share"
// (fit.Row.MarshalJSON).
type fitJSON struct {
	Decision    *decisionJSON    `json:"decision"`
	Schedule    string           `json:"schedule"`
	GiveUp      giveUpJSON       `json:"give_up"`
	Budget      budgetJSON       `json:"budget"`
	StuckCap    stuckJSON        `json:"stuck_cap"`
	Fitted      fit.Row          `json:"fitted"`
	Limit       *fit.Row         `json:"limit"` // null where not computed (interval-censored input)
	LimitNote   string           `json:"limit_note"`
	ExactFit    *fit.Row         `json:"exact_fit,omitempty"`
	Continuous  *fit.Row         `json:"continuous,omitempty"`
	Baselines   []fit.Row        `json:"baselines"`
	AtCost      []fit.Row        `json:"at_baseline_cost"`
	Comparisons []comparisonJSON `json:"comparisons"`
	Holdout     *holdoutJSON     `json:"holdout"`
	Shapes      *shapesJSON      `json:"shapes,omitempty"`
	Library     *libraryJSON     `json:"library,omitempty"`
	Smoothing   *smoothingJSON   `json:"smoothing,omitempty"`
	Explore     *exploreJSON     `json:"explore,omitempty"`
	Notes       []string         `json:"notes"`
}

// smoothingJSON is fit.Smoothing.
type smoothingJSON struct {
	Bandwidth float64 `json:"bandwidth_log"`
	Rule      string  `json:"rule"`
	Factor    float64 `json:"factor"`
}

type giveUpJSON struct {
	Age    *float64 `json:"age_s"`
	Share  *float64 `json:"share"`
	Of     string   `json:"share_of"`
	Reason string   `json:"reason"`
	Never  bool     `json:"never"`
}

type stuckJSON struct {
	Asks   int    `json:"asks"`
	Reason string `json:"reason"`
}

type comparisonJSON struct {
	Name         string       `json:"name"`
	Budget       budgetJSON   `json:"budget"`
	StuckCap     int          `json:"stuck_cap"`
	EqualCostLag *float64     `json:"equal_cost_lag_s"`
	Change       *float64     `json:"change"`
	ChangeCI     *[2]*float64 `json:"change_ci,omitempty"`
	Requests     *float64     `json:"requests_change"`
	SameCost     bool         `json:"same_cost"`
	Interpolated bool         `json:"interpolated"`
	NoBracket    bool         `json:"no_bracket"`
	Bracket      []fit.Row    `json:"bracket,omitempty"`
	SameLag      *sameLagJSON `json:"same_lag"`
}

// decisionJSON is fit.Decision, with its sentence.
type decisionJSON struct {
	Against    string       `json:"against"`
	Requests   *float64     `json:"requests_change"`
	RequestsCI *[2]*float64 `json:"requests_change_ci"`
	Lag        *float64     `json:"lag_change"`
	LagCI      *[2]*float64 `json:"lag_change_ci"`
	Sentence   string       `json:"sentence"`
}

// newDecisionJSON is d in JSON, nil for none; the intervals null
// without a bootstrap.
func newDecisionJSON(d *fit.Decision) *decisionJSON {
	if d == nil {
		return nil
	}
	ci := func(c fit.Interval) *[2]*float64 {
		if c[0] != c[0] {
			return nil
		}
		return &[2]*float64{fit.JSONNumber(c[0]), fit.JSONNumber(c[1])}
	}
	return &decisionJSON{d.Against, fit.JSONNumber(d.RequestsChange), ci(d.RequestsCI), fit.JSONNumber(d.LagChange), ci(d.LagCI), d.String()}
}

// sameLagJSON is the cheapest fitted schedule as slow as the baseline.
type sameLagJSON struct {
	Schedule string   `json:"schedule"`
	Row      fit.Row  `json:"metrics"`
	Saving   *float64 `json:"saving"`
}

type holdoutJSON struct {
	Share    float64 `json:"share"`
	Seed     uint64  `json:"seed"`
	FitItems float64 `json:"fit_items"`
	Test     float64 `json:"test_items"`
}

func (r *fitReport) writeJSON(w io.Writer) error {
	res := r.res
	out := fitJSON{Decision: newDecisionJSON(res.Decision), Schedule: schedule.Format(res.Schedule), Budget: newBudgetJSON(res.Budget, res.Objective, res.BudgetFrom),
		StuckCap: stuckJSON{res.StuckCap, res.StuckCapReason}, Fitted: res.Fitted, Limit: limitJSON(res), LimitNote: res.LimitNote,
		ExactFit: res.ExactFit, Continuous: res.Continuous, Baselines: []fit.Row{}, AtCost: []fit.Row{}, Comparisons: []comparisonJSON{},
		Explore: newExploreJSON(r.explore), Notes: append([]string{}, res.Notes...)}
	out.GiveUp = giveUpJSON{Reason: res.GiveUp.Reason, Of: res.GiveUp.Of, Never: res.Never}
	if !res.Never {
		out.GiveUp.Age, out.GiveUp.Share = fit.JSONNumber(res.GiveUp.Age.Seconds()), fit.JSONNumber(res.GiveUp.Share)
	}
	for _, c := range res.Baselines {
		out.Baselines = append(out.Baselines, c.Baseline)
		out.AtCost = append(out.AtCost, c.Fitted)
		cj := comparisonJSON{Name: c.Name, Budget: newBudgetJSON(c.Budget, res.Objective, ""),
			StuckCap: c.StuckCap, EqualCostLag: fit.JSONNumber(c.EqualCostLag), Change: fit.JSONNumber(c.Change),
			Requests: fit.JSONNumber(c.RequestsChange), SameCost: c.SameCost, Interpolated: c.Interpolated, NoBracket: c.NoBracket, Bracket: c.Bracket}
		if res.Bootstrap > 0 {
			cj.ChangeCI = &[2]*float64{fit.JSONNumber(c.ChangeCI[0]), fit.JSONNumber(c.ChangeCI[1])}
		}
		if c.SameLag != nil {
			cj.SameLag = &sameLagJSON{schedule.Format(c.SameLagSchedule), *c.SameLag, fit.JSONNumber(c.Saving)}
		}
		out.Comparisons = append(out.Comparisons, cj)
	}
	if l := res.Library; l != nil {
		out.Library = &libraryJSON{l.Family, l.Client.Name, l.Strategy.String(), l.Tried, l.Fitted, fit.JSONNumber(l.WaitLag)}
	}
	if res.Model == nil {
		out.Holdout = &holdoutJSON{res.Holdout, res.Seed, res.FitOn.Total(), res.HeldOut.Total()}
		out.Shapes = newShapesJSON(res.Shapes)
	}
	if sm := res.Smoothing; sm != nil {
		out.Smoothing = &smoothingJSON{sm.Bandwidth, sm.Rule, sm.Factor}
	}
	return writeJSON(w, out)
}

// libraryJSON is the best member of a library family; grpc_client is
// the client whose timing the grpc family models.
type libraryJSON struct {
	Family   string   `json:"family"`
	Client   string   `json:"grpc_client,omitempty"`
	Strategy string   `json:"strategy"`
	Tried    int      `json:"tried"`
	Row      fit.Row  `json:"metrics"`
	WaitLag  *float64 `json:"wait_with_missed_s"`
}

// budgetJSON is a budget as JSON: the objective, the one cap set
// (requests_per_item, asks_by, max_attempts or price) and, when the
// budget is a baseline's cost, from_baseline.
type budgetJSON struct {
	Objective       string      `json:"objective"`
	RequestsPerItem *float64    `json:"requests_per_item,omitempty"`
	AsksBy          *asksByJSON `json:"asks_by,omitempty"`
	MaxAttempts     *int        `json:"max_attempts,omitempty"`
	Price           *float64    `json:"price,omitempty"`
	FromBaseline    string      `json:"from_baseline,omitempty"`
}

// asksByJSON is an asks-by budget: asks by age_s seconds.
type asksByJSON struct {
	Asks int     `json:"asks"`
	Age  float64 `json:"age_s"`
}

func newBudgetJSON(b fit.Budget, obj fit.Objective, from string) budgetJSON {
	out := budgetJSON{Objective: obj.String(), FromBaseline: from}
	switch b.Kind() {
	case fit.BudgetRequests:
		out.RequestsPerItem = &b.RequestsPerItem
	case fit.BudgetAsksBy:
		out.AsksBy = &asksByJSON{b.AsksBy, b.AsksByAge.Seconds()}
	case fit.BudgetMaxAttempts:
		out.MaxAttempts = &b.MaxAttempts
	default:
		out.Price = &b.Price
	}
	return out
}

// shapesJSON is what the estimators found and whether the shapes paid,
// with metrics replayed on the fitting items.
type shapesJSON struct {
	Deadlines []deadlineJSON `json:"deadlines"`
	Period    *periodJSON    `json:"period"`
	Deadline  *shapeJSON     `json:"deadline_burst,omitempty"`
	Batch     *shapeJSON     `json:"batch_asks,omitempty"`
	Signals   bool           `json:"reset_on_signal"`
	OverCap   []string       `json:"over_stuck_cap"`
}

type shapeJSON struct {
	Paid   bool         `json:"paid"`
	Plain  fit.Metrics  `json:"plain"`
	Shaped *fit.Metrics `json:"shaped"`
}

func newShapesJSON(f *fit.Shapes) *shapesJSON {
	if f == nil {
		return nil
	}
	out := &shapesJSON{Deadlines: []deadlineJSON{}, Signals: f.Signals, OverCap: append([]string{}, f.OverCap...)}
	for _, d := range f.Deadlines {
		out.Deadlines = append(out.Deadlines, deadlineJSON{Age: d.Age, Share: d.Share, Width: d.Width})
	}
	if p := f.Period; p != nil {
		out.Period = &periodJSON{p.Period, p.Phase, p.Share, p.PValue}
	}
	shape := func(s *fit.Shape) *shapeJSON {
		if s == nil {
			return nil
		}
		j := &shapeJSON{Paid: s.Paid, Plain: s.Plain}
		if s.Shaped.Items > 0 {
			j.Shaped = &s.Shaped
		}
		return j
	}
	out.Deadline, out.Batch = shape(f.Deadline), shape(f.Batch)
	return out
}

// limitJSON is the limit row, nil where the study could not compute it
// (StudyOptions.NoLimit: its figures are NaN, which JSON cannot hold).
func limitJSON(res *fit.StudyResult) *fit.Row {
	if math.IsNaN(res.Limit.RequestsPerItem) {
		return nil
	}
	l := res.Limit
	return &l
}
