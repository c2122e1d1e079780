package plot

import (
	"bytes"
	"gonum.org/v1/plot/vg"
	"image/png"
	"math"
	"slices"
	"testing"
)

func labels(lo, hi float64) []string {
	var out []string
	for _, tk := range (LogTimeTicks{}).Ticks(lo, hi) {
		if tk.Label != "" {
			out = append(out, tk.Label)
		}
	}
	return out
}

func TestLogTimeTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []string
	}{
		{0.5, 4000, []string{"1s", "10s", "1m", "10m", "1h"}},
		{0.005, 2, []string{"10ms", "100ms", "1s"}},
		// Fewer than three major ticks: the minor ones are labelled too.
		{2, 40, []string{"2s", "5s", "10s", "20s", "30s"}},
		{100, 5000, []string{"2m", "5m", "10m", "20m", "30m", "1h"}},
	} {
		if got := labels(c.lo, c.hi); !slices.Equal(got, c.want) {
			t.Errorf("ticks on [%g, %g] = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
	// A narrow axis still gets labels, all within range.
	ts := (LogTimeTicks{}).Ticks(11, 13)
	n := 0
	for _, tk := range ts {
		if tk.Label != "" {
			n++
		}
		if tk.Value < 11 || tk.Value > 13 {
			t.Errorf("tick %g outside [11, 13]", tk.Value)
		}
	}
	if n < 2 {
		t.Errorf("narrow axis: %d labels, want ≥ 2", n)
	}
}

func TestECDF(t *testing.T) {
	x, y := ECDF([]float64{3, 1, 2, math.NaN(), 2})
	if !slices.Equal(x, []float64{1, 2, 3}) || !slices.Equal(y, []float64{0.25, 0.75, 1}) {
		t.Errorf("ECDF = %v %v, want [1 2 3] [0.25 0.75 1]", x, y)
	}
}

func TestAskRate(t *testing.T) {
	tt, r := AskRate([]float64{0, 1, 3, 3, 7})
	if !slices.Equal(tt, []float64{0, 1, 3}) || !slices.Equal(r, []float64{1, 0.5, 0.25}) {
		t.Errorf("AskRate = %v %v, want [0 1 3] [1 0.5 0.25]", tt, r)
	}
}

// logNormal is a test density: ln(age) ~ N(ln 10, 1).
func logNormal(n int) (t, f, S, h []float64) {
	for i := 0; i < n; i++ {
		x := math.Log(10) + 4*(2*float64(i)/float64(n-1)-1)
		z := x - math.Log(10)
		ti := math.Exp(x)
		fi := math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) / ti
		Si := 0.5 * math.Erfc(z/math.Sqrt2)
		t, f, S, h = append(t, ti), append(f, fi), append(S, Si), append(h, fi/Si)
	}
	return
}

func TestDensity(t *testing.T) {
	tt, f, _, _ := logNormal(200)
	fig := Density(tt, f, Marks{Deadlines: []float64{60, 300}})
	info := checkFigure(t, fig, "density")
	want := []Series{{"smoothed density", Line, 200}, {"deadline", Rules, 2}}
	if !slices.Equal(fig.Series, want) {
		t.Errorf("series %v, want %v", fig.Series, want)
	}
	p := fig.Plot
	// The axis covers the data and the marks; t·f peaks at 1/√(2π).
	if !(p.X.Min <= tt[0] && p.X.Max >= 300) {
		t.Errorf("x axis [%g, %g] misses the data [%g, 300]", p.X.Min, p.X.Max, tt[0])
	}
	if peak := 1 / math.Sqrt(2*math.Pi); !(p.Y.Max >= peak && p.Y.Max < 1.2*peak) || p.Y.Min != 0 {
		t.Errorf("y axis [%g, %g], want [0, ≈%g]", p.Y.Min, p.Y.Max, peak)
	}
	for _, l := range []string{"1s", "10s", "1m", "10m"} {
		if !info.hasText(l) {
			t.Errorf("no tick label %q", l)
		}
	}
	for _, l := range []string{"age at final answer", "density per unit ln(age)"} {
		if !info.hasText(l) {
			t.Errorf("no axis label %q", l)
		}
	}
}

func TestSurvival(t *testing.T) {
	kmT := []float64{1, 2, 3}
	kmS := []float64{0.8, 0.5, 0.2}
	fig := Survival(kmT, kmS, []float64{1.5, 5, -1, math.NaN()}, nil, nil, Marks{})
	checkFigure(t, fig, "survival")
	// Staircase: (1,1) (1,.8) (2,.8) (2,.5) (3,.5) (3,.2) and on to 5.
	want := []Series{{"Kaplan–Meier", Line, 7}, {"censored (pending)", Points, 2}}
	if !slices.Equal(fig.Series, want) {
		t.Errorf("series %v, want %v", fig.Series, want)
	}
	m := censorMarks(kmT, kmS, []float64{0.5, 1, 1.5, 3, 5}, 0.1, 10)
	var ys []float64
	for _, p := range m {
		ys = append(ys, p.Y)
	}
	// Censored at an age with events sits after the drop (events first).
	if !slices.Equal(ys, []float64{1, 0.8, 0.8, 0.2, 0.2}) {
		t.Errorf("censor marks at %v, want [1 .8 .8 .2 .2]", ys)
	}
}

func TestHazard(t *testing.T) {
	tt, _, _, h := logNormal(300)
	asks := []float64{0, 1, 2, 4, 8, 16, 32, 64}
	rt, rr := AskRate(asks)
	fig := Hazard(tt, h, []Curve{{Name: "fitted", X: rt, Y: rr, Steps: true}}, asks)
	checkFigure(t, fig, "hazard")
	// The ask at 0 is off a log axis: 7 ticks. The fitted rate's 7 steps,
	// the first from the left edge, the last to the axis end: 14 vertices,
	// less one where the first two steps (both rate 1/s) meet.
	want := []Series{{"hazard h(t)", Line, 300}, {"fitted", Line, 13}, {"asks (fitted)", Ticks, 7}}
	if !slices.Equal(fig.Series, want) {
		t.Errorf("series %v, want %v", fig.Series, want)
	}
}

func TestLags(t *testing.T) {
	x, y := ECDF([]float64{0, 0.5, 1, 1, 2, 4})
	fig := Lags([]Curve{
		{Name: "fitted", X: x, Y: y, Steps: true},
		{Name: "baseline", X: []float64{1, 2, 5, 9}, Y: []float64{0.5, 0.9, 0.95, 0.99}},
	})
	checkFigure(t, fig, "lags")
	// 5 distinct lags: a start and two vertices per step, less the
	// first step's foot, which is the start (lag 0 at the left edge).
	want := []Series{{"fitted", Line, 10}, {"baseline", Line, 4}}
	if !slices.Equal(fig.Series, want) {
		t.Errorf("series %v, want %v", fig.Series, want)
	}
	if fig.Plot.X.Min <= 0 || fig.Plot.X.Max < 4 {
		t.Errorf("x axis [%g, %g]", fig.Plot.X.Min, fig.Plot.X.Max)
	}
}

func TestFrontier(t *testing.T) {
	cost := []float64{2, 4, 8, 16}
	wait := []float64{30, 10, 4, 1.5}
	fig := Frontier([]Curve{
		{Name: "optimal frontier", X: cost, Y: wait},
		{Name: "fixed interval", X: []float64{2, 4, math.NaN(), 16}, Y: []float64{60, 20, 9, 3}},
	}, []Point{{"fitted", 5, 8}, {"1s", 40, 0.5}, {"bad", math.NaN(), 3}})
	info := checkFigure(t, fig, "frontier")
	// The NaN cost drops a point of the fixed-interval curve.
	want := []Series{{"optimal frontier", Line, 4}, {"fixed interval", Line, 3}, {"fitted", Points, 1}, {"1s", Points, 1}}
	if !slices.Equal(fig.Series, want) {
		t.Errorf("series %v, want %v", fig.Series, want)
	}
	if fig.Plot.X.Max < 40 || fig.Plot.Y.Min > 0.5 || fig.Plot.Y.Max < 60 {
		t.Errorf("axes x≤%g y∈[%g, %g] miss the points", fig.Plot.X.Max, fig.Plot.Y.Min, fig.Plot.Y.Max)
	}
	n := 0
	for _, s := range info.texts {
		if s == "fitted" {
			n++
		}
	}
	if n != 2 { // legend and point label
		t.Errorf("label fitted appears %d times, want 2", n)
	}
}

func TestPhase(t *testing.T) {
	// 300 s period, 6 bins of 50 s: phases 10, 20, 40 → bin 0; 310 →
	// bin 0 (mod); 120 → bin 2; -10 → 290 → bin 5.
	fig := Phase([]float64{10, 20, 40, 310, 120, -10}, 300, 25, 6)
	checkFigure(t, fig, "phase")
	want := []Series{{"answers", Bars, 6}, {"estimated batch phase", Rules, 1}}
	if !slices.Equal(fig.Series, want) {
		t.Errorf("series %v, want %v", fig.Series, want)
	}
	if fig.Plot.Y.Max < 4.0/6 || fig.Plot.Y.Max > 1 {
		t.Errorf("y max %g, want just above 4/6", fig.Plot.Y.Max)
	}
}

func TestWriteTo(t *testing.T) {
	fig := Frontier([]Curve{{Name: "f", X: []float64{1, 2}, Y: []float64{2, 1}}}, nil)
	var b bytes.Buffer
	if err := fig.WriteTo(&b, "png"); err != nil || !bytes.HasPrefix(b.Bytes(), []byte("\x89PNG")) {
		t.Fatalf("png: %v, %q", err, b.Bytes()[:min(8, b.Len())])
	}
	// 5 × 3.3 inches at 150 dpi, and the legend's strip under the plot.
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	strip := int(math.Round(float64(fig.legendHeight(fig.legendColumns(Width)) / vg.Inch * 150)))
	if sz := img.Bounds().Size(); sz.X != 750 || sz.Y != 495+strip || strip < 10 {
		t.Errorf("png is %v pixels, want 750 × 495 + %d for the legend", sz, strip)
	}
	if err := fig.WriteTo(&b, "gif"); err == nil {
		t.Error("gif: no error")
	}
}

func TestThin(t *testing.T) {
	// 100000 points on a smooth curve thin to at most maxVertices,
	// keeping both ends.
	n := 100000
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = 1 + float64(i)
		y[i] = math.Sin(float64(i) / 1000)
	}
	pts := thin(xy(x, y, true, false), 1, float64(n), -1, 1, true, false)
	if len(pts) > maxVertices || pts[0].X != 1 || pts[len(pts)-1].X != float64(n) {
		t.Errorf("thinned to %d points from %g to %g", len(pts), pts[0].X, pts[len(pts)-1].X)
	}
}

// BenchmarkSurvivalSVG draws a Kaplan–Meier curve of 100 000 steps with
// 10 000 censoring marks: thinning keeps the picture (and the time) small.
func BenchmarkSurvivalSVG(b *testing.B) {
	n := 100000
	t, s := make([]float64, n), make([]float64, n)
	for i := range t {
		t[i] = 0.01 * math.Pow(1e6, float64(i)/float64(n))
		s[i] = 1 - float64(i+1)/float64(n+1)
	}
	var cens []float64
	for i := 0; i < n; i += 10 {
		cens = append(cens, t[i]*1.0001)
	}
	b.ResetTimer()
	for range b.N {
		f := Survival(t, s, cens, nil, nil, Marks{})
		svg, err := f.SVG()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(svg)), "bytes")
	}
}

// TestDeadlineLabel: the legend gives each deadline's age and share, a
// point mass the smooth density cannot show.
func TestDeadlineLabel(t *testing.T) {
	for _, c := range []struct {
		m    Marks
		want string
	}{
		{Marks{Deadlines: []float64{60}}, "deadline"},
		{Marks{Deadlines: []float64{60}, Shares: []float64{0.259}}, "deadline 1m: 25.9% of items"},
		{Marks{Deadlines: []float64{30, 90.5}, Shares: []float64{0.031, 0.2}}, "deadlines 30s: 3.1%, 90.5s: 20.0% of items"},
	} {
		if got := deadlineLabel(c.m); got != c.want {
			t.Errorf("%+v: %q, want %q", c.m, got, c.want)
		}
	}
}
