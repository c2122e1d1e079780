package plot

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/internal/loggen"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// replayByHand is the asks an item gets under src to the horizon h,
// worked from the schedule's timeline alone: the age asks up to h; with
// reset on signal those before the signal g, one at g, then g plus each
// age ask after zero. It returns the asks shown (up to the one that
// sees the answer, or all to min(censoring age, h)), the ask that sees
// the answer and whether one does.
func replayByHand(t *testing.T, src string, it estimate.Item, h time.Duration) (shown []time.Duration, seen time.Duration, ok bool) {
	s := mustParse(t, src)
	ages, err := s.Timeline().Asks(h)
	if err != nil {
		t.Fatal(err)
	}
	asks := ages
	if s.ResetOnSignal && it.HasSignal() && it.Signal >= 0 {
		g := time.Duration(math.Round(it.Signal * 1e9))
		asks = nil
		for _, a := range ages {
			if a < g {
				asks = append(asks, a)
			}
		}
		asks = append(asks, g)
		for _, a := range ages {
			if a > 0 && g+a <= h {
				asks = append(asks, g+a)
			}
		}
	}
	age := time.Duration(math.Round(it.Age * 1e9))
	for _, a := range asks {
		if a > h {
			break
		}
		if !it.Status.Final() && a > age {
			break
		}
		shown = append(shown, a)
		if it.Status.Final() && a >= age {
			return shown, a, true
		}
	}
	return shown, 0, false
}

// svgMark is a circle or a bar of the picture, in SVG points.
type svgMark struct {
	ring        bool
	x, y, x1, r float64
}

var pathNums = regexp.MustCompile(`-?[0-9.]+(?:e-?[0-9]+)?`)

// marks reads the circles (dots and rings) and the filled rectangles
// (bars) of an SVG.
func marks(t *testing.T, svg []byte) (circles, bars []svgMark) {
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "path" {
			continue
		}
		var d, style string
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "d":
				d = a.Value
			case "style":
				style = a.Value
			}
		}
		var v []float64
		for _, s := range pathNums.FindAllString(d, -1) {
			f, _ := strconv.ParseFloat(s, 64)
			v = append(v, f)
		}
		filled := !strings.Contains(style, "fill:none")
		switch {
		case strings.Count(d, "A") == 2 && len(v) >= 4:
			// M x+r,y A r,r 0 1 1 x−r,y A ...: the centre is r left of M.
			circles = append(circles, svgMark{ring: !filled, x: v[0] - v[2], y: v[1], r: v[2]})
		case filled && !strings.Contains(d, "A") && strings.Count(d, "L") == 3 && len(v) == 8 && v[1] == v[3]:
			bars = append(bars, svgMark{x: v[0], x1: v[2], y: (v[1] + v[5]) / 2})
		}
	}
	return circles, bars
}

// TestItemsPicture parses the picture's SVG and checks each row's rings,
// dots and bars against the items replayed by hand, on items drawn from
// a payments log (with signals) and a pending item, a missed one and one
// whose answer comes after the give-up age added.
func TestItemsPicture(t *testing.T) {
	its := DrawItems(fit.ItemSample(loggen.Items(loggen.Rows(loggen.Payments, 600, 9))), 26, 4)
	its = append(its,
		estimate.Item{Age: 40, Status: estimate.Pending},                            // pending: asks to 40 s
		estimate.Item{Age: 8, Status: estimate.Settled, Signal: 3, Signalled: true}, // a signal at 3 s
		estimate.Item{Age: 299.5, Status: estimate.Settled},                         // after now's last ask by 5m, before fitted's?
		estimate.Item{Age: 20 * 60, Status: estimate.Settled},                       // after the give-up age: missed
	)
	lanes := []string{"1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m", "at 0s 2s 5s 10s, 2s until 20s, 5s until 1m, 10s until 4m, reset on signal"}
	h := 5 * time.Minute
	fig := Items(its, []Lane{{"now", mustParse(t, lanes[0])}, {"fitted", mustParse(t, lanes[1])}}, h)
	svg, err := fig.SVG()
	if err != nil {
		t.Fatal(err)
	}
	circles, bars := marks(t, svg)
	w, ht := fig.pageSize()
	da := fig.Plot.DataCanvas(fig.plotArea(draw.New(vgsvg.New(w, ht))))
	tx, ty := fig.Plot.Transforms(&da)
	near := func(a, b float64) bool { return math.Abs(a-b) < 0.02 }
	sec := func(d time.Duration) float64 { return float64(tx(d.Seconds())) }
	rowsSeen := map[float64]bool{}
	for _, c := range circles {
		if !c.ring && float64(ty(float64(len(its))-0.5)) > c.y && c.y > float64(da.Min.Y) { // not the legend's, above or below
			rowsSeen[math.Round(c.y*10)/10] = true
		}
	}
	if len(rowsSeen) != 2*len(its) {
		t.Errorf("dots on %d lanes, want %d (%d rows of 2)", len(rowsSeen), 2*len(its), len(its))
	}
	for i, it := range its {
		for k, src := range lanes {
			y := float64(ty(float64(len(its)-1-i) + laneOffset(k, 2)))
			shown, seen, ok := replayByHand(t, src, it, h)
			var dots []float64
			var rings []svgMark
			for _, c := range circles {
				switch {
				case !near(c.y, y):
				case c.ring:
					rings = append(rings, c)
				default:
					dots = append(dots, c.x)
				}
			}
			slices.Sort(dots)
			want := make([]float64, len(shown))
			for j, a := range shown {
				want[j] = sec(a)
			}
			if !slices.EqualFunc(dots, want, near) {
				t.Errorf("row %d (%+v) lane %s: dots at %.2f, want %.2f", i, it, src, dots, want)
			}
			ans := time.Duration(math.Round(it.Age * 1e9))
			wantRing := it.Status.Final() && ans <= h
			if len(rings) != b2i(wantRing) || (wantRing && !near(rings[0].x, sec(ans))) {
				t.Errorf("row %d lane %d: rings %+v, want one at %.2f: %v", i, k, rings, sec(ans), wantRing)
			}
			var bar []svgMark
			for _, b := range bars {
				if near(b.y, y) {
					bar = append(bar, b)
				}
			}
			switch {
			case ok && seen > ans:
				if len(bar) != 1 || !near(bar[0].x, sec(ans)) || !near(bar[0].x1, max(sec(seen), sec(ans)+1)) {
					t.Errorf("row %d lane %d: bars %+v, want %.2f to %.2f", i, k, bar, sec(ans), sec(seen))
				}
			case it.Status.Final() && !ok && ans < h:
				if len(bar) != 1 || !near(bar[0].x, sec(ans)) || !near(bar[0].x1, max(sec(h), sec(ans)+1)) {
					t.Errorf("row %d lane %d: missed bars %+v, want %.2f to the give-up age %.2f", i, k, bar, sec(ans), sec(h))
				}
			default:
				if len(bar) != 0 {
					t.Errorf("row %d lane %d: bars %+v, want none", i, k, bar)
				}
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestDrawItems checks the draw: seeded, without replacement, sorted by
// age, and nothing from a histogram.
func TestDrawItems(t *testing.T) {
	smp := fit.ItemSample(loggen.Items(loggen.Rows(loggen.Payments, 300, 2)))
	a, b := DrawItems(smp, 30, 1), DrawItems(smp, 30, 1)
	if len(a) != 30 || !slices.EqualFunc(a, b, func(x, y estimate.Item) bool { return x.Age == y.Age && x.Created == y.Created }) {
		t.Fatalf("draws differ or are short: %d, %d", len(a), len(b))
	}
	if !slices.IsSortedFunc(a, func(x, y estimate.Item) int { return int(math.Copysign(1, x.Age-y.Age)) }) {
		t.Error("rows not sorted by age")
	}
	if c := DrawItems(smp, 30, 2); slices.EqualFunc(a, c, func(x, y estimate.Item) bool { return x.Age == y.Age }) {
		t.Error("another seed draws the same items")
	}
	if got := len(DrawItems(smp, 1000, 1)); got != 300 {
		t.Errorf("drawing more than there are: %d items, want all 300", got)
	}
	smp.Weights = make([]float64, len(smp.Items))
	if DrawItems(smp, 30, 1) != nil {
		t.Error("items drawn from a histogram of no weight")
	}
}

// TestDrawItemsFromBins: a weighted sample's item stands for its
// weight's worth of items. Bins of 3 and 1 items give all four when four
// are asked for; a bin of 2.5 gives three draws (1, 1, 0.5); one draw
// from bins of 3 and 1 is the first in 3 of 4 seeds, within the
// binomial's 4 standard deviations over 4,000 seeds.
func TestDrawItemsFromBins(t *testing.T) {
	a, b := estimate.Item{Age: 1, Status: estimate.Settled}, estimate.Item{Age: 2, Status: estimate.Settled}
	bins := fit.Sample{Items: []estimate.Item{a, b}, Weights: []float64{3, 1}}
	got := DrawItems(bins, 10, 1)
	if len(got) != 4 || got[0].Age != 1 || got[2].Age != 1 || got[3].Age != 2 {
		t.Errorf("bins of 3 and 1, all drawn: %v", got)
	}
	if got := DrawItems(fit.Sample{Items: []estimate.Item{a}, Weights: []float64{2.5}}, 10, 1); len(got) != 3 {
		t.Errorf("a bin of 2.5: %d draws, want 3", len(got))
	}
	first := 0
	const seeds = 4000
	for seed := range uint64(seeds) {
		if DrawItems(bins, 1, seed)[0].Age == 1 {
			first++
		}
	}
	if sd := math.Sqrt(seeds * 0.75 * 0.25); math.Abs(float64(first)-0.75*seeds) > 4*sd {
		t.Errorf("one draw from bins of 3 and 1: the first %d times in %d, want about %d", first, seeds, seeds*3/4)
	}
}
