package fit

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/pollfit/pollfit/fit/schedule"
)

// below reports whether lag a is shorter than b beyond rounding.
func below(a, b float64) bool { return a < b*(1-1e-9)-1e-12 }

// checkLimit: the limit honours the budget's kind and the stuck cap,
// and no row asking by age beats it within the same budget: requests
// per item (and the stuck cap) for a requests budget, the asks to a
// stuck item by the budget's age for asks-by and max-attempts.
func checkLimit(rep invReport, res *StudyResult, rows []Row) {
	lim, kind := res.Limit, res.Budget.Kind()
	if res.StuckCap > 0 && lim.Stuck > float64(res.StuckCap)+1e-9 {
		rep.fail("the limit honours the stuck cap", "the limit asks a stuck item %.4g times by %s, the cap is %d (%s); the fitted schedule %.4g",
			lim.Stuck, schedule.FormatDuration(res.GiveUp.Age), res.StuckCap, res.StuckCapReason, res.Fitted.Stuck)
	}
	if kind == BudgetRequests && lim.RequestsPerItem > res.Fitted.RequestsPerItem*(1+1e-9) {
		rep.fail("the limit at the fitted cost", "the limit spends %.6g requests per item, the fitted schedule %.6g", lim.RequestsPerItem, res.Fitted.RequestsPerItem)
	}
	for _, r := range rows {
		if r.Name == lim.Name || !scheduleByAge(r.Schedule) {
			continue
		}
		within := r.Stuck <= float64(res.StuckCap)+1e-9 || res.StuckCap <= 0
		if kind == BudgetRequests {
			within = within && r.RequestsPerItem <= lim.RequestsPerItem*(1+1e-9)
		}
		if within && below(r.Lag.Mean, lim.Lag.Mean) {
			rep.fail("no row beats the limit", "row %q waits %.6gs at %.4g requests per item and %.4g stuck asks by %s, the limit %.6gs at %.4g and %.4g (budget %s, cap %d); %.2f%% of its answers missed, the limit's %.2f%%; schedule %s",
				r.Name, r.Lag.Mean, r.RequestsPerItem, r.Stuck, schedule.FormatDuration(res.GiveUp.Age), lim.Lag.Mean, lim.RequestsPerItem, lim.Stuck, res.Budget, res.StuckCap,
				100*missedShare(r.Metrics), 100*missedShare(lim.Metrics), r.Schedule)
		}
	}
}

// missedShare is the share of a row's final answers it never sees.
func missedShare(m Metrics) float64 {
	if m.Detected+m.Missed == 0 {
		return 0
	}
	return m.Missed / (m.Detected + m.Missed)
}

// checkFrontier: the frontier at the study's budget ships the study's
// schedule with its figures, measures the baseline as the study does,
// no schedule asking by age within the budget beats the limit there,
// and every lag is ≥ 0; on every other log it runs to 1.5 × the budget
// too, and past its knee a request buys less than KneeShare of the lag
// (checkKnee; that frontier, report and --json print this one knee is
// the cmd test's TestInvariantsKnee).
func checkFrontier(rep invReport, c invCase, res *StudyResult) {
	b := c.opt.Budget.RequestsPerItem
	opt := c.opt
	opt.Bootstrap = 0 // pollfit frontier runs none
	budgets := []float64{b}
	if c.seed%2 == 0 {
		budgets = append(budgets, math.Round(150*b)/100)
	}
	pts, base, err := StudyFrontier(context.Background(), c.smp, nil, nil, opt, budgets)
	if err != nil {
		rep.fail("frontier", "%v", err)
		return
	}
	for _, p := range pts {
		if p.RequestsPerItem == b {
			checkFrontierIsFit(rep, p, res)
		}
		checkFrontierPoint(rep, p)
	}
	checkKnee(rep, pts)
	for i, m := range base {
		want := res.Baselines[i].Baseline
		if math.Abs(m.Lag.Mean-want.Lag.Mean) > 1e-9*want.Lag.Mean || math.Abs(m.RequestsPerItem-want.RequestsPerItem) > 1e-9*want.RequestsPerItem {
			rep.fail("frontier's baseline = fit's", "%s: frontier %.6gs at %.6g requests per item, fit %.6gs at %.6g", m.Name, m.Lag.Mean, m.RequestsPerItem, want.Lag.Mean, want.RequestsPerItem)
		}
	}
}

func checkFrontierIsFit(rep invReport, p FrontierPoint, res *StudyResult) {
	got, want := p.Fitted, res.Fitted
	if p.Schedule != res.Schedule.String() || math.Abs(got.Lag.Mean-want.Lag.Mean) > 1e-9*want.Lag.Mean+1e-12 ||
		math.Abs(got.RequestsPerItem-want.RequestsPerItem) > 1e-9*want.RequestsPerItem {
		rep.fail("frontier's fitted row = fit", "at %.4g requests per item frontier ships %q (%.6gs at %.6g requests per item), fit ships %q (%.6gs at %.6g)",
			p.RequestsPerItem, p.Schedule, got.Lag.Mean, got.RequestsPerItem, res.Schedule, want.Lag.Mean, want.RequestsPerItem)
	}
}

func checkFrontierPoint(rep invReport, p FrontierPoint) {
	kinds := []struct {
		name  string
		pr    Prediction
		param float64
		byAge bool
	}{
		{"limit", p.Limit, math.NaN(), false},
		{"fitted", p.Fitted, math.NaN(), scheduleByAge(p.Schedule)},
		{"fixed interval", p.Fixed, p.FixedInterval, true},
		{"backoff", p.Backoff, p.BackoffBase, true},
		{"jitter", p.Jitter, p.JitterBase, true},
	}
	for _, k := range kinds {
		if k.pr.Lag.Mean < 0 {
			rep.fail("frontier lag ≥ 0", "at %.4g requests per item %s waits %.6gs", p.RequestsPerItem, k.name, k.pr.Lag.Mean)
		}
		if !k.byAge || math.IsNaN(k.pr.Lag.Mean) || k.pr.RequestsPerItem > p.RequestsPerItem*(1+1e-9) {
			continue
		}
		if below(k.pr.Lag.Mean, p.Limit.Lag.Mean) {
			rep.fail("no frontier row beats the limit", "at %.4g requests per item %s (parameter %s) waits %.6gs at %.4g requests per item and %d asks, %.2f%% of answers seen; the limit %.6gs, %.2f%% seen",
				p.RequestsPerItem, k.name, schedule.FormatAge(k.param), k.pr.Lag.Mean, k.pr.RequestsPerItem, k.pr.Asks, 100*k.pr.Detected, p.Limit.Lag.Mean, 100*p.Limit.Detected)
		}
	}
}

// scheduleByAge reports whether a schedule asks by age alone (what the
// limit bounds): no reset on signal, no wall-clock asks.
func scheduleByAge(text string) bool {
	s, err := schedule.Parse(text)
	return err == nil && !s.ResetOnSignal && len(s.Aligned) == 0
}

// checkKnee: past the knee one more request per item buys less than
// KneeShare of the lag, at every later budget (what frontier and report
// say of it).
func checkKnee(rep invReport, pts []FrontierPoint) {
	k := slices.IndexFunc(pts, func(p FrontierPoint) bool { return p.Knee })
	if k < 0 {
		return
	}
	for _, p := range pts[k:] {
		if p.Gain >= KneeShare*p.Fitted.Lag.Mean {
			rep.fail("past the knee a request buys < 5% of the lag", "knee at %.4g requests per item; at %.4g the next request buys %.4gs of a %.4gs lag (%.1f%%)",
				pts[k].RequestsPerItem, p.RequestsPerItem, p.Gain, p.Fitted.Lag.Mean, 100*p.Gain/p.Fitted.Lag.Mean)
		}
	}
}

// costLag is one fit's held-out requests per item and mean lag.
type costLag struct{ cost, lag float64 }

// withinOwnBracket reports whether a fit the comparison did not make
// lies strictly inside the costs of the two fits it read between, and
// the equal-cost lag lies between those two fits' lags. The comparison
// reads a line between its bracket; where the frontier bends between
// them (a shape that starts to pay at a budget in between), a fit
// made at that budget can wait longer than the line says, and the
// comparison's own bracket is then what it must stay inside.
func withinOwnBracket(comp *Comparison, fits []costLag) bool {
	if len(comp.Bracket) != 2 {
		return false
	}
	lo, hi := comp.Bracket[0], comp.Bracket[1]
	l1, l2 := math.Min(lo.Lag.Mean, hi.Lag.Mean), math.Max(lo.Lag.Mean, hi.Lag.Mean)
	if below(comp.EqualCostLag, l1) || below(l2, comp.EqualCostLag) {
		return false
	}
	for _, f := range fits {
		if f.cost > lo.RequestsPerItem*(1+1e-9) && f.cost < hi.RequestsPerItem*(1-1e-9) {
			return true
		}
	}
	return false
}

// checkSameLag: the same-lag row waits no longer than the baseline, and
// costs no more than the study's own fit when that fit waits no longer
// than the baseline within the comparison's stuck cap (it is a fitted
// schedule at that lag, found already).
func checkSameLag(rep invReport, res *StudyResult, comp *Comparison) {
	f, want := res.Fitted, comp.Baseline.Lag.Mean
	if s := comp.SameLag; s != nil && s.Lag.Mean > want {
		rep.fail("same lag: no longer", "baseline %s %.6gs, same lag row %.6gs at %.4g requests per item", comp.Name, want, s.Lag.Mean, s.RequestsPerItem)
	}
	if f.Lag.Mean > want || (comp.StuckCap > 0 && f.Stuck > float64(comp.StuckCap)) {
		return // the fit itself is no candidate
	}
	if s := comp.SameLag; s == nil || s.RequestsPerItem > f.RequestsPerItem {
		rep.fail("same lag: no dearer than the fit", "baseline %s %.6gs (stuck cap %d); the fit %.6gs at %.4g requests per item (stuck %.4g); same lag row %+v", comp.Name, want, comp.StuckCap, f.Lag.Mean, f.RequestsPerItem, f.Stuck, s)
	}
}

// checkEqualCost: the equal-cost lag is read inside what was measured,
// between the lags of fits whose held-out costs bracket the baseline's
// (never extrapolated); the fit's own lag when the costs agree to 0.5%.
// The bracket is found independently, by a fit at a budget 18% above
// the baseline's cost when the fit at its cost spent less than the
// baseline on the held-out items, else 15% below (its held-out cost
// differs by less), with the baseline's stuck cap as the study's fit at
// its cost has: one fit, on the side the bracket needs.
func checkEqualCost(rep invReport, c invCase, comp *Comparison) {
	want, got := comp.Baseline.RequestsPerItem, comp.Fitted.RequestsPerItem
	what := fmt.Sprintf("baseline %s at %.4g requests per item (%.6gs), fitted@ at %.4g (%.6gs), equal-cost lag %.6gs", comp.Name, want, comp.Baseline.Lag.Mean, got, comp.Fitted.Lag.Mean, comp.EqualCostLag)
	if math.Abs(got-want) <= 5e-3*want {
		if comp.EqualCostLag != comp.Fitted.Lag.Mean {
			rep.fail("same cost: the fit's own lag", "%s", what)
		}
		return
	}
	opt := c.opt
	opt.Bootstrap, opt.StuckAsks = 0, comp.StuckCap
	bc := comp.Budget.RequestsPerItem
	f := 0.85
	if got < want {
		f = 1.18
	}
	var pts []FrontierPoint
	if bc*f >= 1 { // else no smaller budget to fit: the comparison's own fits are all there are
		var err error
		if pts, _, err = StudyFrontier(context.Background(), c.smp, nil, nil, opt, []float64{bc * f}); err != nil {
			rep.fail("equal-cost bracket", "fits about the baseline's cost: %v", err)
			return
		}
	}
	fits := []costLag{{got, comp.Fitted.Lag.Mean}}
	for _, r := range comp.Bracket { // the fits the comparison read between
		fits = append(fits, costLag{r.RequestsPerItem, r.Lag.Mean})
	}
	for _, p := range pts {
		if !math.IsNaN(p.Fitted.Lag.Mean) {
			fits = append(fits, costLag{p.Fitted.RequestsPerItem, p.Fitted.Lag.Mean})
		}
	}
	slices.SortFunc(fits, func(a, b costLag) int { return int(math.Copysign(1, a.cost-b.cost)) })
	// The bracket: the dearest fit costing no more than the baseline and
	// the cheapest costing no less; without one, every fit made.
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, f := range fits {
		if f.cost <= want {
			lo = f.cost
		}
		if f.cost >= want && math.IsInf(hi, 1) {
			hi = f.cost
		}
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		lo, hi = fits[0].cost, fits[len(fits)-1].cost
	}
	lagLo, lagHi := math.Inf(1), math.Inf(-1)
	for _, f := range fits {
		if f.cost >= lo && f.cost <= hi {
			lagLo, lagHi = math.Min(lagLo, f.lag), math.Max(lagHi, f.lag)
		}
	}
	if (below(comp.EqualCostLag, lagLo) || below(lagHi, comp.EqualCostLag)) && !withinOwnBracket(comp, fits) {
		rep.fail("equal-cost lag between the bracketing fits", "%s; fits costing %.4g to %.4g requests per item wait %.6gs to %.6gs (fits at %v)", what, lo, hi, lagLo, lagHi, fits)
	}
}
