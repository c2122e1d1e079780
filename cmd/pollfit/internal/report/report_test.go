package report

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/loggen"
	"golang.org/x/net/html"
)

func mustParse(t *testing.T, src string) *schedule.Schedule {
	t.Helper()
	s, err := schedule.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// doc is a parsed report.
type doc struct {
	root *html.Node
}

func render(t *testing.T, r *Report) (*doc, string) {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	d, err := html.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return &doc{d}, b.String()
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// all returns the elements under n (n included) that match.
func all(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func tag(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == name }
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func (p *doc) byID(id string) *html.Node {
	ns := all(p.root, func(n *html.Node) bool { v, _ := attr(n, "id"); return v == id })
	if len(ns) != 1 {
		return nil
	}
	return ns[0]
}

var pathVertex = regexp.MustCompile(`[ML]`)

// checkSelfContained fails on anything that would be fetched or run.
func checkSelfContained(t *testing.T, p *doc, raw string) {
	t.Helper()
	if n := all(p.root, func(n *html.Node) bool {
		return n.Data == "script" || n.Data == "link" || n.Data == "iframe" || n.Data == "img" || n.Data == "object"
	}); len(n) > 0 {
		t.Errorf("report has a <%s> element", n[0].Data)
	}
	for _, n := range all(p.root, func(*html.Node) bool { return true }) {
		for _, a := range n.Attr {
			if (a.Key == "src" || a.Key == "href") && !strings.HasPrefix(a.Val, "#") {
				t.Errorf("<%s %s=%q> refers outside the page", n.Data, a.Key, a.Val)
			}
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("<%s> has an event handler %s", n.Data, a.Key)
			}
		}
	}
	for _, bad := range []string{"@import", "url(", "@font-face"} {
		if strings.Contains(raw, bad) {
			t.Errorf("report contains %q", bad)
		}
	}
}

// checkFigures checks that every figure is one inline SVG with the data
// its data-series attribute announces, and returns the series by figure
// section id.
func checkFigures(t *testing.T, p *doc) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, fig := range all(p.root, tag("figure")) {
		id, _ := attr(fig.Parent, "id")
		svgs := all(fig, tag("svg"))
		if len(svgs) != 1 {
			t.Errorf("%s: %d svg elements, want 1", id, len(svgs))
			continue
		}
		svg := svgs[0]
		if _, ok := attr(svg, "viewBox"); !ok {
			t.Errorf("%s: svg without a viewBox", id)
		}
		if _, ok := attr(svg, "width"); ok {
			t.Errorf("%s: svg has a fixed width", id)
		}
		var verts []int
		paths := all(svg, tag("path"))
		for _, pa := range paths {
			d, _ := attr(pa, "d")
			if !strings.Contains(d, "A") {
				verts = append(verts, len(pathVertex.FindAllString(d, -1)))
			}
		}
		ds, _ := attr(fig, "data-series")
		if ds == "" {
			t.Errorf("%s: no data-series", id)
			continue
		}
		for _, s := range strings.Split(ds, ";") {
			f := strings.Split(s, "|")
			if len(f) != 3 {
				t.Fatalf("%s: bad series %q", id, s)
			}
			n, err := strconv.Atoi(f[2])
			if err != nil || n <= 0 {
				t.Errorf("%s: series %q has no points", id, s)
			}
			switch f[1] {
			case "line":
				if !slices.Contains(verts, n) {
					t.Errorf("%s: no path with the %d vertices of series %q", id, n, f[0])
				}
			case "points": // a path per glyph
				if len(paths) < n {
					t.Errorf("%s: %d paths, fewer than the %d points of %q", id, len(paths), n, f[0])
				}
			}
			out[id] = append(out[id], f[0])
		}
	}
	return out
}

func items(m loggen.Model, n int, seed uint64) []estimate.Item {
	return loggen.Items(loggen.Rows(m, n, seed))
}

// build runs the study and its frontier on items and builds the report.
func build(t *testing.T, its []estimate.Item, so fit.StudyOptions, opt Options) (*Report, error) {
	t.Helper()
	st, err := fit.Study(context.Background(), fit.ItemSample(its), nil, so)
	if err != nil {
		return nil, err
	}
	front, _, err := fit.StudyFrontier(context.Background(), fit.ItemSample(its), nil, nil, so, []float64{3, 6, 12})
	if err != nil {
		t.Fatal(err)
	}
	return Build(st, front, opt)
}

func TestReportPayments(t *testing.T) {
	its := items(loggen.Payments, 3000, 1)
	cmd := "pollfit report payments.csv --requests 10 --holdout 0.3"
	r, err := build(t, its, fit.StudyOptions{
		Options:   fit.Options{Budget: fit.Budget{RequestsPerItem: 10}, Horizon: 15 * time.Minute},
		Baselines: []fit.Baseline{{Name: "current", Schedule: mustParse(t, "1s until 30s, 5s")}, {Name: "push", Schedule: mustParse(t, "2s, reset on signal")}},
		Holdout:   0.3, Seed: 2,
		AsksBy: []time.Duration{30 * time.Second, 2 * time.Minute},
	}, Options{Inputs: []string{"payments.csv"}, Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	p, raw := render(t, r)
	checkSelfContained(t, p, raw)
	for _, id := range []string{"summary", "decision", "density", "survival", "hazard", "lags", "items", "frontier", "metrics", "reproduce"} {
		if p.byID(id) == nil {
			t.Errorf("no section %q", id)
		}
	}
	if p.byID("phase") != nil {
		t.Error("a phase section for a log without batches")
	}
	series := checkFigures(t, p)
	// The lag legend names each schedule with its held-out requests per
	// item, the metrics table's figure.
	var lags []string
	for _, m := range r.Metrics {
		if m.Name != r.Study.Limit.Name {
			lags = append(lags, fmt.Sprintf("%s, %.2f req/item", m.Name, m.RequestsPerItem))
		}
	}
	for id, want := range map[string][]string{
		"lags":     lags,
		"frontier": {"limit (by age), in hindsight", "fitted schedules", "fixed interval", "backoff ×2", "backoff ×2, full jitter", "fitted", "exact (fit)", "current", "fitted@current", "push", "fitted@push"},
		"survival": {"Kaplan–Meier", "smoothed", "censored (pending)"},
	} {
		if !slices.Equal(series[id], want) {
			t.Errorf("%s series %q, want %q", id, series[id], want)
		}
	}
	if it := series["items"]; len(it) < 3 || !slices.Equal(it[:3], []string{"answers", "asks", "lags"}) {
		t.Errorf("items series %q", it)
	}
	// The summary: the schedule to ship and today's, the first baseline,
	// and the same-cost comparison in fit's words.
	sum := r.Summary
	if len(sum.Rows) != 2 || sum.Rows[0].Name != "fitted" || sum.Rows[1].Name != "current" {
		t.Errorf("summary rows %+v", sum.Rows)
	}
	want := "At the same cost as current: " + r.Study.Baselines[0].LagChange()
	if c := r.Study.Baselines[0]; !c.AtSameCost() {
		want = "Against current, at the fit at its cost: " + c.Changes()
	}
	if pts := text(p.byID("points")); !strings.Contains(pts, want) {
		t.Errorf("summary points %q lack the comparison %q", pts, want)
	}
	// It opens with the study's decision, in fit's words.
	d := r.Study.Decision
	if got, want := text(p.byID("decision-sentence")), fit.FormatRequestsChange(d.RequestsChange, d.RequestsCI)+" and "+fit.FormatLagChange(d.LagChange, d.LagCI); !strings.Contains(got, want) {
		t.Errorf("decision %q, want it to say %q", got, want)
	}
	if h := series["hazard"]; len(h) < 3 || h[0] != "hazard h(t)" || h[1] != "optimal rate r(t)" || h[len(h)-1] != "asks (fitted)" {
		t.Errorf("hazard series %q", h)
	}
	// The metrics table: one row per schedule, in order.
	rows := all(p.byID("metrics"), tag("tr"))[1:]
	var names []string
	for _, tr := range rows {
		names = append(names, strings.TrimSpace(text(all(tr, tag("td"))[0])))
	}
	if !slices.Equal(names, []string{"fitted", "limit (by age)", "exact (fit)", "current", "fitted@current", "push", "fitted@push"}) {
		t.Errorf("table rows %q", names)
	}
	// The fitted schedule is shown in the language and parses back to
	// the result's schedule; the command is shown verbatim.
	got, err := schedule.Parse(text(p.byID("schedule")))
	if err != nil || !got.Equal(r.Study.Schedule) {
		t.Errorf("schedule %q does not parse back: %v", text(p.byID("schedule")), err)
	}
	if c := text(p.byID("command")); c != cmd {
		t.Errorf("command %q, want %q", c, cmd)
	}
	// The metrics are the hold-out's: 30% of 3000 ± 4σ.
	m := r.Metrics[0]
	if sd := math.Sqrt(3000 * 0.3 * 0.7); math.Abs(float64(m.Items)-900) > 4*sd {
		t.Errorf("hold-out of %.0f items, want about 900", m.Items)
	}
	// "1s until 30s, 5s" asks at 0, 1, ..., 30 s (31 asks) and at 35, 40,
	// ..., 120 s (18 more) by 2m.
	heads := all(all(p.byID("metrics"), tag("thead"))[0], tag("th"))
	if h := text(heads[len(heads)-1]); h != "asks by 2m" {
		t.Errorf("last column %q, want asks by 2m", h)
	}
	cells := all(rows[3], tag("td"))
	if a, b := text(cells[len(cells)-2]), text(cells[len(cells)-1]); a != "31" || b != "49" {
		t.Errorf("current asks by 30s, 2m = %s, %s; want 31, 49", a, b)
	}
	if !strings.Contains(raw, "10 requests per item") {
		t.Error("budget not shown")
	}
}

func TestReportBatch(t *testing.T) {
	its := items(loggen.Batch, 3000, 3)
	r, err := build(t, its, fit.StudyOptions{
		Options:   fit.Options{Budget: fit.Budget{RequestsPerItem: 8}},
		Baselines: []fit.Baseline{{Name: "every-10s", Schedule: mustParse(t, "10s")}, {Name: "aligned", Schedule: mustParse(t, "30s, every 5m at +5s")}},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, raw := render(t, r)
	checkSelfContained(t, p, raw)
	series := checkFigures(t, p)
	if p.byID("phase") == nil {
		t.Fatal("no phase section for a batch log")
	}
	if s := series["phase"]; len(s) != 2 || s[0] != "answers" {
		t.Errorf("phase series %q", s)
	}
	if !strings.Contains(raw, `answers|bars|60`) {
		t.Error("phase histogram without its 60 bins")
	}
	if strings.Contains(raw, "batch period|rules") {
		t.Error("the batch period, a wall-clock interval, drawn as an age on the density")
	}
}

func TestNoBudget(t *testing.T) {
	its := items(loggen.Deadline, 1500, 4)
	// Every 10 s: a budget of tens of requests per item, which fits in a
	// few seconds (every 2 s, five times that, takes five times as long).
	base := mustParse(t, "10s")
	// The budget's wording, not the shapes: none searched for.
	r, err := build(t, its, fit.StudyOptions{Baselines: []fit.Baseline{{Name: "ten", Schedule: base}}, NoDeadlines: true, NoBatches: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The budget is the baseline's cost on the fitting items (all of
	// them, with no hold-out) to the give-up age.
	bm, err := fit.Replay(base, its, fit.ReplayOptions{Horizon: r.Study.GiveUp.Age})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Study.Budget.RequestsPerItem; got != bm.RequestsPerItem || r.Study.BudgetFrom != "ten" {
		t.Errorf("budget %g requests per item from %q, want the baseline's %g", got, r.Study.BudgetFrom, bm.RequestsPerItem)
	}
	// The summary says the schedule to ship spends today's cost.
	var lead strings.Builder
	for _, p := range r.Summary.Lead {
		lead.WriteString(p.Text)
	}
	if want := fmt.Sprintf("fitted at ten's cost on the fitting items (%.2f requests per item; no budget was given", bm.RequestsPerItem); !strings.Contains(lead.String(), want) {
		t.Errorf("lead %q, want it to say %q", lead.String(), want)
	}
	if _, err := build(t, its, fit.StudyOptions{}, Options{}); err == nil {
		t.Error("no budget, no baseline: no error")
	}
	if _, err := Build(nil, nil, Options{}); err == nil {
		t.Error("no study: no error")
	}
}

func TestShort(t *testing.T) {
	if s := short("1s until 30s, 5s", 160); s != "" {
		t.Errorf("short of a short schedule = %q", s)
	}
	long := "at" + strings.Repeat(" 1.234s", 40)
	s := short(long, 60)
	if !strings.HasSuffix(s, "… (40 asks)") || len(s) > 80 {
		t.Errorf("short = %q", s)
	}
}

// BenchmarkReport builds and writes the report of a 10 000-item payments
// log with one baseline and a 30% hold-out.
func BenchmarkReport(b *testing.B) {
	its := items(loggen.Payments, 10000, 1)
	base, _ := schedule.Parse("1s until 30s, 5s")
	for range b.N {
		so := fit.StudyOptions{Options: fit.Options{Budget: fit.Budget{RequestsPerItem: 10}},
			Baselines: []fit.Baseline{{Name: "now", Schedule: base}}, Holdout: 0.3, Seed: 1}
		st, err := fit.Study(context.Background(), fit.ItemSample(its), nil, so)
		if err != nil {
			b.Fatal(err)
		}
		r, err := Build(st, nil, Options{})
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, r); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(buf.Len()), "bytes")
	}
}

// A histogram's report: its items are weighted bins, so the counts are
// the bins' counts and the lag curves the replayed percentiles.
func TestReportHistogram(t *testing.T) {
	its := items(loggen.Payments, 2000, 6)
	bins := map[[2]float64]float64{}
	for _, it := range its {
		st := 0.0
		if it.Status.Final() {
			st = 1
		}
		bins[[2]float64{math.Round(it.Age*10) / 10, st}]++
	}
	var smp fit.Sample
	var final float64
	for k, n := range bins {
		s := estimate.Pending
		if k[1] == 1 {
			s, final = estimate.Settled, final+n
		}
		smp.Items = append(smp.Items, estimate.Item{Age: k[0], Status: s})
		smp.Weights = append(smp.Weights, n)
	}
	st, err := fit.Study(context.Background(), smp, nil, fit.StudyOptions{Options: fit.Options{Budget: fit.Budget{RequestsPerItem: 6}}, Holdout: 0.3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(st, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := st.FitOn.Total() + st.HeldOut.Total(); math.Abs(n-2000) > 1e-6 {
		t.Fatalf("the split holds %g items, not the 2000 given", n)
	}
	want := fmt.Sprintf("2000 in all (%.0f fitting, %.0f held out): %.0f settled, 0 failed, %.0f pending", st.FitOn.Total(), st.HeldOut.Total(), final, 2000-final)
	if got := r.Facts[0].Value; got != want {
		t.Errorf("items fact %q, want %q", got, want)
	}
	p, raw := render(t, r)
	checkSelfContained(t, p, raw)
	if s := checkFigures(t, p)["lags"]; len(s) == 0 || s[0] != fmt.Sprintf("fitted, %.2f req/item", r.Metrics[0].RequestsPerItem) {
		t.Errorf("lag series %q", s)
	}
}

func sentence(s Sentence) string {
	var b strings.Builder
	for _, p := range s {
		b.WriteString(p.Text)
	}
	return b.String()
}

// A summary without a baseline says there is nothing to compare with,
// and the knee is the frontier point marked so, here 6 requests per
// item where the fit waits 2 s, against a schedule to ship at 10.
func TestSummaryWithoutBaseline(t *testing.T) {
	nan := math.NaN()
	st := &fit.StudyResult{Schedule: mustParse(t, "1s until 30s"), Budget: fit.Budget{RequestsPerItem: 10},
		Fitted:   fit.Row{Metrics: fit.Metrics{Name: "fitted", RequestsPerItem: 10, Lag: fit.LagStats{Mean: 0.5}}, Stuck: 31, LagCI: fit.Interval{nan, nan}, RequestsCI: fit.Interval{nan, nan}},
		GiveUp:   fit.GiveUp{Age: 30 * time.Second, Share: 0.99, Reason: "99.0% of the fitting items' answers land by then"},
		StuckCap: 80, StuckCapReason: "8 × the requests budget"}
	front := []fit.FrontierPoint{{RequestsPerItem: 4}, {RequestsPerItem: 6, Knee: true, Fitted: fit.Prediction{Lag: fit.LagStats{Mean: 2}}}}
	s := Summarise(st, front)
	if len(s.Rows) != 1 || s.Rows[0].Lag.Text != "500ms" || s.Rows[0].LagCI.Text != "-" || s.Rows[0].Stuck.Text != "31" {
		t.Errorf("rows %+v", s.Rows)
	}
	var all []string
	for _, p := range s.Points {
		all = append(all, sentence(p))
	}
	want := []string{
		"No baseline was given (--baseline NAME=SCHEDULE), so there is no schedule of today's to compare with.",
		"Stuck cost: an item that never answers is asked 31 times by 30s by the schedule to ship; the fit's cap is 80 (8 × the requests budget).",
		"Give up at 30s (99.0% of the fitting items' answers land by then): every schedule here, the one to ship and today's alike, stops asking then and is costed to there.",
		"The frontier's knee is at 6 requests per item, where the fit waits 2s: from it on, one more request per item buys less than 5% of the mean lag at every budget the frontier picture draws. The schedule to ship spends more than that.",
	}
	if !slices.Equal(all, want) {
		t.Errorf("points\n%q\nwant\n%q", all, want)
	}
	if got := sentence(s.Lead); got != "Ship this schedule, fitted at the budget given, 10 requests per item:" {
		t.Errorf("lead %q", got)
	}
}

// A sketch's item sample beyond its size (Scale > 1) stands for more
// rows than it holds: the report's counts by status are estimates and
// say so, "about", rounded. 1500 sampled rows each standing for 4 rows:
// 6000 in all, 4 × the settled rows settled.
func TestReportSampledCounts(t *testing.T) {
	its := items(loggen.Payments, 1500, 7)
	smp := fit.Sample{Items: its, Weights: make([]float64, len(its)), Scale: 4}
	settled := 0.0
	for i, it := range its {
		smp.Weights[i] = 4
		if it.Status == estimate.Settled {
			settled += 4
		}
	}
	st, err := fit.Study(context.Background(), smp, nil, fit.StudyOptions{Options: fit.Options{Budget: fit.Budget{RequestsPerItem: 6}}, Holdout: 0.3, Seed: 1, Bootstrap: 0})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(st, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := r.Facts[0].Value
	if want := fmt.Sprintf("6000 in all (%.0f fitting, %.0f held out): about %.0f settled,", st.FitOn.Total(), st.HeldOut.Total(), settled); !strings.HasPrefix(got, want) {
		t.Errorf("items fact %q, want it to start %q", got, want)
	}
}
