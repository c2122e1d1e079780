package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// shapesFound is what the estimators found on the fitting items and what
// the shapes made of it in the main fit.
type shapesFound struct {
	deadlines []estimate.Deadline
	period    *estimate.Period
	deadline  *fit.Shape // nil when not tried
	batch     *fit.Shape
}

// findShapes runs the deadline and batch estimators on the fitting items
// once.
func (in *fitIn) findShapes() *shapesFound {
	if in.shapes != nil {
		return in.shapes
	}
	f := &shapesFound{}
	if in.deadlines {
		ts := make([]float64, len(in.train))
		final := make([]bool, len(in.train))
		for i, it := range in.train {
			ts[i], final[i] = it.Age, it.Status.Final()
		}
		f.deadlines = estimate.Deadlines(estimate.KaplanMeier(ts, final, nil), estimate.DeadlineOptions{})
	}
	if in.batches {
		var acc estimate.Accumulator
		for _, it := range in.train {
			acc.Add(it)
		}
		f.period = estimate.Periodicity(&acc, estimate.PeriodOptions{})
	}
	in.shapes = f
	return f
}

// shape adds the shapes that pay to a fit of the items: a burst after
// each deadline, aligned asks after batch boundaries, reset on signal.
// The main fit (the first) records what happened for the report.
func (r *fitReport) shape(res *fit.Result, opt fit.Options) error {
	f := r.in.findShapes()
	main := r.res == nil
	if len(f.deadlines) > 0 {
		sh, err := fit.WithDeadlines(r.in.train, f.deadlines, res, opt)
		if err != nil {
			return fmt.Errorf("deadline burst: %v", err)
		}
		res.Schedule = sh.Schedule
		if main {
			f.deadline = &sh
		}
	}
	if f.period != nil {
		sh, err := fit.WithBatches(r.in.train, f.period, res, opt)
		if err != nil {
			return fmt.Errorf("batch asks: %v", err)
		}
		res.Schedule = sh.Schedule
		if main {
			f.batch = &sh
		}
	}
	if r.in.signals {
		s, _, err := fit.WithSignals(res.Schedule, r.in.train, res.Horizon, opt.Budget)
		if err != nil {
			return err
		}
		res.Schedule = s
	}
	return nil
}

// writeShapes says what the estimators found and whether the shapes paid.
func (r *fitReport) writeShapes(w io.Writer) {
	f := r.in.shapes
	if f == nil {
		return
	}
	if f.deadline != nil {
		var ds []string
		for _, d := range f.deadlines {
			ds = append(ds, fmt.Sprintf("%ss (%.0f%% of items)", trim(d.Age), 100*d.Share))
		}
		fmt.Fprintf(w, "\ndeadline at %s: %s\n", strings.Join(ds, ", "), shapeText(f.deadline, "a burst of asks after it", "deadlines"))
	}
	if f.batch != nil {
		p := f.period
		fmt.Fprintf(w, "\nbatches every %s, answers %ss after the boundary (%.0f%% of answers): %s\n",
			schedule.FormatDuration(time.Duration(math.Round(p.Period*1e9))), trim(p.Phase), 100*p.Share, shapeText(f.batch, "wall-clock aligned asks", "batches"))
	}
}

// shapeText says whether a shape paid, with the lag on the fitting items.
func shapeText(s *fit.Shape, what, flag string) string {
	if s.Shaped.Items == 0 {
		return what + " could not be tried"
	}
	if s.Paid {
		return fmt.Sprintf("%s paid: %ss mean lag instead of %ss at %.2f requests per item (vs %.2f) on the fitting items (--%s=false to fit without)",
			what, trim(s.Shaped.Lag.Mean), trim(s.Plain.Lag.Mean), s.Shaped.RequestsPerItem, s.Plain.RequestsPerItem, flag)
	}
	return fmt.Sprintf("%s did not pay (%ss mean lag at %.2f requests per item vs %ss at %.2f, seeing %d answers vs %d, on the fitting items)",
		what, trim(s.Shaped.Lag.Mean), s.Shaped.RequestsPerItem, trim(s.Plain.Lag.Mean), s.Plain.RequestsPerItem, s.Shaped.Detected, s.Plain.Detected)
}

// json is the shapes part of fit --json:
//
//	{"deadlines": [{"age_s", "share", "width_s"}], "deadline_burst":
//	 {"paid", "plain": <metrics>, "shaped": <metrics>} (absent when not
//	 tried), "period": {"period_s", "phase_s", "share", "p_value"} (null
//	 when none), "batch_asks": {...} (as deadline_burst)}
//
// with metrics replayed on the fitting items.
func (f *shapesFound) json() map[string]any {
	ds := []map[string]float64{}
	for _, d := range f.deadlines {
		ds = append(ds, map[string]float64{"age_s": d.Age, "share": d.Share, "width_s": d.Width})
	}
	out := map[string]any{"deadlines": ds, "period": nil}
	if p := f.period; p != nil {
		out["period"] = map[string]float64{"period_s": p.Period, "phase_s": p.Phase, "share": p.Share, "p_value": p.PValue}
	}
	shape := func(s *fit.Shape) map[string]any {
		m := map[string]any{"paid": s.Paid, "plain": s.Plain, "shaped": nil}
		if s.Shaped.Items > 0 {
			m["shaped"] = s.Shaped
		}
		return m
	}
	if f.deadline != nil {
		out["deadline_burst"] = shape(f.deadline)
	}
	if f.batch != nil {
		out["batch_asks"] = shape(f.batch)
	}
	return out
}
