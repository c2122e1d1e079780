package fit

import (
	"fmt"

	"github.com/pollfit/pollfit/estimate"
)

// Shapes is what the estimators found on the fitting items and what the
// shapes made of it in the main fit.
type Shapes struct {
	// Deadlines and Period are what estimate.Deadlines and
	// estimate.Periodicity found (none when the shape was turned off).
	Deadlines []estimate.Deadline
	Period    *estimate.Period
	// Deadline and Batch are the outcomes of the burst after the
	// deadlines and the aligned asks, nil when not tried.
	Deadline, Batch *Shape
	// Signals reports whether reset on signal paid and was kept.
	Signals bool
	// OverCap names a shape that paid but asked a stuck item more than
	// the stuck cap allows, and so was dropped: ShapeDeadline or
	// ShapeBatch.
	OverCap []string
}

// The names of the shapes in Shapes.OverCap.
const (
	ShapeDeadline = "deadline burst"
	ShapeBatch    = "batch asks"
)

// findShapes is what the deadline and batch estimators found on the
// fitting items, run once: a copy of their findings for the study's
// result, which its main fit writes what the shapes made of them into,
// so that the findings themselves stay as found (the report's frontier
// takes its own copy while the main fit runs).
func (st *study) findShapes() *Shapes {
	if st.res.Shapes == nil {
		if st.shapes == nil {
			st.startShapes()
		}
		<-st.shapes
		found := *st.found
		st.res.Shapes = &found
	}
	return st.res.Shapes
}

// startShapes runs the estimators on their own goroutine, so that they
// overlap the density estimate and the first fit, which do not need
// them; they only read the fitting items and their Kaplan–Meier
// estimate. What they find is written where st.found points, set
// before they start, so that a copy of the study made meanwhile (the
// report's frontier's) reads the pointer without a race, and what it
// points to once st.shapes is closed.
func (st *study) startShapes() {
	st.shapes, st.found = make(chan struct{}), &Shapes{}
	go func() {
		defer close(st.shapes)
		*st.found = *st.estimateShapes()
	}()
}

// estimateShapes runs the deadline and batch estimators.
func (st *study) estimateShapes() *Shapes {
	f := &Shapes{}
	if !st.opt.NoDeadlines {
		f.Deadlines = st.smoother().Deadlines()
	}
	if !st.opt.NoBatches {
		var acc estimate.Accumulator
		for i, it := range st.train.Items {
			acc.AddPhase(it, st.train.Weight(i)) // all Periodicity reads
		}
		f.Period = estimate.Periodicity(&acc, estimate.PeriodOptions{})
	}
	return f
}

// shape adds the shapes that pay to a fit of the items: a burst after
// each deadline, aligned asks after batch boundaries, reset on signal.
// A shape that asks a stuck item more often than the cap allows is left
// out. The main fit (the first, not a point of a frontier or of a
// group's curve) records what happened, measured in full.
func (st *study) shape(res *Result, opt Options) error {
	f := st.findShapes()
	main := st.isMain()
	within := func(name string, sh Shape) bool {
		ok := opt.StuckAsks <= 0 || AsksBy(sh.Schedule, res.Horizon) <= float64(opt.StuckAsks)+1e-9
		if !ok && main && sh.Paid {
			f.OverCap = append(f.OverCap, name)
		}
		return ok
	}
	if len(f.Deadlines) > 0 {
		sh, err := withDeadlines(st.train, f.Deadlines, res, opt, main)
		if err != nil {
			return fmt.Errorf("deadline burst: %w", err)
		}
		if within(ShapeDeadline, sh) {
			res.Schedule = sh.Schedule
		}
		if main {
			f.Deadline = &sh
		}
	}
	if f.Period != nil {
		sh, err := withBatches(st.train, f.Period, res, opt, main)
		if err != nil {
			return fmt.Errorf("batch asks: %w", err)
		}
		if within(ShapeBatch, sh) {
			res.Schedule = sh.Schedule
		}
		if main {
			f.Batch = &sh
		}
	}
	if !st.opt.NoSignals {
		s, ok, err := WithSignals(res.Schedule, st.train, res.Horizon, opt.Budget)
		if err != nil {
			return err
		}
		res.Schedule = s
		if main {
			f.Signals = ok
		}
	}
	return nil
}
