package fit

import (
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// Replays made once. The shapes' grafts replay each schedule they join
// on the fitting items, and the same schedule comes back often: a
// graft's rounds at budgets a little apart quantise to the same nice
// clauses, and a baseline's fits at budgets where the stuck cap binds
// rather than the budget graft the same shapes on the same schedule.
// A replay is a pure function of the schedule, the items and the
// horizon, so the cache keeps each replay of the study's fitting items
// by the schedule's canonical text and the horizon, and a replay asked
// for again is the same to the bit.

// replayKey is a replay of the cache's sample: the schedule's canonical
// text and the horizon.
type replayKey struct {
	s        string
	h        time.Duration
	meanOnly bool
}

// replayDone is one replay's outcome, as the cache keeps it.
type replayDone struct {
	m   Metrics
	err error
}

// maxReplays bounds the replays a cache keeps (each a few hundred
// bytes).
const maxReplays = 1 << 14

// replay is ReplaySample(s, smp, {Horizon: h}), with only the lags'
// mean and largest when meanOnly is set (see ReplayOptions.meanOnly):
// from the cache when c holds smp's laws, else made now.
func (c *lawCache) replay(s *schedule.Schedule, smp Sample, h time.Duration, meanOnly bool) (Metrics, error) {
	opt := ReplayOptions{Horizon: h, meanOnly: meanOnly}
	if c == nil || !c.holds(smp) {
		return ReplaySample(s, smp, opt)
	}
	r := c.replays.get(replayKey{schedule.Format(s), h, meanOnly}, func() replayDone {
		m, err := replaySample(s, smp, opt, c.alignedTable)
		return replayDone{m, err}
	})
	return r.m, r.err
}

// maxTables bounds the aligned tables a cache keeps (at most
// maxAlignedTable asks each): a study's grafts try a few batch shapes.
const maxTables = 8

// alignedTable is the table of s's aligned clauses over c's sample to
// horizon h, made once (nil when the sample's items get too many).
func (c *lawCache) alignedTable(s *schedule.Schedule, h time.Duration) *alignedTable {
	return c.tables.get(tableKeyOf(s, h), func() *alignedTable { return newAlignedTable(s.Aligned, c.smp, h) })
}
