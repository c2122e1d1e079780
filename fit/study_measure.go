package fit

import (
	"math"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// measure replays s on the held-out items, or integrates it on the
// model, to the give-up age.
func (st *study) measure(name string, s *schedule.Schedule) (Row, error) {
	return st.measureOn(st.test, name, s)
}

// measureOn measures s on smp (or the model) to the give-up age: an
// answer after it is missed, and a stuck item costs the asks up to it. A
// schedule that never stops, under --horizon never, is replayed as it
// runs: to its first ask at or after the last answer.
func (st *study) measureOn(smp Sample, name string, s *schedule.Schedule) (Row, error) {
	h := st.res.GiveUp.Age
	if st.model != nil {
		if st.res.Never {
			h = st.neverAge(s)
		}
		p, err := Predict(st.model, s, h)
		if err != nil {
			return Row{}, err
		}
		m := p.Metrics(name, s, h, st.opt.AsksBy)
		return Row{Metrics: m, Stuck: AsksBy(s, h), MissedShare: 1 - p.Detected/st.model.CDF(math.MaxFloat64)}, nil
	}
	if st.res.Never {
		h = 0
	}
	m, err := ReplaySample(s, smp, ReplayOptions{Horizon: h, AsksBy: st.opt.AsksBy})
	if err != nil {
		return Row{}, err
	}
	m.Name = name
	return ScheduleRow(s, m), nil
}

// ScheduleRow is m, a replay of s, as a row of the cost model: the asks
// by each of m's AsksByAges counted no further than the age s gave up at
// (m.Horizon), and its stuck cost, the asks by that age.
func ScheduleRow(s *schedule.Schedule, m Metrics) Row {
	for i, t := range m.AsksByAges {
		m.AsksBy[i] = AsksBy(s, min(t, m.Horizon))
	}
	return RowOf(m, AsksBy(s, m.Horizon))
}

// RowOf is replayed metrics as a row with stuck cost stuck (NaN when
// unknown, as for a randomised strategy): the missed share is the share
// of the final answers missed (NaN when there are none).
func RowOf(m Metrics, stuck float64) Row {
	r := Row{Metrics: m, Stuck: stuck, MissedShare: math.NaN()}
	if final := m.Detected + m.Missed; final > 0 {
		r.MissedShare = m.Missed / final
	}
	return r
}

// neverAge is the age a never-stopping schedule is costed to on a model:
// its first ask at or after the age all but 1e-9 of the answers have
// come by.
func (st *study) neverAge(s *schedule.Schedule) time.Duration {
	end := nanos(tailAge(st.model, 1e-9))
	if a, ok := s.Timeline().Next(end); ok {
		return a
	}
	return end
}

// rows measures the exact optimum fitted on the fitting items (not in a
// lean study), the continuous rate of a model, and the baselines.
func (st *study) rows() error {
	r := st.res
	if st.model == nil && len(r.Fit.Optimum.Asks) > 0 && !st.opt.lean {
		row, err := st.measure("exact (fit)", atSchedule(r.Fit.Optimum.Asks))
		if err != nil {
			return err
		}
		r.ExactFit = &row
	}
	if c := r.Fit.Continuous; c != nil && st.model != nil {
		m := c.Prediction.Metrics("continuous", nil, r.Fit.Horizon, st.opt.AsksBy)
		for i, t := range st.opt.AsksBy {
			m.AsksBy[i] = countTo(c.Asks, t.Seconds())
		}
		r.Continuous = &Row{Metrics: m, Stuck: float64(len(c.Asks)), MissedShare: 1 - c.Detected/st.model.CDF(math.MaxFloat64)}
	}
	return nil
}
