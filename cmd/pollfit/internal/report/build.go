package report

import (
	"errors"
	"math"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Options are the settings of Build.
type Options struct {
	// Title, Inputs, Command and Version are copied to the report.
	Title   string
	Inputs  []string
	Command string
	Version string
	// Shapes are sentences about the shapes the fit tried, shown as a
	// fact.
	Shapes []string
	// Clauses is the most clauses a fitted schedule has (the fit's
	// Options.Segments; 0 for the exact ask ages), for the frontier's
	// legend.
	Clauses int
}

// Build assembles the report of a fit study: the pictures and tables of
// study (fit.Study's result on a log) and the frontier table front
// (fit.StudyFrontier's on the same log and options), drawn as they are.
// It computes no figure of its own.
func Build(study *fit.StudyResult, front []fit.FrontierPoint, opt Options) (*Report, error) {
	if study == nil || study.FitOn == nil {
		return nil, errors.New("report: no study of a log")
	}
	r := &Report{Title: opt.Title, Inputs: opt.Inputs, Command: opt.Command, Version: opt.Version, Study: study}
	r.Warnings = append(r.Warnings, study.Notes...)
	b := &builder{r: r, opt: opt, study: study, train: study.FitOn.Items, test: study.HeldOut.Items}
	b.estimate()
	b.rows()
	b.front = front
	b.assemble()
	r.Summary = Summarise(study, front)
	return r, nil
}

// builder carries a report's intermediate results.
type builder struct {
	r           *Report
	opt         Options
	study       *fit.StudyResult
	train, test []estimate.Item
	group       bool // one value's study under --by: no frontier of its own

	// pending is the weight of the fitting items still pending when
	// the log was read (censored).
	pending float64
	km      *estimate.Survival
	dist    *estimate.Dist
	period  *estimate.Period

	res     *fit.Result
	fitted  *schedule.Schedule
	metrics []fit.Row // the table: fitted, limit, exact (fit), baselines
	lagged  []fit.Metrics
	scheds  []*schedule.Schedule // the schedules of lagged
	front   []fit.FrontierPoint  // the frontier table
}

// estimate takes the Kaplan–Meier estimate, the smoothed density and
// the batch period from the study, and counts the fitting items still
// pending.
func (b *builder) estimate() {
	for i, it := range b.train {
		if !it.Status.Final() {
			b.pending += b.study.FitOn.Weight(i)
		}
	}
	b.km = b.study.Survival
	b.dist = b.study.Density
	if b.dist == nil {
		b.dist = estimate.Density(b.km, estimate.DensityOptions{})
	}
	b.r.Warnings = append(b.r.Warnings, b.dist.Warnings...)
	if b.study.Shapes != nil {
		b.period = b.study.Shapes.Period
	}
}

// rows lays out the study's rows for the table and the lag picture.
func (b *builder) rows() {
	st := b.study
	b.res, b.fitted = st.Fit, st.Schedule
	add := func(r fit.Row, s *schedule.Schedule) {
		b.metrics = append(b.metrics, r)
		if s != nil {
			b.lagged, b.scheds = append(b.lagged, r.Metrics), append(b.scheds, s)
		}
	}
	add(st.Fitted, st.Schedule)
	if !math.IsNaN(st.Limit.RequestsPerItem) { // not computed on intervals
		add(st.Limit, nil)
	}
	if st.ExactFit != nil {
		s, _ := schedule.Parse(st.ExactFit.Schedule)
		add(*st.ExactFit, s)
	}
	for _, c := range st.Baselines {
		s, _ := schedule.Parse(c.Baseline.Schedule)
		add(c.Baseline, s)
		add(c.Fitted, c.Schedule)
	}
}
