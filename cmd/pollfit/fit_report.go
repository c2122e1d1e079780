package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// fitReport is a fit and everything it is compared with.
type fitReport struct {
	in         *fitIn
	opt        fit.Options
	budgetFrom string // the baseline whose cost is the budget, if any
	res        *fit.Result
	schedule   *schedule.Schedule
	fitted     fit.Metrics
	optimum    fit.Metrics
	continuous *fit.Metrics
	baselines  []fit.Metrics
	matched    []matchedFit
	countBy    []time.Duration
}

// matchedFit is the schedule fitted at a baseline's cost.
type matchedFit struct {
	baseline string
	budget   fit.Budget
	metrics  fit.Metrics
}

func runFit(in *fitIn, opt fit.Options, baselines []namedSchedule, countBy []time.Duration) (*fitReport, error) {
	r := &fitReport{in: in, opt: opt, countBy: countBy}
	if !hasBudget(opt.Budget) {
		b := baselines[0]
		cost, err := r.cost(b.sched, fit.Budget{RequestsPerItem: 1}, opt.Horizon)
		if err != nil {
			return nil, fmt.Errorf("baseline %s: %v", b.name, err)
		}
		r.opt.Budget, r.budgetFrom = cost, b.name
	}
	res, err := r.fit(r.opt)
	if err != nil {
		return nil, err
	}
	r.res, r.schedule = res, res.Schedule
	if r.fitted, err = r.measure("fitted", res.Schedule); err != nil {
		return nil, err
	}
	r.optimum = r.measureAsks("optimum", res.Optimum.Asks)
	if c := res.Continuous; c != nil && in.model != nil {
		m := c.Prediction.Metrics("continuous", nil, res.Horizon, countBy)
		for i, t := range countBy {
			m.AsksBy[i] = float64(searchCount(c.Asks, t.Seconds()))
		}
		r.continuous = &m
	}
	for _, b := range baselines {
		m, err := r.measure(b.name, b.sched)
		if err != nil {
			return nil, fmt.Errorf("baseline %s: %v", b.name, err)
		}
		r.baselines = append(r.baselines, m)
		budget, err := r.cost(b.sched, r.opt.Budget, res.Horizon)
		if err != nil {
			return nil, fmt.Errorf("baseline %s: %v", b.name, err)
		}
		mres := res
		if b.name != r.budgetFrom {
			// The user's horizon, not the one the fit chose: a chosen
			// horizon is the log's largest age, rarely a nice boundary.
			o := r.opt
			o.Budget = budget
			if budget.AsksBy > 0 {
				o.Horizon = 0
			}
			if mres, err = r.fit(o); err != nil {
				return nil, fmt.Errorf("at %s's cost: %v", b.name, err)
			}
		}
		mm, err := r.measure("fitted@"+b.name, mres.Schedule)
		if err != nil {
			return nil, err
		}
		r.matched = append(r.matched, matchedFit{baseline: b.name, budget: budget, metrics: mm})
	}
	return r, nil
}

// fit fits to the model or the fitting items. With smoothing, the exact
// optimum (and the schedule, with --segments 0) is fitted to the smoothed
// density of the items at the horizon the item fit chose.
func (r *fitReport) fit(opt fit.Options) (*fit.Result, error) {
	if r.in.model != nil {
		return fit.Optimal(r.in.model, opt)
	}
	res, err := fit.Fit(r.in.train, opt)
	if err != nil {
		return res, err
	}
	if r.in.smooth {
		r.smoothOptimum(res, opt)
	}
	if err := r.shape(res, opt); err != nil {
		return nil, err
	}
	return res, nil
}

// smoothOptimum fits the exact optimum (and the schedule, with
// --segments 0) to the smoothed density of the fitting items, at the
// horizon the item fit chose; on failure it keeps the fit to the items.
func (r *fitReport) smoothOptimum(res *fit.Result, opt fit.Options) {
	if r.in.density == nil {
		r.in.density = smoothDensity(r.in.train)
	}
	o := opt
	o.Horizon, o.Exact = res.Horizon, true
	if o.Budget.AsksBy > 0 {
		o.Horizon = 0
	}
	sm, err := fit.Optimal(r.in.density, o)
	if err != nil {
		return
	}
	res.Optimum = sm.Optimum
	if opt.Exact {
		res.Schedule = sm.Schedule
	}
}

// smoothDensity is the kernel-smoothed Kaplan–Meier density of items.
func smoothDensity(items []estimate.Item) *estimate.Dist {
	ts := make([]float64, len(items))
	final := make([]bool, len(items))
	for i, it := range items {
		ts[i], final[i] = it.Age, it.Status.Final()
	}
	return estimate.Density(estimate.KaplanMeier(ts, final, nil), estimate.DensityOptions{})
}

// measure replays s on the held-out items, or integrates it on the model.
func (r *fitReport) measure(name string, s *schedule.Schedule) (fit.Metrics, error) {
	h := r.res.Horizon
	if r.in.model != nil {
		p, err := fit.Predict(r.in.model, s, h)
		if err != nil {
			return fit.Metrics{}, err
		}
		return p.Metrics(name, s, h, r.countBy), nil
	}
	if r.opt.Horizon == 0 && !s.Stops() {
		h = 0 // as it runs: to its first ask at or after the last answer
	}
	m, err := fit.Replay(s, r.in.test, fit.ReplayOptions{Horizon: h, AsksBy: r.countBy})
	m.Name = name
	return m, err
}

// measureAsks measures the exact optimum's ask ages.
func (r *fitReport) measureAsks(name string, asks []float64) fit.Metrics {
	var p fit.Prediction
	if r.in.model != nil {
		p = r.res.Optimum.Prediction
	} else {
		p = fit.PredictItems(r.in.test, asks)
	}
	m := p.Metrics(name, nil, r.res.Horizon, r.countBy)
	for i, t := range r.countBy {
		m.AsksBy[i] = float64(searchCount(asks, t.Seconds()))
	}
	if r.in.model == nil {
		m.Items, m.Detected = len(r.in.test), int(math.Round(p.Detected*float64(len(r.in.test))))
	}
	return m
}

func searchCount(asks []float64, t float64) int {
	n := 0
	for _, a := range asks {
		if a <= t {
			n++
		}
	}
	return n
}

// cost is what schedule s spends on the fitting data, as a budget of the
// same kind as like.
func (r *fitReport) cost(s *schedule.Schedule, like fit.Budget, horizon time.Duration) (fit.Budget, error) {
	switch {
	case like.AsksBy > 0:
		return fit.Budget{AsksBy: int(math.Floor(fit.AsksBy(s, like.AsksByAge) + 1e-9)), AsksByAge: like.AsksByAge}, nil
	case like.MaxAttempts > 0:
		return fit.Budget{MaxAttempts: int(math.Floor(fit.AsksBy(s, horizon) + 1e-9))}, nil
	}
	var req float64
	if r.in.model != nil {
		h := horizon
		if h == 0 {
			h = r.modelHorizon(s)
		}
		p, err := fit.Predict(r.in.model, s, h)
		if err != nil {
			return fit.Budget{}, err
		}
		req = p.RequestsPerItem
	} else {
		m, err := fit.Replay(s, r.in.train, fit.ReplayOptions{Horizon: horizon})
		if err != nil {
			return fit.Budget{}, err
		}
		req = m.RequestsPerItem
	}
	return fit.Budget{RequestsPerItem: req}, nil
}

// modelHorizon is the horizon for costing a baseline on a model before
// the fit has chosen one: the baseline's end, or a day.
func (r *fitReport) modelHorizon(s *schedule.Schedule) time.Duration {
	if end, ok := s.End(); ok {
		return end
	}
	return 24 * time.Hour
}

func (r *fitReport) writeText(w io.Writer) {
	fmt.Fprintln(w, schedule.Format(r.schedule))
	fmt.Fprintln(w)
	if r.in.model != nil {
		fmt.Fprintf(w, "fitted to %s; figures are exact integrals\n", r.in.source)
	} else if r.in.holdout > 0 {
		fmt.Fprintf(w, "fitted to %d items of %s, measured on the %d held out (--holdout %g, --seed %d)\n", len(r.in.train), r.in.source, len(r.in.test), r.in.holdout, r.in.seed)
	} else {
		fmt.Fprintf(w, "fitted to and measured on %s\n", r.in.source)
	}
	b := budgetText(r.opt.Budget)
	if r.budgetFrom != "" {
		b += " (" + r.budgetFrom + "'s cost)"
	}
	fmt.Fprintf(w, "budget: %s; objective: %s lag; horizon %s\n\n", b, r.opt.Objective, schedule.FormatDuration(r.res.Horizon))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "name\tlag mean\tp50\tp95\tp99\treq/item"
	for _, d := range r.countBy {
		head += "\tby " + schedule.FormatDuration(d)
	}
	fmt.Fprintln(tw, head+"\t")
	row := func(m fit.Metrics) {
		l := m.Lag
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f", m.Name, secs(l.Mean), secs(l.P50), secs(l.P95), secs(l.P99), m.RequestsPerItem)
		for _, a := range m.AsksBy {
			fmt.Fprintf(tw, "\t%s", count(a))
		}
		fmt.Fprintln(tw, "\t")
	}
	row(r.fitted)
	row(r.optimum)
	if r.continuous != nil {
		row(*r.continuous)
	}
	for i, m := range r.baselines {
		row(m)
		row(r.matched[i].metrics)
	}
	tw.Flush()
	r.writeShapes(w)
	if r.schedule.ResetOnSignal {
		fmt.Fprintln(w, "\nthe fitted schedule resets on signal (the log's signals made it pay); the optimum does not (--signals=false to fit without)")
	}
	for i, m := range r.baselines {
		f := r.matched[i].metrics
		fmt.Fprintf(w, "\nsame cost as %s (%s): %s mean lag (%ss vs %ss)", m.Name, budgetText(r.matched[i].budget), change(f.Lag.Mean, m.Lag.Mean), trim(f.Lag.Mean), trim(m.Lag.Mean))
	}
	if len(r.baselines) > 0 {
		fmt.Fprintln(w)
	}
	for i := range r.matched {
		fmt.Fprintf(w, "fitted@%s: %s\n", r.matched[i].baseline, r.matched[i].metrics.Schedule)
	}
}

// change describes new against old: "12.3% less", "4.0% more".
func change(newv, old float64) string {
	if math.IsNaN(newv) || math.IsNaN(old) || old == 0 {
		return "no comparable"
	}
	d := 100 * (newv - old) / old
	if d <= 0 {
		return fmt.Sprintf("%.1f%% less", -d)
	}
	return fmt.Sprintf("%.1f%% more", d)
}

func trim(x float64) string { return fmt.Sprintf("%.3g", x) }

func (r *fitReport) meta() *export.Meta {
	m := &export.Meta{Source: r.in.source, Budget: budgetText(r.opt.Budget), Metrics: map[string]float64{}}
	put := func(k string, v float64) {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			m.Metrics[k] = v
		}
	}
	put("mean_lag_s", r.fitted.Lag.Mean)
	put("p95_lag_s", r.fitted.Lag.P95)
	put("requests_per_item", r.fitted.RequestsPerItem)
	return m
}
