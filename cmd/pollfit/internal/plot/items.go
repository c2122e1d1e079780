package plot

import (
	"cmp"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ItemRows is how many items the items picture draws.
const ItemRows = 30

// Lane is a schedule drawn on the items picture: every item gets a
// lane per schedule.
type Lane struct {
	Name     string
	Schedule *schedule.Schedule
}

// DrawItems draws n items of smp at random without replacement (seeded,
// so the same log and seed draw the same items), in the order of the
// picture's rows: by age (the final answer's, or a pending item's
// censoring age), earliest at the top. In a weighted sample (a sketch's
// bins, or interval items spread over their nodes) an item stands for
// its weight's worth of items at its age: each draw takes one of those,
// with chance in proportion to the weight left, so a bin of 50 can be
// drawn up to 50 times.
func DrawItems(smp fit.Sample, n int, seed uint64) []estimate.Item {
	if len(smp.Items) == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed17e5))
	var out []estimate.Item
	if smp.Weighted() {
		out = drawWeighted(smp, n, rng)
	} else {
		for _, k := range rng.Perm(len(smp.Items))[:min(n, len(smp.Items))] {
			out = append(out, smp.Items[k])
		}
	}
	if len(out) == 0 {
		return nil
	}
	slices.SortStableFunc(out, func(a, b estimate.Item) int { return cmp.Compare(a.Age, b.Age) })
	return out
}

// drawWeighted draws up to n items of a weighted sample without
// replacement of the items its weights stand for.
func drawWeighted(smp fit.Sample, n int, rng *rand.Rand) []estimate.Item {
	left := slices.Clone(smp.Weights)
	var total float64
	for _, w := range left {
		total += w
	}
	var out []estimate.Item
	for len(out) < n && total > 1e-9 {
		u, i := rng.Float64()*total, 0
		for ; i < len(left)-1 && u >= left[i]; i++ {
			u -= left[i]
		}
		if left[i] <= 0 {
			continue // rounding left u past the last weight
		}
		take := min(1, left[i])
		left[i] -= take
		total -= take
		out = append(out, smp.Items[i])
	}
	return out
}

// ItemsOf draws ItemRows held-out items of the study (drawn with its
// seed) under the fitted schedule and today's, the first baseline, if
// any: the seed post's picture. Nil for a model.
func ItemsOf(st *fit.StudyResult) *Figure {
	if st.HeldOut == nil {
		return nil
	}
	items := DrawItems(*st.HeldOut, ItemRows, st.Seed)
	if items == nil {
		return nil
	}
	var lanes []Lane
	if len(st.Baselines) > 0 {
		c := st.Baselines[0]
		s, err := schedule.Parse(c.Baseline.Schedule)
		if err == nil {
			lanes = append(lanes, Lane{withCost(c.Name, c.Baseline.RequestsPerItem), s})
		}
	}
	lanes = append(lanes, Lane{withCost(st.Fitted.Name, st.Fitted.RequestsPerItem), st.Schedule})
	return Items(items, lanes, st.Fitted.Horizon)
}

// Layout of the items picture, in rows: a lane's offset from its row's
// centre, the bars' height and the margin above the top row (the legend
// is under the picture).
const (
	laneGap     = 0.36
	barHeight   = 0.22
	legendRows  = 0.3
	ringRadius  = 3.2
	dotRadius   = 1.5
	rowPoints   = 17
	itemsMargin = 70
)

// laneOffset is lane k's offset (of n lanes) from its row's centre: the
// first lane on top.
func laneOffset(k, n int) float64 {
	return laneGap * (float64(n-1)/2 - float64(k))
}

// Items draws items, one row each from the top, under each schedule of
// lanes to the give-up age horizon, as fit.ReplayItem replays them: in
// each lane a dot at every ask, a ring where the answer landed and a bar
// for the lag, from the answer to the ask that sees it. A pending item
// (no answer yet) has its asks up to its censoring age and a cross
// there; a missed answer (after the give-up age or the schedule's last
// ask) a grey bar to the give-up age, its ring drawn only when it lands
// within it. The time axis is linear near zero and logarithmic beyond a
// second, so that the first asks and the late ones both show.
func Items(items []estimate.Item, lanes []Lane, horizon time.Duration) *Figure {
	fig := newFigure("Items one by one: asks, answers and lags", "age (time since the item was created)", "")
	n := len(items)
	rows := make([][]fit.ItemReplay, n)
	end := 1.0
	for i, it := range items {
		for _, l := range lanes {
			r := fit.ReplayItem(l.Schedule, it, horizon)
			rows[i] = append(rows[i], r)
			end = max(end, rowEnd(r, horizon))
		}
	}
	ip := &itemPlot{rows: rows, lanes: lanes, end: end, horizon: horizon.Seconds()}
	fig.Plot.Add(ip)
	fig.Plot.X.Scale = log1pScale{}
	fig.Plot.X.Tick.Marker = itemTicks{}
	fig.Plot.X.Min, fig.Plot.X.Max = 0, end*1.04
	fig.Plot.X.Padding = vg.Points(5) // the asks at age 0 clear the axis
	fig.Plot.Y.Min, fig.Plot.Y.Max = -0.6, float64(n)-0.4+legendRows
	fig.Plot.Y.Tick.Marker = rowTicks(rows, horizon.Seconds())
	fig.Plot.Y.Tick.Label.Font.Size = vg.Points(8)
	fig.Plot.Legend.Top, fig.Plot.Legend.Left = true, false
	ip.legend(fig)
	fig.Height = vg.Length(float64(n)+legendRows)*rowPoints + itemsMargin
	ip.record(fig)
	return fig
}

// rowEnd is the latest age a lane shows.
func rowEnd(r fit.ItemReplay, horizon time.Duration) float64 {
	switch {
	case r.Pending:
		return min(r.Answer, horizon).Seconds()
	case r.Missed:
		return horizon.Seconds()
	}
	return r.Asks[len(r.Asks)-1].Seconds()
}

// rowY is the centre of row i of n (row 0 on top).
func rowY(i, n int) float64 { return float64(n - 1 - i) }

// rowTicks labels each row with its item's answer, said missed when it
// comes after the give-up age horizon (seconds).
func rowTicks(rows [][]fit.ItemReplay, horizon float64) gplot.ConstantTicks {
	var ts gplot.ConstantTicks
	for i, lanes := range rows {
		if len(lanes) == 0 {
			continue
		}
		r := lanes[0]
		label := "answer at " + schedule.FormatAge(r.Answer.Seconds())
		switch {
		case r.Pending:
			label = "pending at " + schedule.FormatAge(r.Answer.Seconds())
		case r.Answer.Seconds() > horizon:
			label += ", missed"
		}
		ts = append(ts, gplot.Tick{Value: rowY(i, len(rows)), Label: label})
	}
	return ts
}

// itemPlot draws the rows.
type itemPlot struct {
	rows    [][]fit.ItemReplay
	lanes   []Lane
	end     float64
	horizon float64
}

var (
	ringColour   = color.RGBA{30, 30, 30, 255}
	missedColour = color.RGBA{170, 170, 170, 150}
)

func laneColour(k, n int) color.Color {
	if k == n-1 {
		return Palette(0) // the fitted schedule, as on every picture
	}
	return Palette(1 + k)
}

func barColour(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 110}
}

// Plot implements gonum's plot.Plotter.
func (ip *itemPlot) Plot(c draw.Canvas, p *gplot.Plot) {
	tx, ty := p.Transforms(&c)
	for i, lanes := range ip.rows {
		for k, r := range lanes {
			y := ty(rowY(i, len(ip.rows)) + laneOffset(k, len(lanes)))
			col := laneColour(k, len(lanes))
			ip.drawLane(c, tx, y, r, col)
		}
	}
}

// drawLane draws one item under one schedule at height y: the bar
// first, then the asks, the answer's ring on top.
func (ip *itemPlot) drawLane(c draw.Canvas, tx func(float64) vg.Length, y vg.Length, r fit.ItemReplay, col color.Color) {
	h := vg.Length(barHeight * rowPoints / 2)
	answer := r.Answer.Seconds()
	switch {
	case r.Seen && r.Lag > 0:
		ip.bar(c, tx(answer), tx(r.Asks[len(r.Asks)-1].Seconds()), y, h, barColour(col))
	case r.Missed && answer < ip.horizon:
		ip.bar(c, tx(answer), tx(ip.horizon), y, h, missedColour)
	}
	c.SetColor(col)
	for _, a := range r.Asks {
		c.Fill(circle(vg.Point{X: tx(a.Seconds()), Y: y}, dotRadius))
	}
	switch {
	case r.Pending:
		x := tx(min(answer, ip.horizon))
		d := vg.Length(ringRadius * 0.8)
		c.StrokeLines(draw.LineStyle{Color: ringColour, Width: vg.Points(1)}, []vg.Point{{X: x - d, Y: y - d}, {X: x + d, Y: y + d}}, []vg.Point{{X: x - d, Y: y + d}, {X: x + d, Y: y - d}})
	case answer <= ip.end:
		c.SetLineStyle(draw.LineStyle{Color: ringColour, Width: vg.Points(1.1)})
		c.Stroke(circle(vg.Point{X: tx(answer), Y: y}, ringRadius))
	}
}

func (ip *itemPlot) bar(c draw.Canvas, x0, x1, y, h vg.Length, col color.Color) {
	if x1-x0 < 1 {
		x1 = x0 + 1 // a lag too short to see still shows
	}
	c.FillPolygon(col, []vg.Point{{X: x0, Y: y - h}, {X: x1, Y: y - h}, {X: x1, Y: y + h}, {X: x0, Y: y + h}})
}

// circle is a closed circular path.
func circle(at vg.Point, r float64) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: at.X + vg.Length(r), Y: at.Y})
	p.Arc(at, vg.Length(r), 0, 2*math.Pi)
	p.Close()
	return p
}

// record counts what the rows hold, as the figure's series.
func (ip *itemPlot) record(fig *Figure) {
	var rings, dots, bars, crosses int
	for _, lanes := range ip.rows {
		for _, r := range lanes {
			dots += len(r.Asks)
			switch {
			case r.Pending:
				crosses++
			case r.Answer.Seconds() <= ip.end:
				rings++
			}
			if (r.Seen && r.Lag > 0) || (r.Missed && r.Answer.Seconds() < ip.horizon) {
				bars++
			}
		}
	}
	fig.add("answers", Points, rings)
	fig.add("asks", Points, dots)
	fig.add("lags", Bars, bars)
	if crosses > 0 {
		fig.add("pending", Points, crosses)
	}
}

// legend names the lanes and the marks.
func (ip *itemPlot) legend(fig *Figure) {
	for k, l := range ip.lanes {
		pos := "upper"
		if len(ip.lanes) == 1 {
			pos = "only"
		} else if k == len(ip.lanes)-1 {
			pos = "lower"
		}
		fig.legend(l.Name+" ("+pos+" lane): asks, lag", laneThumb{laneColour(k, len(ip.lanes))})
	}
	fig.legend("answer", ringThumb{})
}

// laneThumb is a lane's legend mark: a lag bar ending in an ask.
type laneThumb struct{ c color.Color }

func (t laneThumb) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	h := vg.Length(barHeight * rowPoints / 2)
	c.FillPolygon(barColour(t.c), []vg.Point{{X: c.Min.X, Y: y - h}, {X: c.Max.X, Y: y - h}, {X: c.Max.X, Y: y + h}, {X: c.Min.X, Y: y + h}})
	c.SetColor(t.c)
	c.Fill(circle(vg.Point{X: c.Max.X, Y: y}, dotRadius))
}

// ringThumb is the answer's legend mark.
type ringThumb struct{}

func (ringThumb) Thumbnail(c *draw.Canvas) {
	c.SetLineStyle(draw.LineStyle{Color: ringColour, Width: vg.Points(1.1)})
	c.Stroke(circle(vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}, ringRadius))
}

// log1pScale normalises ages by ln(1 + t/1s): linear near zero,
// logarithmic beyond a second.
type log1pScale struct{}

func (log1pScale) Normalize(lo, hi, x float64) float64 {
	f := func(v float64) float64 { return math.Log1p(max(v, 0)) }
	return (f(x) - f(lo)) / (f(hi) - f(lo))
}

// itemTicks are 0 and the log-time ticks from a second on.
type itemTicks struct{}

func (itemTicks) Ticks(lo, hi float64) []gplot.Tick {
	ts := []gplot.Tick{{Value: 0, Label: "0"}}
	for _, t := range (LogTimeTicks{}).Ticks(max(lo, 1), hi) {
		if t.Value >= 1 {
			ts = append(ts, t)
		}
	}
	return ts
}
