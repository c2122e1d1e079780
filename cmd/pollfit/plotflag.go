package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/plot"
	"github.com/pollfit/pollfit/internal/report"
	"github.com/spf13/pflag"
)

// addPlotFlag registers --plot FILE on a command: a picture of its
// result, SVG or PNG by the file's extension.
func addPlotFlag(fs *pflag.FlagSet) *string {
	return fs.String("plot", "", "also draw the result to this file, .svg or .png")
}

// writePlot writes f to path as SVG or PNG, chosen by the extension
// (SVG for "-", which is stdout), never half-written, and over an
// existing file only with force.
func writePlot(path string, force bool, stdout io.Writer, f *plot.Figure) error {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	switch {
	case path == "-":
		format = "svg"
	case format != "svg" && format != "png":
		return usagef("--plot %s: want a .svg or .png file", path)
	}
	return writeOutput(path, force, stdout, func(w io.Writer) error { return f.WriteTo(w, format) })
}

// plotMarks are the deadlines of d and the batch period of acc, if any.
func plotMarks(acc *estimate.Accumulator, d *estimate.Dist) plot.Marks {
	var m plot.Marks
	for _, a := range d.Atoms() {
		m.Deadlines = append(m.Deadlines, a.Age)
	}
	if p := estimate.Periodicity(acc, estimate.PeriodOptions{}); p != nil {
		m.Period = p.Period
	}
	return m
}

// estimatePlot is estimate --plot: the smoothed density on a log-time
// axis, deadlines and the batch period marked.
func estimatePlot(acc *estimate.Accumulator, d *estimate.Dist) *plot.Figure {
	t, f, _, _ := d.Grid()
	return plot.Density(t, f, plotMarks(acc, d))
}

// survivalPlot is the Kaplan–Meier survival of acc with its censoring
// ages and the smooth survival of d.
func survivalPlot(acc *estimate.Accumulator, d *estimate.Dist) *plot.Figure {
	s := acc.Survival()
	var cens []float64
	for i, c := range s.Censored {
		if c > 0 {
			cens = append(cens, s.Time[i])
		}
	}
	t, _, S, _ := d.Grid()
	return plot.Survival(s.Time, s.Surv, cens, t, S, plotMarks(acc, d))
}

// evalPlot is eval --plot: the lag distribution of each replayed
// schedule (ms[i] replays named[i] on items).
func evalPlot(items []estimate.Item, named []namedSchedule, ms []fit.Metrics) *plot.Figure {
	scheds := make([]*schedule.Schedule, len(named))
	for i, n := range named {
		scheds[i] = n.sched
	}
	return plot.Lags(report.LagCurves(ms, scheds, items))
}

// fitPlot is fit --plot: the hazard of d (a smoothed estimate.Dist of
// the log, an estimate.Model, or nil to leave it out) with the ask rates
// of the result (continuous optimum, exact optimum, fitted schedule) and
// the fitted asks as ticks.
func fitPlot(study *fit.StudyResult) *plot.Figure {
	var d fit.Density
	if m, ok := study.Model.(fit.Density); ok {
		d = m
	} else if study.Density != nil {
		d = study.Density
	}
	res := study.Fit
	t, h := hazardGrid(d, res.Horizon.Seconds())
	var curves []plot.Curve
	if c := res.Continuous; c != nil && len(c.Asks) > 1 {
		x, y := plot.AskRate(c.Asks)
		curves = append(curves, plot.Curve{Name: "optimal rate r(t)", X: x, Y: y, Colour: plot.Palette(4)})
	}
	if x, y := plot.AskRate(res.Optimum.Asks); len(x) > 0 {
		curves = append(curves, plot.Curve{Name: "exact optimum (1/gap)", X: x, Y: y, Points: true, Colour: plot.Palette(1)})
	}
	var asks []float64
	if ds, err := res.Schedule.Timeline().Asks(res.Horizon); err == nil {
		for _, a := range ds {
			asks = append(asks, a.Seconds())
		}
	}
	if x, y := plot.AskRate(asks); len(x) > 0 {
		curves = append(curves, plot.Curve{Name: "fitted schedule", X: x, Y: y, Steps: true, Colour: plot.Palette(0)})
	}
	return plot.Hazard(t, h, curves, asks)
}

// hazardGrid tabulates the hazard f/S of d at 400 log-spaced ages up to
// end seconds (four decades), leaving out ages where fewer than 1 in 1000
// items still wait: there f/S divides noise by almost nothing.
func hazardGrid(d fit.Density, end float64) (t, h []float64) {
	switch v := d.(type) {
	case nil:
		return nil, nil
	case *estimate.Dist: // a typed nil is no density either
		if v == nil {
			return nil, nil
		}
	case *estimate.Model:
		if v == nil {
			return nil, nil
		}
	}
	if !(end > 0) {
		return nil, nil
	}
	const n = 400
	for i := 0; i < n; i++ {
		x := end * math.Pow(10, 4*(float64(i)/(n-1)-1))
		if S := 1 - d.CDF(x); S >= 1e-3 {
			t, h = append(t, x), append(h, d.PDF(x)/S)
		}
	}
	return t, h
}

// frontierPlot is frontier --plot: mean lag against requests per item
// for each kind of schedule fit.StudyFrontier sweeps (the limit solid,
// the families dashed), and named schedules (fitted, baselines) as
// labelled points (nil for none).
func frontierPlot(pts []fit.FrontierPoint, points []plot.Point, clauses int) *plot.Figure {
	curves := []plot.Curve{{Name: "limit, asking by age (hindsight)"}, {Name: fmt.Sprintf("fitted, %d clauses", clauses)}, {Name: "fixed interval"}, {Name: "backoff ×2"}, {Name: "backoff ×2, full jitter"}}
	for _, p := range pts {
		for i, pr := range []fit.Prediction{p.Limit, p.Fitted, p.Fixed, p.Backoff, p.Jitter} {
			if !math.IsNaN(pr.RequestsPerItem) && !math.IsNaN(pr.Lag.Mean) {
				curves[i].X = append(curves[i].X, pr.RequestsPerItem)
				curves[i].Y = append(curves[i].Y, pr.Lag.Mean)
			}
		}
	}
	var kept []plot.Curve
	for _, c := range curves {
		if len(c.X) > 0 {
			kept = append(kept, c)
		}
	}
	return plot.Frontier(kept, points)
}
