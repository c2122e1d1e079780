package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit"
)

// groupStudy is a study of two values by hand: "<card>" with a
// schedule of its own, "a b" under --min-group, following the one
// schedule.
func groupStudy(t *testing.T) *fit.GroupStudy {
	row := func(mean, p95, req float64, horizon time.Duration, stuck, missed float64) fit.Row {
		return fit.Row{Metrics: fit.Metrics{Lag: fit.LagStats{Mean: mean, P95: p95}, RequestsPerItem: req, Horizon: horizon}, Stuck: stuck, MissedShare: missed}
	}
	shared := mustParse(t, "2s until 30s")
	return &fit.GroupStudy{
		Groups: []fit.GroupFit{
			{Value: "<card>", Share: 0.25, Items: 100, Budget: 6.5, Schedule: mustParse(t, "1s until 10s"), Row: row(0.5, 1.2, 5.5, 10*time.Second, 11, 0.01)},
			{Value: "a b", Share: 0.75, Items: 300, Budget: 8.5, Fallback: true, Schedule: shared, Row: row(0.8, 2.5, 8.5, 30*time.Second, 16, 0)},
		},
		Shared:     &fit.StudyResult{Schedule: shared, Fitted: row(1, 3, 8, 30*time.Second, 16, 0.002)},
		Total:      fit.Total{Items: 400, LagMean: 0.75, RequestsPerItem: 7.75, Stuck: 14.75, MissedShare: 0.0025},
		Budget:     8,
		Allocation: fit.Allocation{Costs: []float64{6.5}, Price: 0.0123},
		MinFinal:   200,
	}
}

// TestSummariseSegments: the table's cells and sentences, worked out by
// hand from segmentStudy, and the value escaped in the page.
func TestSummariseSegments(t *testing.T) {
	tbl := SummariseGroups("method", groupStudy(t))
	var cells []string
	for _, r := range tbl.Rows {
		c := []string{r.Name}
		for _, p := range []Part{r.Share, r.Lag, r.P95, r.Req, r.Budget, r.Stuck, r.Missed, r.GiveUp, r.Schedule} {
			c = append(c, p.Text)
		}
		cells = append(cells, strings.Join(c, " | "))
	}
	want := []string{
		"<card> | 25.0% | 500ms | 1.2s | 5.50 | 6.50 | 11 | 1.0% | 10s | 1s until 10s",
		`"a b" * | 75.0% | 800ms | 2.5s | 8.50 | 8.50 | 16 | 0.0% | 30s | 2s until 30s`,
		"total | 100.0% | 750ms |  | 7.75 | 8.00 | 14.8 | 0.2% |  | ",
		"one schedule | 100.0% | 1s | 3s | 8.00 | 8.00 | 16 | 0.2% | 30s | 2s until 30s",
	}
	if !slices.Equal(cells, want) {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(cells, "\n"), strings.Join(want, "\n"))
	}
	var points []string
	for _, p := range append([]Sentence{tbl.Lead}, tbl.Points...) {
		points = append(points, sentence(p))
	}
	wantPoints := []string{
		"Or ship one schedule per value of method, 8 requests per item on average, shared where the next request buys the most lag:",
		"* Fewer than 200 final answers to fit on (--min-group): follows the one schedule.",
		"Budget shared at one price: the last request per item buys 0.0123 s of lag per item in every value above its cheapest fit (--budget-per-group gives each the budget itself).",
		"Segmenting: 3.1% fewer requests and 25.0% less mean lag at the same budget (750ms against 1s for the one schedule, at 7.75 against 8.00 requests per item, on the same 400 held-out items).", // 7.75/8 − 1 = −3.125%
	}
	if !slices.Equal(points, wantPoints) {
		t.Errorf("sentences\n%q\nwant\n%q", points, wantPoints)
	}
	if f := tbl.Points[2][1].Figs; len(f) != 1 || f[0] != (Fig{"by.change", "-0.25"}) {
		t.Errorf("change figure %v, want by.change=-0.25", f)
	}
	var b bytes.Buffer
	if err := Write(&b, &Report{Summary: &Summary{Segments: tbl}}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Contains(page, "<card>") || !strings.Contains(page, `<td class="name">&lt;card&gt;</td>`) || !strings.Contains(page, `<td class="name">&#34;a b&#34; *</td>`) {
		t.Errorf("values not escaped:\n%s", page[strings.Index(page, `<table id="segments">`):])
	}
}

// TestSummariseSegmentsUnspent: where every value's dearest fit spends
// less than its share (price 0), the total's budget is what the values'
// budgets come to, (100 × 5 + 300 × 8.5) / 400 = 7.625 of the 8, and the
// sentence says the budget was not all given out, not that it was shared
// at a price.
func TestSummariseSegmentsUnspent(t *testing.T) {
	s := groupStudy(t)
	s.Groups[0].Budget, s.Allocation = 5, fit.Allocation{Costs: []float64{5}}
	tbl := SummariseGroups("method", s)
	if got := tbl.Rows[2].Budget.Text; got != "7.62" && got != "7.63" {
		t.Errorf("total budget %s, want 7.625", got)
	}
	want := "Budget not all given out: within its stuck cap, every value's dearest fit spends less than its share; together they take 7.62 of the 8.00 requests per item (--stuck-asks to raise the caps)."
	if got := sentence(tbl.Points[1]); got != want && got != strings.Replace(want, "7.62", "7.63", 1) {
		t.Errorf("sentence %q,\nwant %q", got, want)
	}
}

// TestSummariseSegmentsPerSegment: with --budget-per-group the lead
// says each value got the budget and there is no price; without a
// value under --min-group there is no footnote; and a one schedule
// without lag leaves the change without a figure.
func TestSummariseSegmentsPerSegment(t *testing.T) {
	s := groupStudy(t)
	s.PerGroup, s.Allocation = true, fit.Allocation{}
	s.Groups[1].Fallback = false
	s.Shared.Fitted.Lag.Mean = 0
	tbl := SummariseGroups("method", s)
	if got := sentence(tbl.Lead); got != "Or ship one schedule per value of method, each at 8 requests per item (--budget-per-group):" {
		t.Errorf("lead %q", got)
	}
	if len(tbl.Points) != 1 {
		t.Fatalf("%d sentences, want the segmenting one alone: %v", len(tbl.Points), tbl.Points)
	}
	if got := sentence(tbl.Points[0]); !strings.HasPrefix(got, "Segmenting: 3.1% fewer requests and no comparable mean lag at the same budget (750ms against 0 for the one schedule") {
		t.Errorf("segmenting %q", got)
	}
	if f := tbl.Points[0][1].Figs; f != nil {
		t.Errorf("a change figure %v without a comparable lag", f)
	}
	if name := tbl.Rows[1].Name; name != `"a b"` {
		t.Errorf("row name %q, want the value quoted and unmarked", name)
	}
}
