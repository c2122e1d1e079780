// Package fitjson is the schema of pollfit fit --json: the types it
// writes, top level (Fit) and nested, their doc comments the schema's
// manual, built from a study's result by New. pollfit fit --json writes
// a Fit; pollfit report reads its figures by field, and names where
// each is in the JSON by Path, so that the two cannot drift apart.
//
// Every figure that may be undefined (NaN, an infinity) is a pointer,
// null in the JSON. Rows are in eval's shape (Row).
package fitjson

// Fit is the document pollfit fit --json writes (after the
// "pollfit_version" key every pollfit JSON opens with).
type Fit struct {
	// Decision is what shipping the fitted schedule changes against
	// today's (the first baseline's), on the held-out items; null
	// without a baseline.
	Decision *Decision `json:"decision"`
	// Schedule is the schedule to ship, in the schedule language.
	Schedule string `json:"schedule"`
	// FirstAsk is the schedule to ship's first ask, and what it sees.
	FirstAsk FirstAsk `json:"first_ask"`
	// GiveUp is the give-up age every row is replayed and costed to.
	GiveUp GiveUp `json:"give_up"`
	// Budget is what the fit spends.
	Budget Budget `json:"budget"`
	// StuckCap caps the fitted schedule's stuck cost.
	StuckCap StuckCap `json:"stuck_cap"`
	// Fitted is the schedule to ship, replayed on the held-out items.
	Fitted Row `json:"fitted"`
	// Limit is the hindsight optimum on the held-out items at Fitted's
	// cost; null where not computed (interval-censored input).
	Limit *Row `json:"limit"`
	// LimitNote says what the limit covers.
	LimitNote string `json:"limit_note"`
	// ExactFit is the exact ask ages fitted (a log only).
	ExactFit *Row `json:"exact_fit,omitempty"`
	// Continuous is the fit on the model's continuous density (a model
	// only).
	Continuous *Row `json:"continuous,omitempty"`
	// Baselines are today's schedules (--baseline) replayed; AtCost[i]
	// is the fit at Baselines[i]'s cost on the fitting items.
	Baselines []Row `json:"baselines"`
	AtCost    []Row `json:"at_baseline_cost"`
	// Comparisons are the fit against each baseline, in their order.
	Comparisons []Comparison `json:"comparisons"`
	// Holdout is the split into fitting and held-out items; null for a
	// model.
	Holdout *Holdout `json:"holdout"`
	// Shapes are what the estimators found and whether the shapes paid
	// (a log only).
	Shapes *Shapes `json:"shapes,omitempty"`
	// Library is the best member of a library family (--family).
	Library *Library `json:"library,omitempty"`
	// Smoothing is the density's smoothing (a log, unless
	// --smooth=false).
	Smoothing *Smoothing `json:"smoothing,omitempty"`
	// Explore is what exploring costs (--explore).
	Explore *Explore `json:"explore,omitempty"`
	// Notes are what the study says about its input and its figures.
	Notes []string `json:"notes"`
}

// Decision is fit.Decision: the changes in requests per item and mean
// lag (fractions, -0.25 for 25% fewer) with their 95% intervals (null
// without a bootstrap), and the sentence that says them.
type Decision struct {
	// Against names the schedule weighed against.
	Against    string       `json:"against"`
	Requests   *float64     `json:"requests_change"`
	RequestsCI *[2]*float64 `json:"requests_change_ci"`
	Lag        *float64     `json:"lag_change"`
	LagCI      *[2]*float64 `json:"lag_change_ci"`
	Sentence   string       `json:"sentence"`
}

// FirstAsk is the first age-based ask of the schedule to ship: its age
// in seconds (null for a schedule of wall-clock asks only) and the share
// of the held-out items with a final answer by then, the share that
// first ask sees answered (fit.Sample.AnsweredBy; null for a model,
// which has no held-out items).
type FirstAsk struct {
	Age       *float64 `json:"age_s"`
	SeenShare *float64 `json:"seen_share"`
}

// GiveUp is the give-up age: Age in seconds and the share of final
// answers in by then (Share, of ShareOf), null when the schedule never
// stops (Never).
type GiveUp struct {
	Age    *float64 `json:"age_s"`
	Share  *float64 `json:"share"`
	Of     string   `json:"share_of"`
	Reason string   `json:"reason"`
	Never  bool     `json:"never"`
}

// Budget is a budget: the objective and the one cap set
// (requests_per_item, asks_by, max_attempts or price) and, when the
// budget is a baseline's cost, FromBaseline, its name.
type Budget struct {
	Objective       string   `json:"objective"`
	RequestsPerItem *float64 `json:"requests_per_item,omitempty"`
	AsksBy          *AsksCap `json:"asks_by,omitempty"`
	MaxAttempts     *int     `json:"max_attempts,omitempty"`
	Price           *float64 `json:"price,omitempty"`
	FromBaseline    string   `json:"from_baseline,omitempty"`
}

// AsksCap is an asks-by budget: at most Asks asks by Age seconds.
type AsksCap struct {
	Asks int     `json:"asks"`
	Age  float64 `json:"age_s"`
}

// StuckCap is the cap on the asks to an item that never answers, and
// why it is what it is.
type StuckCap struct {
	Asks   int    `json:"asks"`
	Reason string `json:"reason"`
}

// Comparison is fit.Comparison: the fit against one baseline on the
// same held-out items, at the baseline's cost and at its lag. Budget and
// StuckCap are the baseline's cost and stuck cost on the fitting items,
// which the fit at its cost (Fit.AtCost) honours.
type Comparison struct {
	Name     string `json:"name"`
	Budget   Budget `json:"budget"`
	StuckCap int    `json:"stuck_cap"`
	// EqualCostLag is the fits' mean lag at the baseline's held-out
	// requests per item, in seconds: the fit at its cost's own when the
	// held-out costs agree to 0.5% (SameCost), else read between the two
	// fits of Bracket (Interpolated), never extrapolated; with neither
	// (NoBracket), the fit at its cost's own lag at its own cost.
	EqualCostLag *float64 `json:"equal_cost_lag_s"`
	// Change is EqualCostLag relative to the baseline's mean lag, minus
	// one; ChangeCI its 95% bootstrap interval (absent without one).
	Change   *float64     `json:"change"`
	ChangeCI *[2]*float64 `json:"change_ci,omitempty"`
	// Requests is the fit at its cost's held-out requests per item
	// relative to the baseline's, minus one.
	Requests     *float64 `json:"requests_change"`
	SameCost     bool     `json:"same_cost"`
	Interpolated bool     `json:"interpolated"`
	NoBracket    bool     `json:"no_bracket"`
	// Bracket are the two fits EqualCostLag is read between (absent
	// unless Interpolated).
	Bracket []Row `json:"bracket,omitempty"`
	// SameLag is the cheapest fit whose held-out mean lag is no more
	// than the baseline's (a requests budget only); null for none.
	SameLag *SameLag `json:"same_lag"`
}

// SameLag is the cheapest fitted schedule no slower than the baseline,
// replayed, and the share of the baseline's held-out requests it saves.
type SameLag struct {
	Schedule string   `json:"schedule"`
	Row      Row      `json:"metrics"`
	Saving   *float64 `json:"saving"`
}

// Holdout is the split: the share held out, the seed it was drawn
// with, and the items on each side (weighted).
type Holdout struct {
	Share    float64 `json:"share"`
	Seed     uint64  `json:"seed"`
	FitItems float64 `json:"fit_items"`
	Test     float64 `json:"test_items"`
}

// Library is the best member of a library family; Client is the client
// whose timing the grpc family models.
type Library struct {
	Family   string   `json:"family"`
	Client   string   `json:"grpc_client,omitempty"`
	Strategy string   `json:"strategy"`
	Tried    int      `json:"tried"`
	Row      Row      `json:"metrics"`
	WaitLag  *float64 `json:"wait_with_missed_s"`
}

// Smoothing is fit.Smoothing: the density's bandwidth in log-age, the
// rule that chose it and the factor it was scaled by.
type Smoothing struct {
	Bandwidth float64 `json:"bandwidth_log"`
	Rule      string  `json:"rule"`
	Factor    float64 `json:"factor"`
}

// Explore is fit.ExploreCost: the mean lag and requests per item of the
// schedule and of its exploring poller (each ask moved by up to Fraction
// of the gap before it), their changes and the sentence.
type Explore struct {
	Fraction         float64  `json:"fraction"`
	Lag              *float64 `json:"lag_mean_s"`
	ExploredLag      *float64 `json:"explored_lag_mean_s"`
	LagChange        *float64 `json:"lag_change"`
	Requests         *float64 `json:"requests_per_item"`
	ExploredRequests *float64 `json:"explored_requests_per_item"`
	RequestsChange   *float64 `json:"requests_change"`
	Sentence         string   `json:"sentence"`
}

// Shapes is what the estimators found on the fitting items and whether
// the shapes paid, with rows replayed on the fitting items.
type Shapes struct {
	// Deadlines are the spikes of answers estimate.Deadlines found.
	Deadlines []Deadline `json:"deadlines"`
	// Period is the batch period estimate.Periodicity found; null for
	// none.
	Period *Period `json:"period"`
	// Deadline and Batch are the burst after the deadlines and the
	// aligned asks, absent when not tried.
	Deadline *Shape `json:"deadline_burst,omitempty"`
	Batch    *Shape `json:"batch_asks,omitempty"`
	// Signals reports whether reset on signal paid and was kept.
	Signals bool `json:"reset_on_signal"`
	// OverCap names the shapes that paid but asked a stuck item more
	// than the stuck cap allows, and so were dropped.
	OverCap []string `json:"over_stuck_cap"`
}

// Deadline is a spike of answers: its age and the window's width in
// seconds, and the share of all items answered in it.
type Deadline struct {
	Age   float64 `json:"age_s"`
	Share float64 `json:"share"`
	Width float64 `json:"width_s,omitempty"`
}

// Period is a batch period: the period and phase in seconds, the share
// of answers in the batches and the test's p-value.
type Period struct {
	Period float64 `json:"period_s"`
	Phase  float64 `json:"phase_s"`
	Share  float64 `json:"share"`
	PValue float64 `json:"p_value"`
}

// Shape is one shape tried: whether it paid, the plain schedule's row
// and the best shaped one's (null when none could be tried).
type Shape struct {
	Paid   bool `json:"paid"`
	Plain  Row  `json:"plain"`
	Shaped *Row `json:"shaped"`
}
