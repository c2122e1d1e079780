package fit

import (
	"math"
	"math/rand/v2"
)

// family is a one-parameter kind of schedule (fixed interval, backoff):
// gen gives the asks for parameter x (seconds), from r for jittered ones.
// Every ask scales with x for fixed draws, so the cost falls as x grows
// and bisection finds the x that spends a budget; the lag need not fall
// as x shrinks (a backoff from a tiny base spends its budget early), so
// the best x within the budget is searched on a grid too. Jittered kinds
// are averaged over draws with common random numbers.
type family struct {
	p     *problem
	gen   func(x float64, r *rand.Rand) []float64
	draws int
	xs    []float64
	preds []Prediction
}

func (p *problem) family(gen func(x float64, r *rand.Rand) []float64, draws int, seed uint64) *family {
	f := &family{p: p, gen: gen, draws: draws}
	f.curve(seed)
	return f
}

// eval is the mean prediction over the draws at x.
func (f *family) eval(x float64, seed uint64) Prediction {
	var acc sums
	var asks float64
	for k := 0; k < f.draws; k++ {
		var r *rand.Rand
		if f.draws > 1 {
			r = rand.New(rand.NewPCG(seed, uint64(k)))
		}
		a := f.gen(x, r)
		s := evaluate(f.p.l, a)
		acc.lag += s.lag
		acc.lag2 += s.lag2
		acc.requests += s.requests
		acc.detected += s.detected
		asks += float64(len(a))
	}
	n := float64(f.draws)
	pr := Prediction{RequestsPerItem: acc.requests / n, Detected: acc.detected / n, Asks: int(math.Round(asks / n))}
	nan := math.NaN()
	pr.Lag = LagStats{nan, nan, nan, nan, nan, nan}
	pr.RMSLag = nan
	if acc.detected > 0 {
		pr.Lag.Mean = acc.lag / acc.detected
		pr.RMSLag = math.Sqrt(acc.lag2 / acc.detected)
	}
	return pr
}

// full is eval with the lag percentiles of an unjittered schedule.
func (f *family) full(pr Prediction, x float64) Prediction {
	if f.draws == 1 && !math.IsNaN(x) {
		return predict(f.p.l, f.gen(x, nil))
	}
	return pr
}

// curve evaluates the family on a geometric grid of parameters.
func (f *family) curve(seed uint64) {
	// At most 20000 asks up to the horizon for the fixed interval.
	lo, hi := math.Max(math.Max(f.p.minGap, 1e-3), (f.p.end-f.p.first)/20000), f.p.end-f.p.first
	if hi <= lo {
		return
	}
	n := 160
	if f.draws > 1 {
		n = 80
	}
	for k := 0; k < n; k++ {
		if f.p.opt.ctx != nil && f.p.opt.ctx.Err() != nil {
			return // StudyFrontier reports it
		}
		x := lo * math.Pow(hi/lo, float64(k)/float64(n-1))
		f.xs = append(f.xs, x)
		f.preds = append(f.preds, f.eval(x, seed))
	}
}

// within is the family's least mean lag within b requests per item,
// and the parameter that gives it, among parameters whose asks up to
// the horizon (the asks to a stuck item) number at most stuck (0: any):
// the best of the grid and, unless exact is off (jittered families), of
// the parameter that spends b exactly.
func (f *family) within(b float64, stuck int, seed uint64, exact bool) (Prediction, float64) {
	best, bestX := nanPrediction(), math.NaN()
	consider := func(pr Prediction, x float64) {
		if stuck > 0 && pr.Asks > stuck {
			return
		}
		if pr.RequestsPerItem <= b*(1+1e-12) && (math.IsNaN(best.Lag.Mean) || pr.Lag.Mean < best.Lag.Mean) {
			best, bestX = pr, x
		}
	}
	for i, x := range f.xs {
		consider(f.preds[i], x)
	}
	if !exact || len(f.xs) == 0 || math.IsNaN(bestX) {
		return f.full(best, bestX), bestX
	}
	// Bisect for the parameter that spends b: the cost falls as x grows.
	lo, hi := f.xs[0], f.xs[len(f.xs)-1]
	if f.preds[0].RequestsPerItem <= b {
		return f.full(best, bestX), bestX
	}
	for range 40 {
		mid := math.Sqrt(lo * hi)
		if f.eval(mid, seed).RequestsPerItem <= b {
			hi = mid
		} else {
			lo = mid
		}
		if hi/lo < 1+1e-5 {
			break
		}
	}
	consider(f.eval(hi, seed), hi)
	return f.full(best, bestX), bestX
}

// fixedAsks asks every x seconds from the first ask to the horizon, and
// at the horizon (see askAtEnd).
func (p *problem) fixedAsks(x float64) []float64 {
	n := int(math.Floor((p.end-p.first)/x+1e-9)) + 1
	if p.forever && p.first+float64(n-1)*x < p.end {
		n++ // it never stops: the next ask sees the last answers
	}
	if n > 1_000_000 {
		n = 1_000_000
	}
	asks := make([]float64, n)
	for k := range asks {
		asks[k] = p.first + float64(k)*x
	}
	return p.askAtEnd(asks)
}

// askAtEnd adds an ask at the horizon to a family member that stops
// before it, as the cost model has every row the study makes do: it
// gives up at H, so it asks once more there and sees every answer by H,
// as the limit and the fit do (the last ask of a fixed interval or a
// backoff seldom falls on H).
func (p *problem) askAtEnd(asks []float64) []float64 {
	if p.forever || len(asks) == 0 || asks[len(asks)-1] >= p.end*(1-1e-12) {
		return asks
	}
	return append(asks, p.end)
}

// backoffAsks asks at the first age, then after gaps x, 2x, 4x, ...
// (capped at the maximum interval), each gap drawn uniformly below its
// value when r is given (full jitter), up to the horizon, and at the
// horizon (see askAtEnd).
func (p *problem) backoffAsks(x float64, r *rand.Rand) []float64 {
	asks := []float64{p.first}
	gap := x
	for a := p.first; len(asks) < 100_000; {
		g := gap
		if p.maxGap > 0 {
			g = math.Min(g, p.maxGap)
		}
		if r != nil {
			g *= r.Float64()
		}
		g = math.Max(g, math.Max(p.minGap, 1e-9))
		if a+g > p.end {
			if p.forever && a < p.end {
				asks = append(asks, a+g) // the next ask sees the last answers
			}
			break
		}
		a += g
		asks = append(asks, a)
		gap *= 2
	}
	return p.askAtEnd(asks)
}
