package plot

import (
	"github.com/pollfit/pollfit/fit/schedule"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Phase draws the histogram of final answers' phases within a batch
// period: phases are settle times modulo period, in seconds after each
// wall-clock boundary, put into bins equal bins (default 60 when 0). The
// estimated batch phase, if positive, is marked.
func Phase(phases []float64, period, phase float64, bins int) *Figure {
	fig := newFigure("Phase of answers within the batch period", "time after the period boundary (period "+schedule.FormatAge(period)+")", "share of final answers")
	if bins <= 0 {
		bins = 60
	}
	if !(period > 0) {
		return fig
	}
	counts := make([]float64, bins)
	n := 0.0
	for _, p := range phases {
		if !finite(p) {
			continue
		}
		p = math.Mod(p, period)
		if p < 0 {
			p += period
		}
		k := min(int(p/period*float64(bins)), bins-1)
		counts[k]++
		n++
	}
	width := period / float64(bins)
	ymax := 0.0
	for i := range counts {
		if n > 0 {
			counts[i] /= n
		}
		ymax = max(ymax, counts[i])
	}
	h := &plotter.Histogram{Width: width, FillColor: Palette(0)}
	for i, c := range counts {
		h.Bins = append(h.Bins, plotter.HistogramBin{Min: float64(i) * width, Max: float64(i+1) * width, Weight: c})
	}
	h.LineStyle.Width = vg.Points(0.3)
	h.LineStyle.Color = Palette(7)
	fig.Plot.Add(h)
	fig.legend("answers", h)
	fig.add("answers", Bars, bins)
	if phase > 0 {
		fig.addRules("estimated batch phase", []float64{phase}, lineStyle(1, 1.2, true), false)
	}
	fig.Plot.X.Min, fig.Plot.X.Max = 0, period
	fig.Plot.X.Tick.Marker = ageTicks{}
	fig.Plot.Y.Min, fig.Plot.Y.Max = 0, max(ymax*1.1, 1e-9)
	return fig
}

// ageTicks is a linear ticker labelled with durations.
type ageTicks struct{}

func (ageTicks) Ticks(lo, hi float64) []gplotTick {
	ts := countTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = schedule.FormatAge(ts[i].Value)
		}
	}
	return ts
}
