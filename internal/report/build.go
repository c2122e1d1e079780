package report

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/plot"
)

// Baseline is a schedule to compare with the fitted one.
type Baseline struct {
	Name     string
	Schedule *schedule.Schedule
}

// Options are the settings of Build. The zero value needs a budget
// (Fit.Budget) or a baseline.
type Options struct {
	// Title, Inputs and Command are copied to the report.
	Title   string
	Inputs  []string
	Command string
	// Fit are the optimiser's settings. With no budget set, the fit
	// spends what the first baseline spends on the fitting items: its
	// requests per item.
	Fit fit.Options
	// Fitter fits the schedule to the fitting items; nil means fit.Fit.
	// pollfit report passes pollfit fit's own steps (the optimum on the
	// smoothed density, deadline bursts, batch asks, reset on signal), so
	// that the report shows the schedule pollfit fit ships.
	Fitter func(items []estimate.Item, opt fit.Options) (*fit.Result, error)
	// Baselines are replayed and drawn next to the fit.
	Baselines []Baseline
	// Holdout is the share of items set aside, by a seeded random split,
	// to measure the schedules on; the fit and the estimates use the
	// rest. 0 fits and measures on all items.
	Holdout float64
	// Seed seeds the hold-out split.
	Seed uint64
	// FrontierPoints is the number of budgets on the frontier (default 7).
	FrontierPoints int
	// AsksBy are ages at which the table counts the asks to an item that
	// never settles (none by default).
	AsksBy []time.Duration
}

// Build estimates the settle-time distribution of items, fits a schedule,
// replays it with its optimum and the baselines, and assembles the
// report's pictures and tables.
func Build(items []estimate.Item, opt Options) (*Report, error) {
	if len(items) == 0 {
		return nil, errors.New("report: no items")
	}
	if !(opt.Holdout >= 0 && opt.Holdout < 1) {
		return nil, fmt.Errorf("report: hold-out share %g: want 0 ≤ share < 1", opt.Holdout)
	}
	r := &Report{Title: opt.Title, Inputs: opt.Inputs, Command: opt.Command}
	train, test := split(items, opt.Holdout, opt.Seed)
	if len(train) == 0 || len(test) == 0 {
		r.Warnings = append(r.Warnings, "too few items to hold any out; measuring on the fitting items")
		opt.Holdout = 0
		train, test = items, items
	}
	b := &builder{r: r, opt: opt, train: train, test: test}
	b.estimate()
	if err := b.fit(); err != nil {
		return nil, err
	}
	if err := b.replayBaselines(); err != nil {
		return nil, err
	}
	b.frontier()
	b.assemble()
	return r, nil
}

// builder carries a report's intermediate results.
type builder struct {
	r           *Report
	opt         Options
	train, test []estimate.Item

	acc    estimate.Accumulator
	km     *estimate.Survival
	dist   *estimate.Dist
	period *estimate.Period

	res        *fit.Result
	fitted     *schedule.Schedule
	optimum    *schedule.Schedule
	metrics    []fit.Metrics // fitted, optimum, baselines
	scheds     []*schedule.Schedule
	front      []plot.Curve // frontier: the optimum first, then families
	continuous []float64    // continuous-rate asks, if any
}

// split sets aside a share h of items with fit.Split, so that a seed
// holds out the same items as pollfit fit --holdout does; with h = 0 both
// sets are all the items.
func split(items []estimate.Item, h float64, seed uint64) (train, test []estimate.Item) {
	if h == 0 {
		return items, items
	}
	return fit.Split(items, h, seed)
}

// estimate computes the Kaplan–Meier estimate, the smoothed density,
// deadlines and the batch period from the training items.
func (b *builder) estimate() {
	for _, it := range b.train {
		b.acc.Add(it)
	}
	b.km = b.acc.Survival()
	b.dist = estimate.Density(b.km, estimate.DensityOptions{})
	b.r.Warnings = append(b.r.Warnings, b.dist.Warnings...)
	b.period = estimate.Periodicity(&b.acc, estimate.PeriodOptions{})
}

// horizon is the horizon a schedule is measured at, as pollfit fit
// measures it: the fit's, except that a schedule that never stops runs
// as it would (to its first ask at or after the last answer) when no
// horizon was given.
func (b *builder) horizon(s *schedule.Schedule) time.Duration {
	if b.opt.Fit.Horizon == 0 && !s.Stops() {
		return 0
	}
	return b.res.Horizon
}

// replayBaselines measures each baseline on the test items, after the
// fitted schedule and its optimum.
func (b *builder) replayBaselines() error {
	for _, bl := range b.opt.Baselines {
		m, err := fit.Replay(bl.Schedule, b.test, fit.ReplayOptions{Horizon: b.horizon(bl.Schedule), AsksBy: b.opt.AsksBy})
		if err != nil {
			return fmt.Errorf("report: baseline %s: %w", bl.Name, err)
		}
		m.Name = bl.Name
		b.metrics = append(b.metrics, m)
		b.scheds = append(b.scheds, bl.Schedule)
	}
	return nil
}

// fit fits the schedule on the training items and replays it and its
// exact optimum on the test items.
func (b *builder) fit() error {
	o := b.opt.Fit
	if o.Budget == (fit.Budget{}) {
		if len(b.opt.Baselines) == 0 {
			return errors.New("report: no budget and no baseline to take one from")
		}
		bl := b.opt.Baselines[0]
		m, err := fit.Replay(bl.Schedule, b.train, fit.ReplayOptions{Horizon: o.Horizon})
		if err != nil {
			return fmt.Errorf("report: baseline %s: %w", bl.Name, err)
		}
		o.Budget.RequestsPerItem = max(1, m.RequestsPerItem)
		b.r.Warnings = append(b.r.Warnings, fmt.Sprintf("no budget given: the fit spends what baseline %s spends, %.2f requests per item", bl.Name, o.Budget.RequestsPerItem))
	}
	b.opt.Fit = o
	fitter := b.opt.Fitter
	if fitter == nil {
		fitter = fit.Fit
	}
	res, err := fitter(b.train, o)
	if err != nil {
		return fmt.Errorf("report: fit: %w", err)
	}
	b.res, b.fitted = res, res.Schedule
	b.optimum = askSchedule(res.Optimum.Asks)
	fm, err := fit.Replay(b.fitted, b.test, fit.ReplayOptions{Horizon: b.horizon(b.fitted), AsksBy: b.opt.AsksBy})
	if err != nil {
		return fmt.Errorf("report: replay the fitted schedule: %w", err)
	}
	fm.Name = "fitted"
	b.metrics, b.scheds = []fit.Metrics{fm}, []*schedule.Schedule{b.fitted}
	if b.optimum != nil {
		if om, err := fit.Replay(b.optimum, b.test, fit.ReplayOptions{AsksBy: b.opt.AsksBy}); err == nil {
			om.Name = "optimum"
			b.metrics, b.scheds = append(b.metrics, om), append(b.scheds, b.optimum)
		}
	}
	// The continuous rate needs a smooth density and a horizon.
	co := o
	co.Exact = true // the rate is wanted, not a quantised schedule
	if co.Budget.AsksBy == 0 {
		co.Horizon = res.Horizon
	}
	if cr, err := fit.Optimal(b.dist, co); err == nil && cr.Continuous != nil {
		b.continuous = cr.Continuous.Asks
	}
	return nil
}

// askSchedule is the schedule asking at the given ages (seconds), to the
// millisecond; nil if they do not make one.
func askSchedule(asks []float64) *schedule.Schedule {
	var at []time.Duration
	for _, a := range asks {
		d := time.Duration(math.Round(a*1e3)) * time.Millisecond
		if len(at) == 0 || d > at[len(at)-1] {
			at = append(at, d)
		}
	}
	if len(at) == 0 {
		return nil
	}
	s := &schedule.Schedule{Clauses: []schedule.Clause{{At: at}}}
	if s.Validate() != nil {
		return nil
	}
	return s
}

// frontier sweeps budgets around the fitted schedule's cost with
// fit.Frontier on the items the schedules are measured on, for the
// fixed-interval and backoff families at the same costs. The exact
// optimum's curve is fit.Frontier's too without a hold-out; with one, it
// is the optimum fitted on the training items at a sweep of prices and
// replayed on the held-out ones, like every schedule in the report (an
// optimum computed on the held-out items themselves would be a bound no
// fit can reach: it knows their answers).
func (b *builder) frontier() {
	n := b.opt.FrontierPoints
	if n <= 0 {
		n = 7
	}
	base := max(b.metrics[0].RequestsPerItem, 1.5)
	var budgets []float64
	for k := 0; k < n; k++ {
		if v := base * math.Pow(2, (float64(k)-float64(n-1)/2)/2); v >= 1.05 {
			budgets = append(budgets, v)
		}
	}
	o := b.opt.Fit
	o.Budget = fit.Budget{}
	o.Horizon = b.res.Horizon
	pts, err := fit.Frontier(nil, b.test, budgets, o, b.opt.Seed)
	if err != nil {
		b.r.Warnings = append(b.r.Warnings, fmt.Sprintf("frontier: %v", err))
		return
	}
	curves := []plot.Curve{{Name: "exact optimum"}, {Name: "fixed interval"}, {Name: "backoff ×2"}, {Name: "backoff ×2, full jitter"}}
	for _, p := range pts {
		for i, pr := range []fit.Prediction{p.Optimum, p.Fixed, p.Backoff, p.Jitter} {
			if !math.IsNaN(pr.RequestsPerItem) && !math.IsNaN(pr.Lag.Mean) {
				curves[i].X = append(curves[i].X, pr.RequestsPerItem)
				curves[i].Y = append(curves[i].Y, pr.Lag.Mean)
			}
		}
	}
	if b.opt.Holdout > 0 {
		curves[0].X, curves[0].Y = b.replayedOptima(n)
	}
	for _, c := range curves {
		if len(c.X) > 0 {
			sortCurve(c)
			b.front = append(b.front, c)
		}
	}
}

// replayedOptima fits the exact optimum on the training items at n
// prices around the fitted schedule's and replays each on the test items:
// requests per item and mean lag.
func (b *builder) replayedOptima(n int) (cost, wait []float64) {
	fm := b.metrics[0]
	scale := fm.Lag.Mean / max(fm.RequestsPerItem, 1)
	if !(scale > 0) {
		scale = 1
	}
	for k := 0; k < n; k++ {
		o := b.opt.Fit
		o.Budget = fit.Budget{Price: scale * math.Pow(2, float64(k)-float64(n-1)/2)}
		o.Exact = true // only the optimum is wanted: no quantising
		if ab := b.opt.Fit.Budget; ab.AsksBy > 0 {
			o.Horizon = ab.AsksByAge
		}
		res, err := fit.Fit(b.train, o)
		if err != nil {
			continue
		}
		s := askSchedule(res.Optimum.Asks)
		if s == nil {
			continue
		}
		m, err := fit.Replay(s, b.test, fit.ReplayOptions{Horizon: res.Horizon})
		if err == nil && !math.IsNaN(m.Lag.Mean) {
			cost, wait = append(cost, m.RequestsPerItem), append(wait, m.Lag.Mean)
		}
	}
	return cost, wait
}

// sortCurve sorts a curve's points by x.
func sortCurve(c plot.Curve) {
	for i := 1; i < len(c.X); i++ {
		for j := i; j > 0 && c.X[j] < c.X[j-1]; j-- {
			c.X[j], c.X[j-1] = c.X[j-1], c.X[j]
			c.Y[j], c.Y[j-1] = c.Y[j-1], c.Y[j]
		}
	}
}
