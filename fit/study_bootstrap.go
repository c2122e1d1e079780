package fit

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/pollfit/pollfit/fit/schedule"
)

// Interval is a 95% bootstrap interval [low, high]; NaN when none was
// computed.
type Interval [2]float64

// noInterval is an Interval not computed.
var noInterval = Interval{math.NaN(), math.NaN()}

// The bootstrap. The held-out items are resampled (Poisson bootstrap:
// each item, or each bin of a histogram or sketch, counts a Poisson
// number of times with the mean of its weight, seeded), every measured
// schedule is measured on each resample, and the 2.5th and 97.5th
// percentiles of a figure over the resamples are its interval. The
// schedules stay as fitted: the intervals say how sure the held-out
// figures are, not how a fit on other data would come out.

// bootstrap sets the intervals of the fitted row, the baselines and the
// comparisons from opt.Bootstrap resamples. Each schedule is replayed
// once; a resample reweights the items (resample k draws from a
// generator seeded by the seed and k), and the resamples are shared
// among GOMAXPROCS goroutines: the intervals do not depend on how many
// there are.
func (st *study) bootstrap() error {
	n := st.opt.Bootstrap
	r := st.res
	if n <= 0 || st.model != nil {
		return nil
	}
	rows, scheds := []*Row{&r.Fitted}, []*schedule.Schedule{r.Schedule}
	for i, c := range r.Baselines {
		rows = append(rows, &r.Baselines[i].Baseline, &r.Baselines[i].Fitted)
		scheds = append(scheds, st.opt.Baselines[i].Schedule, c.Schedule)
	}
	reps := make([]*replayed, len(rows))
	for k, row := range rows {
		reps[k] = replayAll(scheds[k], st.test.Items, replayHorizon(scheds[k], st.test, row.Horizon))
	}
	seconds := make([]*replayed, len(r.Baselines))
	for i, c := range r.Baselines {
		if c.second != nil {
			seconds[i] = replayAll(c.second, st.test.Items, replayHorizon(c.second, st.test, c.Fitted.Horizon))
		}
	}
	lag, p95, req := grid2(len(rows), n), grid2(len(rows), n), grid2(len(rows), n)
	change := grid2(len(r.Baselines), n)
	draw := newPoissonDraws(st.test)
	bufs := sync.Pool{New: func() any { return make([]float64, st.test.Len()) }}
	err := parallel(n, func(j int) error {
		if err := st.stopped("bootstrap"); err != nil {
			return err
		}
		w := bufs.Get().([]float64)
		defer bufs.Put(w)
		draw.resample(rand.New(rand.NewPCG(st.opt.Seed, 0xb0075+uint64(j))), w)
		for k, rp := range reps {
			lag[k][j], p95[k][j], req[k][j] = rp.measure(w)
		}
		for i, c := range r.Baselines {
			y := lag[2+2*i][j]
			if rp := seconds[i]; rp != nil {
				m2, _, _ := rp.measure(w)
				y += (m2 - y) * c.mix
			}
			change[i][j] = y/lag[1+2*i][j] - 1
		}
		return nil
	})
	if err != nil {
		return err
	}
	for k, row := range rows {
		row.LagCI, row.P95CI, row.RequestsCI = interval(lag[k]), interval(p95[k]), interval(req[k])
	}
	for i := range r.Baselines {
		r.Baselines[i].ChangeCI = interval(change[i])
	}
	r.Bootstrap = n
	return nil
}

// grid2 is rows slices of n.
func grid2(rows, n int) [][]float64 {
	out := make([][]float64, rows)
	for k := range out {
		out[k] = make([]float64, n)
	}
	return out
}

// interval is the 2.5th and 97.5th percentiles of xs (NaNs left out).
func interval(xs []float64) Interval {
	xs = slices.DeleteFunc(slices.Clone(xs), math.IsNaN)
	if len(xs) == 0 {
		return noInterval
	}
	slices.Sort(xs)
	at := func(p float64) float64 { return xs[min(int(p*float64(len(xs))), len(xs)-1)] }
	return Interval{at(0.025), at(0.975)}
}
