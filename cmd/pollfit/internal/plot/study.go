package plot

import (
	"fmt"
	"math"
	"sort"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// The builders of this file draw each of pollfit's pictures from the
// domain values behind it; pollfit's --plot and its HTML report call
// the same one, so a picture is built in one place.

// MarksOf are the deadlines of d (its atoms) with their shares. A batch
// period is not an age, so the age axis does not mark it: PhaseOf draws
// it.
func MarksOf(d *estimate.Dist) Marks {
	var m Marks
	if d != nil {
		for _, a := range d.Atoms() {
			m.Deadlines, m.Shares = append(m.Deadlines, a.Age), append(m.Shares, a.Share)
		}
	}
	return m
}

// DensityOf draws the smoothed density d with its deadlines marked
// (estimate --plot, the report).
func DensityOf(d *estimate.Dist) *Figure {
	t, f, _, _ := d.Grid()
	return Density(t, f, MarksOf(d))
}

// SurvivalOf draws the Kaplan–Meier estimate km with a mark at each
// censoring age and the smooth survival of d.
func SurvivalOf(km *estimate.Survival, d *estimate.Dist) *Figure {
	var cens []float64
	for i, c := range km.Censored {
		if c > 0 {
			cens = append(cens, km.Time[i])
		}
	}
	t, _, S, _ := d.Grid()
	return Survival(km.Time, km.Surv, cens, t, S, MarksOf(d))
}

// HazardOf draws the hazard of the study's distribution (the model, or
// the smoothed density of the log; left out without either) with the
// ask rates of its fit, continuous optimum, exact optimum and fitted
// schedule, and the fitted asks as ticks (fit --plot, the report).
func HazardOf(st *fit.StudyResult) *Figure {
	var d fit.Density
	if m, ok := st.Model.(fit.Density); ok {
		d = m
	} else if st.Density != nil {
		d = st.Density
	}
	res := st.Fit
	t, h := hazardGrid(d, res.Horizon.Seconds())
	var curves []Curve
	if c := res.Continuous; c != nil && len(c.Asks) > 1 {
		x, y := AskRate(c.Asks)
		curves = append(curves, Curve{Name: "optimal rate r(t)", X: x, Y: y, Colour: Palette(4)})
	}
	if x, y := AskRate(res.Optimum.Asks); len(x) > 0 {
		// The exact optimum's gaps scatter around the continuous rate:
		// points read better than a jagged staircase.
		curves = append(curves, Curve{Name: "exact optimum (1/gap)", X: x, Y: y, Points: true, Colour: Palette(1)})
	}
	var asks []float64
	if ds, err := res.Schedule.Timeline().Asks(res.Horizon); err == nil {
		for _, a := range ds {
			asks = append(asks, a.Seconds())
		}
	}
	if x, y := AskRate(asks); len(x) > 0 {
		curves = append(curves, Curve{Name: "fitted schedule", X: x, Y: y, Steps: true, Colour: Palette(0)})
	}
	return Hazard(t, h, curves, asks)
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

// FrontierOf draws fit.StudyFrontier's table: mean lag against requests
// per item for the limit (solid), the schedules fitted with at most
// clauses clauses (0: the exact ask ages) and the families (dashed); the
// named schedules as labelled points, and the knee, if the table has
// one, as the last (frontier --plot, the report).
func FrontierOf(pts []fit.FrontierPoint, named []Point, clauses int) *Figure {
	fitted := "fitted schedules"
	if clauses > 0 {
		fitted = fmt.Sprintf("fitted, %d clauses", clauses)
	}
	curves := []Curve{{Name: fit.FrontierLimitLabel(pts) + ", in hindsight"}, {Name: fitted}, {Name: "fixed interval"}, {Name: "backoff ×2"}, {Name: "backoff ×2, full jitter"}}
	points := append([]Point(nil), named...)
	for _, p := range pts {
		if p.Knee {
			points = append(points, Point{Name: fmt.Sprintf("knee (%.3g req/item)", p.RequestsPerItem), Cost: p.Fitted.RequestsPerItem, Wait: p.Fitted.Lag.Mean})
		}
		for i, pr := range []fit.Prediction{p.Limit, p.Fitted, p.Fixed, p.Backoff, p.Jitter} {
			if !math.IsNaN(pr.RequestsPerItem) && !math.IsNaN(pr.Lag.Mean) {
				curves[i].X = append(curves[i].X, pr.RequestsPerItem)
				curves[i].Y = append(curves[i].Y, pr.Lag.Mean)
			}
		}
	}
	var kept []Curve
	for _, c := range curves {
		if len(c.X) > 0 {
			sort.Sort(byX(c))
			kept = append(kept, c)
		}
	}
	return Frontier(kept, points)
}

// byX sorts a curve's points by x (measured costs need not follow the
// budgets' order).
type byX Curve

func (c byX) Len() int           { return len(c.X) }
func (c byX) Less(i, j int) bool { return c.X[i] < c.X[j] }
func (c byX) Swap(i, j int) {
	c.X[i], c.X[j] = c.X[j], c.X[i]
	c.Y[i], c.Y[j] = c.Y[j], c.Y[i]
}

// RowPoints are rows measured (fit.Row) as points on the frontier.
func RowPoints(rows []fit.Row) []Point {
	var out []Point
	for _, m := range rows {
		out = append(out, Point{Name: m.Name, Cost: m.RequestsPerItem, Wait: m.Lag.Mean})
	}
	return out
}

// LagsOf draws the lag distributions of the replayed schedules ms
// (ms[i] replays scheds[i] on smp) (eval --plot, the report).
func LagsOf(ms []fit.Metrics, scheds []*schedule.Schedule, smp fit.Sample) *Figure {
	return Lags(lagCurves(ms, scheds, smp))
}

// PhaseOf draws the final answers of items by time after each boundary
// of the batch period p.
func PhaseOf(items []estimate.Item, p *estimate.Period) *Figure {
	per := int64(p.Period * 1e9)
	var phases []float64
	for _, it := range items {
		if !it.Status.Final() || !it.HasCreated() {
			continue
		}
		at := it.Created + int64(math.Round(it.Age*1e9))
		phases = append(phases, float64(((at%per)+per)%per)/1e9)
	}
	return Phase(phases, p.Period, p.Phase, 0)
}
