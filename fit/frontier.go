package fit

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// FrontierPoint is the lag each kind of schedule achieves at one cost.
// Lags are means over detected items, in seconds; NaN when no schedule
// of that kind fits the budget.
type FrontierPoint struct {
	// RequestsPerItem is the budget.
	RequestsPerItem float64
	// Optimum is the exact optimum (on the candidate grid, without the
	// zoomed refinement Fit does).
	Optimum Prediction
	// Segments is the best schedule of Options.Segments nice clauses the
	// multipliers reach, and Schedule its text.
	Segments Prediction
	Schedule string
	// Fixed asks every FixedInterval seconds.
	Fixed         Prediction
	FixedInterval float64
	// Backoff doubles the gap after each ask, from BackoffBase seconds.
	Backoff     Prediction
	BackoffBase float64
	// Jitter is Backoff with full jitter (each gap uniform between 0 and
	// the doubled gap), averaged over 100 seeded draws, from JitterBase seconds.
	Jitter     Prediction
	JitterBase float64
}

// jitterDraws is the number of Monte Carlo draws of jittered schedules.
const jitterDraws = 100

// Frontier sweeps the requests-per-item budgets: for each, the exact
// optimum, the best K-segment schedule and the families people use
// (fixed interval; exponential backoff ×2 with and without full jitter)
// at the parameter that spends the budget. Give a Distribution or items
// (d nil). The laws, the grid and the segments are built once, so a
// sweep costs little more than one fit. seed drives the jitter draws.
func Frontier(d Distribution, items []estimate.Item, budgets []float64, opt Options, seed uint64) ([]FrontierPoint, error) {
	opt.Budget = Budget{RequestsPerItem: math.Max(slices.Max(budgets), 1)}
	p, err := newProblem(opt)
	if err != nil {
		return nil, err
	}
	end := p.opt.Horizon.Seconds()
	switch {
	case d != nil && end <= 0:
		if total := d.CDF(math.MaxFloat64); !(total >= 1-1e-9) {
			return nil, errors.New("the distribution has mass that never settles: give a horizon")
		}
		p.forever = true
		p.setEnd(tailAge(d, 1e-9))
		p.l = newDistLaw(d, p.end)
	case d != nil:
		p.setEnd(end)
		p.l = newDistLaw(d, p.end)
	case len(items) == 0:
		return nil, errors.New("frontier: no items")
	default:
		if end <= 0 {
			// Measured as Replay measures a schedule that never stops:
			// to its first ask after the last answer.
			end = LargestFinalAge(items).Seconds()
			p.forever = true
		}
		p.setEnd(end)
		p.l = newItemLaw(items)
	}
	g := newGrid(p.l, p.opt.Objective, candidates(p.l, p.first, p.end, p.opt.Candidates), p.minGap, p.maxGap, -1)
	first := time.Duration(math.Round(p.first*1e3)) * time.Millisecond
	sg := newSegments(p.l, first, p.horizon, p.forever, p.opt.AnyValues, time.Duration(p.minGap*1e9), time.Duration(p.maxGap*1e9), -1, slices.Max(budgets))
	lattice := p.segmentHull(sg)
	fixed := p.family(func(x float64, _ *rand.Rand) []float64 { return p.fixedAsks(x) }, 1, seed)
	backoff := p.family(func(x float64, _ *rand.Rand) []float64 { return p.backoffAsks(x, nil) }, 1, seed)
	jitter := p.family(func(x float64, r *rand.Rand) []float64 { return p.backoffAsks(x, r) }, jitterDraws, seed)
	var out []FrontierPoint
	for _, b := range budgets {
		fp := FrontierPoint{RequestsPerItem: b}
		run := func(m float64) trial {
			path := g.solve(m, 0)
			if path == nil {
				return trial{mult: m}
			}
			asks := g.ages(path)
			s := evaluate(p.l, asks)
			return trial{mult: m, ok: true, spent: s.requests, objective: s.objective(p.opt.Objective), sol: asks}
		}
		if t, err := searchTol(run, b, 1e-4, false); err == nil && t.ok {
			fp.Optimum = predict(p.l, t.sol.([]float64))
		} else {
			fp.Optimum = nanPrediction()
		}
		fp.Segments, fp.Schedule = lattice.at(p, b)
		fp.Fixed, fp.FixedInterval = fixed.at(b, seed, true)
		fp.Backoff, fp.BackoffBase = backoff.at(b, seed, true)
		fp.Jitter, fp.JitterBase = jitter.at(b, seed, false)
		out = append(out, fp)
	}
	return out, nil
}

func nanPrediction() Prediction {
	n := math.NaN()
	return Prediction{Lag: LagStats{n, n, n, n, n, n}, RMSLag: n, RequestsPerItem: n, Detected: n}
}

// hull is the K-segment schedules the multipliers reach, by cost.
type hull struct {
	spent []float64
	sched []*schedule.Schedule
}

// segmentHull solves the segment programme over a sweep of prices.
func (p *problem) segmentHull(sg *segments) hull {
	var h hull
	seen := map[string]bool{}
	for m := 1e-6; m < 1e6; m *= 1.08 {
		path := sg.solve(p.opt.Objective, p.opt.Segments, m, 0)
		if path == nil {
			continue
		}
		s := sg.schedule(path)
		key := schedule.Format(s)
		if seen[key] {
			continue
		}
		seen[key] = true
		tot, _ := sg.total(path)
		h.spent = append(h.spent, tot.requests)
		h.sched = append(h.sched, s)
	}
	return h
}

// at is the best hull schedule spending at most b.
func (h hull) at(p *problem, b float64) (Prediction, string) {
	var best []float64
	bestLag, bestS := math.Inf(1), ""
	for i, s := range h.sched {
		if h.spent[i] > b*(1+1e-12) {
			continue
		}
		asks, err := s.Timeline().Asks(p.horizon)
		if err != nil {
			continue
		}
		if next, ok := s.Timeline().Next(p.horizon); ok && p.forever && next > asks[len(asks)-1] {
			asks = append(asks, next) // it never stops: the next ask sees the last answers
		}
		sec := seconds(asks)
		if o := evaluate(p.l, sec).objective(p.opt.Objective); o < bestLag {
			best, bestLag, bestS = sec, o, schedule.Format(s)
		}
	}
	if best == nil {
		return nanPrediction(), ""
	}
	return predict(p.l, best), bestS
}
