package fit

import (
	"fmt"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// TestAlignedTable: a replay that reads each item's aligned asks from a
// table (as the grafts' replays of the fitting items do) measures what
// the replay that works them out item by item measures (which
// TestReplayBruteForce checks against each item's asks listed), to the
// bit, keeping the lags or only their mean: with shared ages between
// clauses, asks on the age-based ones, reset on signal and pending items,
// at horizons that cut clauses; and a
// sample whose items get more aligned asks than a walk lists gets no
// table, and the same figures.
func TestAlignedTable(t *testing.T) {
	items := testItems(3000, 11)
	smp := ItemSample(items)
	for _, c := range []struct {
		dsl   string
		table bool // whether every horizon's table is made
	}{
		{"1s until 20s, every 5m at +2s +5s until 30m", true},
		{"at 0s, every 1m at +0s +30s, every 5m at +0s until 20m, reset on signal", true},
		{"at 0s 3s 15s, 15s until 1m, 30s until 2m, 1m until 15m, every 15m at +4.1s +6.7s until 15m", true},
		{"2s until 1m, every 5s at +0s until 1h", false},
	} {
		s, err := schedule.Parse(c.dsl)
		if err != nil {
			t.Fatal(err)
		}
		for k, h := range []time.Duration{45 * time.Second, 10 * time.Minute, 0, 10 * time.Minute} {
			opt := ReplayOptions{Horizon: h, meanOnly: k == 3} // the grafts' replays keep no lags
			want, err := replaySample(s, smp, opt, nil)
			if err != nil {
				t.Fatal(err)
			}
			made := false
			got, err := replaySample(s, smp, opt, func(s *schedule.Schedule, h time.Duration) *alignedTable {
				tab := newAlignedTable(s.Aligned, smp, h)
				made = tab != nil
				return tab
			})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) { // to the bit, NaN percentiles alike
				t.Errorf("%s to %v: from the table %+v, item by item %+v", c.dsl, h, got, want)
			}
			if made != c.table && h == 10*time.Minute {
				t.Errorf("%s to %v: table made %v, want %v", c.dsl, h, made, c.table)
			}
		}
	}
}
