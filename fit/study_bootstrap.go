package fit

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

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
// schedule is replayed on each resample, and the 2.5th and 97.5th
// percentiles of a figure over the resamples are its interval. The
// schedules stay as fitted: the intervals say how sure the held-out
// figures are, not how a fit on other data would come out.

// bootstrap sets the intervals of the fitted row, the baselines and the
// comparisons from opt.Bootstrap resamples.
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
	lag, p95, req := make([][]float64, len(rows)), make([][]float64, len(rows)), make([][]float64, len(rows))
	change := make([][]float64, len(r.Baselines))
	rng := rand.New(rand.NewPCG(st.opt.Seed, 0xb0075))
	for range n {
		if err := st.stopped("bootstrap"); err != nil {
			return err
		}
		smp := st.resample(rng)
		ms := make([]Metrics, len(rows))
		for k, row := range rows {
			m, err := ReplaySample(scheds[k], smp, ReplayOptions{Horizon: row.Horizon})
			if err != nil {
				return err
			}
			ms[k] = m
			lag[k], p95[k], req[k] = append(lag[k], m.Lag.Mean), append(p95[k], m.Lag.P95), append(req[k], m.RequestsPerItem)
		}
		for i := range r.Baselines {
			x, err := st.replicateChange(smp, &r.Baselines[i], ms[1+2*i], ms[2+2*i])
			if err != nil {
				return err
			}
			change[i] = append(change[i], x)
		}
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

// resample is one Poisson bootstrap of the held-out items.
func (st *study) resample(rng *rand.Rand) Sample {
	smp := Sample{Items: st.test.Items, Weights: make([]float64, st.test.Len())}
	for i := range smp.Items {
		smp.Weights[i] = distuv.Poisson{Lambda: st.test.Weight(i), Src: rng}.Rand()
	}
	return smp
}

// replicateChange is a comparison's Change on a resample: the fitted lag
// at the baseline's cost, read off the two fits with the point
// estimate's weights, against the baseline's lag there.
func (st *study) replicateChange(smp Sample, c *Comparison, base, fitted Metrics) (float64, error) {
	y := fitted.Lag.Mean
	if c.second != nil {
		m, err := ReplaySample(c.second, smp, ReplayOptions{Horizon: fitted.Horizon})
		if err != nil {
			return 0, err
		}
		y += (m.Lag.Mean - fitted.Lag.Mean) * c.mix
	}
	return y/base.Lag.Mean - 1, nil
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
