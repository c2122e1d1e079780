package fit

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// The limit. Among schedules that ask only by age and see every answer
// by the give-up age H (their last ask is at H), the least mean lag at a
// cost of R requests per item on a set of items is a shortest path: on a
// log the best asks lie at answer ages or just after a censoring age
// (between such ages moving an ask earlier only lowers the lag), so the
// programme over those candidates, with the first ask free to be any of
// them, is exact at every price per request. A price reaches only the
// vertices of the lower convex hull of (cost, lag), so the limit at R is
// the mix of the two vertices either side of R, asked of a random share
// of the items each: no schedule spending at most R does better, and the
// mix itself spends exactly R.

// maxLimitCandidates bounds the candidate ages of the limit's programme;
// past it the candidates are thinned and the limit is an estimate.
const maxLimitCandidates = 20000

// limit computes the hindsight optimum row at the fitted row's cost.
func (st *study) limit() error {
	r := st.res
	end := r.GiveUp.Age
	if r.Never {
		end = r.Fitted.Horizon
	}
	l, cands, exact := st.limitLaw(end.Seconds())
	first, free := st.limitStart()
	lim, bound, err := st.hindsightAt(l, cands, first, free)
	if err != nil {
		return err
	}
	req := r.Fitted.RequestsPerItem // the requests budget's mix spends it exactly
	if k := r.Budget.Kind(); k.CountsAsks() || k == BudgetPrice {
		req = lim.prediction().RequestsPerItem
	}
	m := Metrics{Name: st.limitName(bound), Horizon: end, RequestsPerItem: req, AsksByAges: st.opt.AsksBy,
		Items: r.Fitted.Items, Pending: r.Fitted.Pending}
	if st.model == nil {
		// It sees every answer by the give-up age, and misses the rest.
		for i, it := range st.test.Items {
			if it.Status.Final() && it.Age <= end.Seconds() {
				m.Detected += st.test.Weight(i)
			}
		}
		m.Missed = r.Fitted.Detected + r.Fitted.Missed - m.Detected
	}
	m.Lag = lim.lagStats(st, end.Seconds())
	for _, t := range st.opt.AsksBy {
		m.AsksBy = append(m.AsksBy, lim.mix(countTo(lim.a, t.Seconds()), countTo(lim.b, t.Seconds())))
	}
	r.Limit = RowOf(m, lim.mix(float64(len(lim.a)), float64(len(lim.b))))
	if st.model != nil {
		r.Limit.MissedShare = 1 - st.model.CDF(end.Seconds())/st.model.CDF(math.MaxFloat64)
	}
	r.LimitNote = st.limitNote(end, free, exact, bound, lim.stuckCap)
	return nil
}

// hindsightAt is the limit under the study's budget kind: at the fitted
// schedule's requests per item (a mix of two schedules); under a budget
// that counts asks, at most that many asks to H; at a price, the priced
// optimum within the stuck cap. bound reports a Lagrangian bound rather
// than a schedule.
func (st *study) hindsightAt(l law, cands []float64, first float64, free bool) (mixed, bool, error) {
	r := st.res
	switch b := r.Budget; b.Kind() {
	case BudgetAsksBy, BudgetMaxAttempts:
		return hindsightCapped(l, cands, first, free, st.opt.Objective, 0, int(b.limit()), maxCountCells)
	case BudgetPrice:
		return hindsightCapped(l, cands, first, free, st.opt.Objective, b.Price, r.StuckCap, maxCountCells)
	}
	return hindsightWithin(newLimitHull(l, cands, first, free, st.opt.Objective), r.Fitted.RequestsPerItem, r.StuckCap)
}

// hindsightWithin is the limit at cost requests per item within the
// stuck cap (0: none): h's mix at cost, or where its schedules ask more
// than the cap, the hull of the schedules within it (hindsightStuck),
// exact while the capped programme is small enough; else h's mix, a
// bound (it relaxes the cap: bound true).
func hindsightWithin(h *limitHull, cost float64, stuckCap int) (mixed, bool, error) {
	lim, err := h.at(cost)
	if err != nil || lim.honours(stuckCap) {
		return lim, false, err
	}
	if float64(stuckCap)*float64(len(h.cands)+1) > maxCountCells {
		return lim, true, nil
	}
	capped, ok, err := hindsightStuck(h.l, h.cands, h.first, h.free, h.obj, cost, stuckCap)
	if err != nil || !ok {
		return lim, true, err
	}
	return capped, false, nil
}

// limitLaw is the law the limit is computed on, to end seconds: the
// held-out items (exact: every answer age is a candidate) or the model
// (a grid of candidates).
func (st *study) limitLaw(end float64) (law, []float64, bool) {
	if st.model != nil {
		l := newDistLaw(st.model, end)
		return l, candidates(l, 0, end, 2000), false
	}
	il := newSampleLaw(st.test)
	cands, exact := itemCandidates(il, end)
	return il, cands, exact
}

// limitNote says what the limit covers; capped is the stuck cap that
// bound a requests budget's limit (0 when none did).
func (st *study) limitNote(end time.Duration, free, exact, bound bool, capped int) string {
	what := fmt.Sprintf("the %d held-out items", int(math.Round(st.test.Total())))
	if st.model != nil {
		what = "the model"
	}
	r := st.res
	var note string
	switch k := r.Budget.Kind(); {
	case bound && k == BudgetRequests:
		note = fmt.Sprintf("limit: a bound, not a schedule: the exact optimum on %s at the fitted schedule's cost (%.2f requests per item) without the stuck cap of %d asks by %s (too many candidates to keep it), mixing two exact schedules; no schedule asking by age that asks at %s does better at that cost",
			what, r.Fitted.RequestsPerItem, r.StuckCap, schedule.FormatDuration(end), schedule.FormatDuration(end))
	case capped > 0:
		note = fmt.Sprintf("limit: the exact optimum on %s at the fitted schedule's cost (%.2f requests per item) within the stuck cap (at most %d asks by %s), mixing two exact schedules that keep it; no schedule asking by age that asks at %s and keeps the cap does better at that cost",
			what, r.Fitted.RequestsPerItem, capped, schedule.FormatDuration(end), schedule.FormatDuration(end))
	case bound:
		note = fmt.Sprintf("limit: a bound, not a schedule: the Lagrangian bound on %s under the budget, %s (a mix of two exact schedules either side of it); no schedule asking by age that asks at %s and keeps the budget does better",
			what, st.budgetCap(), schedule.FormatDuration(end))
	case k.CountsAsks() || k == BudgetPrice:
		note = fmt.Sprintf("limit: the exact optimum on %s under the budget, %s, one schedule; no schedule asking by age that asks at %s and keeps the budget does better",
			what, st.budgetCap(), schedule.FormatDuration(end))
	default:
		note = fmt.Sprintf("limit: the exact optimum on %s at the fitted schedule's cost (%.2f requests per item), mixing two exact schedules; no schedule asking by age that asks at %s does better at that cost",
			what, r.Fitted.RequestsPerItem, schedule.FormatDuration(end))
	}
	if !free {
		note += fmt.Sprintf(" and first asks at %s, as every schedule here does", schedule.FormatDuration(st.opt.FirstAsk))
	}
	if !exact {
		note += " (on a grid of candidate ages: an estimate)"
	}
	if s := st.res.Schedule; s.ResetOnSignal || len(s.Aligned) > 0 {
		note += "; it does not cover signals or wall-clock asks, which the fitted schedule uses and so may beat it"
	}
	return note
}

// budgetCap is the budget the limit keeps, in words: "at most 40 asks
// by 15m", "at most 8 attempts", "mean lag + 0.5 s × requests per item,
// at most 64 asks by 5m".
func (st *study) budgetCap() string {
	r := st.res
	switch b := r.Budget; b.Kind() {
	case BudgetAsksBy:
		return fmt.Sprintf("at most %d asks by %s", b.AsksBy, schedule.FormatDuration(b.AsksByAge))
	case BudgetMaxAttempts:
		return fmt.Sprintf("at most %d attempts", b.MaxAttempts)
	}
	return fmt.Sprintf("the least %s lag + %.4g s × requests per item with at most %d asks by %s (the stuck cap)",
		r.Objective, r.Budget.Price, r.StuckCap, schedule.FormatDuration(r.GiveUp.Age))
}

// limitName is the limit's label for this study (LimitLabel).
func (st *study) limitName(bound bool) string {
	scheds := []*schedule.Schedule{st.res.Schedule}
	for _, b := range st.opt.Baselines {
		scheds = append(scheds, b.Schedule)
	}
	return LimitLabel(st.res.Budget.Kind(), bound, scheds...)
}

// limitStart is where the limit's first ask is: at the fit's first ask
// when the fitted schedule and every baseline ask first there (free is
// false), else anywhere, so that it bounds them all.
func (st *study) limitStart() (first float64, free bool) {
	at := st.opt.FirstAsk
	scheds := []*schedule.Schedule{st.res.Schedule}
	for _, b := range st.opt.Baselines {
		scheds = append(scheds, b.Schedule)
	}
	for _, s := range scheds {
		if a, ok := s.Timeline().Next(0); !ok || a != at {
			return 0, true
		}
	}
	return at.Seconds(), false
}

// itemCandidates are the ages where a log's best asks lie, up to end:
// 0, every final age, just after every censoring age, and end. exact is
// false when there were more than maxLimitCandidates and some were
// dropped.
func itemCandidates(l *itemLaw, end float64) ([]float64, bool) {
	pts := []float64{0, end}
	for _, a := range l.final {
		if a > 0 && a < end {
			pts = append(pts, a)
		}
	}
	for _, a := range l.pending {
		if x := a + 1e-9; x > 0 && x < end {
			pts = append(pts, x)
		}
	}
	slices.Sort(pts)
	pts = slices.Compact(pts)
	if len(pts) <= maxLimitCandidates {
		return pts, true
	}
	step := float64(len(pts)-1) / float64(maxLimitCandidates-1)
	thin := make([]float64, 0, maxLimitCandidates)
	for k := range maxLimitCandidates {
		thin = append(thin, pts[int(math.Round(float64(k)*step))])
	}
	return slices.Compact(thin), false
}

// noLimitRow is the limit row of a study that cannot compute it
// (StudyOptions.NoLimit): named "limit", every figure NaN.
func noLimitRow() Row {
	n := math.NaN()
	m := Metrics{Name: "limit", Lag: LagStats{n, n, n, n, n, n}, RequestsPerItem: n, Detected: n, Missed: n}
	return RowOf(m, n)
}
