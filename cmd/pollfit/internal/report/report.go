package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/plot"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Report is everything one report shows, in order.
type Report struct {
	// Title heads the page (default "pollfit report").
	Title string
	// Command is the command line that reproduces the report.
	Command string
	// Inputs are the logs read.
	Inputs []string
	// Version is the pollfit that wrote the report, shown in the footer.
	Version string
	// Summary is the decision the report opens with.
	Summary *Summary
	// Facts are short labelled facts about the data and the fit (items,
	// share never answered, deadlines, the batch period, the budget,
	// the hold-out), shown as a list.
	Facts []Fact
	// Schedule is the fitted schedule in the schedule language; empty
	// when there is none.
	Schedule string
	// Metrics are the replayed schedules, shown as a table.
	Metrics []fit.Row
	// MetricsNote says what the metrics were measured on (the hold-out).
	MetricsNote string
	// Sections are the pictures, each with a short explanation.
	Sections []Section
	// Warnings are statistical caveats, shown in a box near the top.
	Warnings []string

	// Study is the fit behind the report; Write does not use it.
	Study *fit.StudyResult
}

// Fact is one labelled fact.
type Fact struct{ Label, Value string }

// Section is one picture with its heading and explanation.
type Section struct {
	ID, Title, Text string
	Figure          *plot.Figure
}

// figure is a section ready for the template.
type figure struct {
	ID, Title, Text string
	SVG             template.HTML
	Series          string
}

// row is a metrics table row, formatted.
type row struct {
	Name, Schedule                   string
	Short                            string // Schedule cut short, if long
	Items, Detected, Missed, Pending string
	Mean, P50, P90, P99, Max, Req    string
	Stuck, MissedShare               string
	AsksBy                           []string
}

// Write renders r as a self-contained HTML page.
func Write(w io.Writer, r *Report) error {
	data := struct {
		*Report
		Figures []figure
		Rows    []row
		AsksBy  []string // column heads: the ages
	}{Report: r}
	if len(r.Metrics) > 0 {
		for _, a := range r.Metrics[0].AsksByAges {
			data.AsksBy = append(data.AsksBy, "asks by "+schedule.FormatAge(a.Seconds()))
		}
	}
	if data.Title == "" {
		r2 := *r
		r2.Title = "pollfit report"
		data.Report = &r2
	}
	for _, s := range r.Sections {
		if s.Figure == nil {
			continue
		}
		// The section heading is the picture's title.
		title := s.Figure.Plot.Title.Text
		s.Figure.Plot.Title.Text = ""
		svg, err := s.Figure.SVG()
		s.Figure.Plot.Title.Text = title
		if err != nil {
			return fmt.Errorf("report: section %s: %w", s.ID, err)
		}
		data.Figures = append(data.Figures, figure{ID: s.ID, Title: s.Title, Text: s.Text,
			SVG: template.HTML(svg), Series: seriesAttr(s.Figure.Series)})
	}
	for _, m := range r.Metrics {
		sched := m.Schedule
		if sched == "" { // the limit: hindsight, not one schedule
			sched = "none to ship: the exact optimum in hindsight on the held-out items, at the fitted schedule's cost"
		}
		data.Rows = append(data.Rows, row{
			Name: m.Name, Schedule: sched,
			Items: whole(m.Items), Detected: whole(m.Detected),
			Missed: whole(m.Missed), Pending: whole(m.Pending),
			Stuck: num(m.Stuck), MissedShare: fmt.Sprintf("%.1f%%", 100*m.MissedShare),
			Mean: schedule.FormatAge(m.Lag.Mean), P50: schedule.FormatAge(m.Lag.P50), P90: schedule.FormatAge(m.Lag.P90),
			P99: schedule.FormatAge(m.Lag.P99), Max: schedule.FormatAge(m.Lag.Max), Req: num(m.RequestsPerItem),
			Short: short(m.Schedule, 160), AsksBy: asksBy(m.AsksBy),
		})
	}
	var b bytes.Buffer
	if err := page.Execute(&b, data); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// seriesAttr is the data-series attribute: name|kind|points; ...
func seriesAttr(ss []plot.Series) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		name := strings.NewReplacer("|", "/", ";", ",").Replace(s.Name)
		parts[i] = fmt.Sprintf("%s|%s|%d", name, s.Kind, s.N)
	}
	return strings.Join(parts, ";")
}

// whole formats a count, a weighted sum: whole numbers without decimals.
func whole(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

func num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// short cuts a long schedule at a space before n bytes, with "…" and
// the number of asks of a long "at" list; "" if s is short enough.
func short(s string, n int) string {
	if len(s) <= n {
		return ""
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
	}
	if rest, ok := strings.CutPrefix(s, "at "); ok && !strings.Contains(rest, ",") {
		return s[:cut] + " … (" + strconv.Itoa(len(strings.Fields(rest))) + " asks)"
	}
	return s[:cut] + " …"
}

func asksBy(n []float64) []string {
	out := make([]string, len(n))
	for i, v := range n {
		out[i] = strconv.FormatFloat(v, 'f', -1, 64)
		if v != math.Trunc(v) {
			out[i] = strconv.FormatFloat(v, 'f', 1, 64)
		}
	}
	return out
}
