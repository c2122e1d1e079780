package plot

import (
	"strconv"

	"github.com/pollfit/pollfit/fit/schedule"
	gplot "gonum.org/v1/plot"
)

// Nice ages in seconds for a log-time axis: major labels first, then the
// finer ones used when the axis spans less than a few major steps.
var (
	majorAges = []float64{1e-3, 1e-2, 0.1, 1, 10, 60, 600, 3600, 6 * 3600, 86400, 7 * 86400, 30 * 86400, 365 * 86400}
	minorAges = []float64{2e-3, 5e-3, 2e-2, 5e-2, 0.2, 0.5, 2, 5, 20, 30, 120, 300, 1200, 1800,
		2 * 3600, 3 * 3600, 12 * 3600, 2 * 86400, 3 * 86400, 14 * 86400, 90 * 86400, 180 * 86400}
)

// LogTimeTicks marks a log-scale axis of ages in seconds with readable
// durations: 1s 10s 1m 10m 1h 6h 1d, with 2s 5s 30s 2m 5m 30m ... between
// them, labelled too when the axis spans too few major ticks.
type LogTimeTicks struct{}

// Ticks returns the tick marks between lo and hi (seconds, > 0).
func (LogTimeTicks) Ticks(lo, hi float64) []gplot.Tick {
	if !(lo > 0) || !(hi >= lo) {
		return nil
	}
	in := func(xs []float64) []float64 {
		var out []float64
		for _, x := range xs {
			if x >= lo*(1-1e-9) && x <= hi*(1+1e-9) {
				out = append(out, x)
			}
		}
		return out
	}
	major, minor := in(majorAges), in(minorAges)
	var ticks []gplot.Tick
	if len(major) >= 3 {
		for _, x := range major {
			ticks = append(ticks, gplot.Tick{Value: x, Label: schedule.FormatAge(x)})
		}
		for _, x := range minor {
			ticks = append(ticks, gplot.Tick{Value: x})
		}
		return ticks
	}
	all := mergeSorted(major, minor)
	if len(all) >= 2 {
		for _, x := range all {
			ticks = append(ticks, gplot.Tick{Value: x, Label: schedule.FormatAge(x)})
		}
		return ticks
	}
	// A narrow axis: plain linear ticks, labelled as ages.
	for _, t := range (gplot.DefaultTicks{}).Ticks(lo, hi) {
		if t.Label != "" {
			t.Label = schedule.FormatAge(t.Value)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

func mergeSorted(a, b []float64) []float64 {
	out := make([]float64, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if j == len(b) || (i < len(a) && a[i] < b[j]) {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	return out
}

// countTicks is a linear ticker labelled with plain numbers, trimmed of
// trailing zeros.
type countTicks struct{}

func (countTicks) Ticks(lo, hi float64) []gplot.Tick {
	ts := (gplot.DefaultTicks{}).Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 4, 64)
		}
	}
	return ts
}

// logTicks is gonum's log ticker with labels like 0.01 and 1000.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []gplot.Tick {
	if !(lo > 0) || !(hi > 0) {
		return nil
	}
	ts := gplot.LogTicks{Prec: -1}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', -1, 64)
		}
	}
	return ts
}
