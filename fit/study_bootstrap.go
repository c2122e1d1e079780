package fit

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/pollfit/pollfit/estimate"
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
	// Each schedule is replayed and measured once, however many rows and
	// readings it stands for (fitted@ is often the fitted schedule, and
	// an equal-cost reading fitted@'s).
	var reps distinctReplays
	at := make([]int, len(rows))
	for k, row := range rows {
		at[k] = reps.add(scheds[k], st.test, row.Horizon)
	}
	reads := make([][]int, len(r.Baselines))
	for i, c := range r.Baselines {
		for _, s := range c.reads {
			reads[i] = append(reads[i], reps.add(s, st.test, c.Fitted.Horizon))
		}
	}
	reps.replay()
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
		ms := reps.measure(w)
		for k := range rows {
			m := ms[at[k]]
			lag[k][j], p95[k][j], req[k][j] = m.lag, m.p95, m.req
		}
		for i, c := range r.Baselines {
			ys := make([]float64, len(reads[i]))
			for k, d := range reads[i] {
				ys[k] = ms[d].lag
			}
			change[i][j] = relChange(c.equalCostLag(ys), lag[1+2*i][j])
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
		c := &r.Baselines[i]
		c.ChangeCI = containing(interval(change[i]), c.Change)
	}
	if d := r.Decision; d != nil {
		rel := func(xs, base []float64) []float64 {
			out := make([]float64, n)
			for j := range out {
				out[j] = relChange(xs[j], base[j])
			}
			return out
		}
		d.RequestsCI = containing(interval(rel(req[0], req[1])), d.RequestsChange)
		d.LagCI = containing(interval(rel(lag[0], lag[1])), d.LagChange)
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

// containing widens ci, an interval of a change read at x, to contain x (a
// percentile interval of a skewed statistic may miss its own point); an
// interval not computed, or a point not a number, stays as it is.
func containing(ci Interval, x float64) Interval {
	if math.IsNaN(ci[0]) || math.IsNaN(ci[1]) || math.IsNaN(x) {
		return ci
	}
	return Interval{math.Min(ci[0], x), math.Max(ci[1], x)}
}

// distinctReplays are the schedules a bootstrap measures, each replayed
// once on the held-out items: by canonical text and horizon.
type distinctReplays struct {
	keys []replayKey
	todo []distinctReplay
	reps []*replayed
}

// distinctReplay is a schedule to replay on items to a horizon.
type distinctReplay struct {
	s     *schedule.Schedule
	items []estimate.Item
}

// add is the index of s replayed on smp to the horizon Replay gives
// h, once replay has run: a schedule seen before keeps its index.
func (d *distinctReplays) add(s *schedule.Schedule, smp Sample, h time.Duration) int {
	h = replayHorizon(s, smp, h)
	k := replayKey{s: schedule.Format(s), h: h}
	if i := slices.Index(d.keys, k); i >= 0 {
		return i
	}
	d.keys = append(d.keys, k)
	d.todo = append(d.todo, distinctReplay{s, smp.Items})
	return len(d.keys) - 1
}

// replay replays the schedules added, each on its own goroutine (a
// replay only reads its schedule and items).
func (d *distinctReplays) replay() {
	d.reps = make([]*replayed, len(d.todo))
	parallel(len(d.todo), func(i int) error {
		d.reps[i] = replayAll(d.todo[i].s, d.todo[i].items, d.keys[i].h)
		return nil
	})
}

// resampled is one replay measured on a resample.
type resampled struct{ lag, p95, req float64 }

// measure measures each replay on the resample of weights w.
func (d *distinctReplays) measure(w []float64) []resampled {
	out := make([]resampled, len(d.reps))
	for i, rp := range d.reps {
		out[i].lag, out[i].p95, out[i].req = rp.measure(w)
	}
	return out
}
