package fit

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// curve is one frontier of a comparison: the fits at requests budgets
// under one stuck cap, each measured on the held-out items. The fit at
// a baseline's cost, the bracket of its held-out cost and the search
// for its lag all read it, so no budget is fitted twice (a budget asked
// for while another caller fits it waits for that fit), and the fits a
// step needs run at once (on up to GOMAXPROCS goroutines: parallel).
// It is safe for concurrent use once the study's main fit is made,
// after which a fit reads the study and writes nothing of it.
type curve struct {
	st    *study
	stuck int
	mu    sync.Mutex
	pts   map[float64]*curveEntry
}

// curvePoint is a fit of the curve; ok is false when the budget was too
// little to fit, for the reason err.
type curvePoint struct {
	costPoint
	ok  bool
	err error
}

// curveEntry is a budget's point, fitted once by whichever caller asks
// for it first; the others wait for it.
type curveEntry struct {
	once sync.Once
	p    curvePoint
	err  error // a failure that stops the study (not a budget too little)
}

func (st *study) newCurve(stuck int) *curve {
	return &curve{st: st, stuck: stuck, pts: map[float64]*curveEntry{}}
}

// entry is budget b's entry, made when new.
func (cv *curve) entry(b float64) *curveEntry {
	cv.mu.Lock()
	defer cv.mu.Unlock()
	e := cv.pts[b]
	if e == nil {
		e = &curveEntry{}
		cv.pts[b] = e
	}
	return e
}

// put records a fit made elsewhere (the study's own at the budget).
func (cv *curve) put(p costPoint) {
	e := cv.entry(p.budget)
	e.once.Do(func() { e.p = curvePoint{costPoint: p, ok: true} })
}

// at fits the budgets not fitted yet, at once, and returns the points
// of all of them in the order given.
func (cv *curve) at(budgets ...float64) ([]curvePoint, error) {
	es := make([]*curveEntry, len(budgets))
	for i, b := range budgets {
		es[i] = cv.entry(b)
	}
	err := parallel(len(budgets), func(i int) error {
		e := es[i]
		e.once.Do(func() { e.p, e.err = cv.fit(budgets[i]) })
		return e.err
	})
	if err != nil {
		return nil, err
	}
	out := make([]curvePoint, len(budgets))
	for i, e := range es {
		out[i] = e.p
	}
	return out, nil
}

// fitAt is at for one budget, as bracketCost calls it.
func (cv *curve) fitAt(b float64) (costPoint, bool, error) {
	p, err := cv.at(b)
	if err != nil {
		return costPoint{}, false, err
	}
	return p[0].costPoint, p[0].ok, nil
}

// fit fits and measures at budget b.
func (cv *curve) fit(b float64) (curvePoint, error) {
	res, err := cv.st.fit(Budget{RequestsPerItem: b}, cv.stuck)
	if err := cv.st.stopped(fmt.Sprintf("fit at %.4g requests per item", b)); err != nil {
		return curvePoint{}, err
	}
	if err != nil {
		return curvePoint{costPoint: costPoint{budget: b}, err: err}, nil // too little to fit
	}
	m, err := cv.st.measure("", res.Schedule)
	if err != nil {
		return curvePoint{}, err
	}
	return curvePoint{costPoint: costPoint{b, m, res.Schedule, res.capped}, ok: true}, nil
}

// sameLagGrid is how many budgets below the baseline's cost the search
// for its lag fits at most, halving from the cost while each still
// waits no longer than the baseline; sameLagSteps is how many fits then
// narrow it.
const (
	sameLagGrid  = 3
	sameLagSteps = 3
)

// sameLagBudgets are the grid's budgets under cost, cost/2^k, down to 1
// request per item: a fit with its lag tends to lie within a factor of a
// few of its cost, and nextSameLag reaches further down from the least.
func sameLagBudgets(cost float64) []float64 {
	out := make([]float64, 0, sameLagGrid)
	for k := 1; k <= sameLagGrid && cost/math.Exp2(float64(k)) >= 1; k++ {
		out = append(out, cost/math.Exp2(float64(k)))
	}
	return out
}

// nextSameLag is the next budget the search for lag want tries, given
// the fits so far at budgets up to the baseline's: between the dearest
// fit that waits longer than want and the cheapest that does not, with
// the budget on a log scale, halfway or, with secant, where the line
// through the two reaches want, kept a tenth of the gap from either end
// (on the curve's convex stretches the line lands on the cheaper side
// each time, so halving in turn keeps the gap shrinking); from 1 request
// per item, halfway, when even the cheapest fit qualifies. ok is false
// when no fit qualifies, or the gap is under 1%.
func nextSameLag(pts []curvePoint, want float64, secant bool) (float64, bool) {
	slices.SortFunc(pts, func(a, b curvePoint) int { return cmpFloat(a.budget, b.budget) })
	hi := -1
	for i, p := range pts {
		if p.ok && p.row.Lag.Mean <= want {
			hi = i
			break
		}
	}
	if hi < 0 {
		return 0, false
	}
	h := pts[hi]
	lb, llag := 0.0, math.NaN() // log budget 0: 1 request per item
	for _, p := range pts[:hi] {
		lb, llag = math.Log(p.budget), math.NaN()
		if p.ok {
			llag = p.row.Lag.Mean
		}
	}
	hb := math.Log(h.budget)
	if hb-lb < 0.01 {
		return 0, false
	}
	t := 0.5
	if secant && !math.IsNaN(llag) && llag > h.row.Lag.Mean {
		t = (llag - want) / (llag - h.row.Lag.Mean)
	}
	t = min(max(t, 0.1), 0.9)
	return math.Exp(lb + t*(hb-lb)), true
}

// beside is a copy of the study for a fit at another budget beside the
// study's own and others' (a frontier's budgets, a group's curve): its
// own result to set the budget, stuck cap and smoothing on, sharing the
// samples, their estimates and the shapes found, which it finds first.
// Call it from the study's goroutine.
func (st *study) beside() *study {
	if st.model == nil {
		st.findShapes()
	}
	c := *st
	r := *st.res
	if r.Shapes != nil {
		sh := *r.Shapes
		sh.OverCap = slices.Clip(sh.OverCap)
		r.Shapes = &sh
	}
	r.Notes = slices.Clip(r.Notes)
	c.res = &r
	return &c
}

// again is a new study of st's items under opt, as newStudy would make
// it, for a study whose options read the items as st's do (the same
// split, the same shapes looked for): it shares what depends on the
// items alone (their laws and replays, the Kaplan–Meier estimate, the
// smoother and its densities, the shapes found, the cross-validation's
// halves) and starts its result afresh. A group's study is st again
// after its curve (see groupCurves).
func (st *study) again(opt StudyOptions) (*study, error) {
	opt.Holdout, opt.Seed = st.opt.Holdout, st.opt.Seed
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	c := &study{ctx: st.ctx, opt: opt, train: st.train, test: st.test, laws: st.laws, km: st.km,
		smoother: st.smoother, cvHalves: st.cvHalves, densities: st.densities, shapes: st.shapes, found: st.found}
	c.res = &StudyResult{Objective: opt.Objective, Holdout: st.res.Holdout, Seed: opt.Seed, Survival: st.km}
	c.res.FitOn, c.res.HeldOut = samplesOf(c.train, c.test)
	if c.res.Holdout == 0 && opt.Holdout > 0 {
		c.note(noHoldoutNote)
	}
	if !opt.Rough {
		c.smoothDensity()
	}
	return c, nil
}
