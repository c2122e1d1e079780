package main

import (
	"encoding/json"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/fit"
)

// frontierOut is frontier --json: its rows, with --by one set per value.
type frontierOut struct {
	Points   []frontierRow `json:"points"`
	Segments []struct {
		Value  string        `json:"value"`
		Points []frontierRow `json:"points"`
	} `json:"segments"`
}

// runJSON runs pollfit with args and decodes its JSON into v.
func runJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	out, errs, code := cliRun(t, args...)
	if code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, errs)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
}

// fitted is the fitted row of frontier rows at budget b.
func fitted(t *testing.T, rows []frontierRow, b float64) frontierRow {
	t.Helper()
	for _, r := range rows {
		if r.Kind == "fitted" && r.Requests != nil && math.Abs(*r.Requests-b) < 1e-9 {
			return r
		}
	}
	t.Fatalf("no fitted row at %g requests per item", b)
	return frontierRow{}
}

// Each frontier row is what fit ships at that budget: on a log that
// settles in batches (testdata/batch.csv: 5-minute boundaries) and one
// whose failures land at a 60 s timeout (testdata/deadline.csv), the
// fitted row at 8 requests per item is fit --requests-per-item 8's
// schedule, with its batch asks ("every 5m") or its burst at the
// deadline ("at 1m0.05s"), and its held-out mean lag. Frontier used to
// leave the shapes out: 10.5 s against fit's 2.74 s, 1.45 s against
// 1.05 s.
func TestFrontierRowIsFit(t *testing.T) {
	for _, c := range []struct{ log, shape string }{
		{"../../testdata/batch.csv", "every 5m"},
		{"../../testdata/deadline.csv", "at 1m0.05s"},
	} {
		var fr frontierOut
		runJSON(t, &fr, "frontier", "-q", "--json", "--budgets", "8", c.log)
		var res struct {
			Schedule string `json:"schedule"`
			Fitted   struct {
				Lag struct{ Mean float64 } `json:"lag_s"`
			} `json:"fitted"`
		}
		runJSON(t, &res, "fit", "-q", "--json", "--bootstrap", "0", "--requests-per-item", "8", c.log)
		row := fitted(t, fr.Points, 8)
		if row.Schedule != res.Schedule || *row.MeanLag != res.Fitted.Lag.Mean {
			t.Errorf("%s: frontier ships %q (%.3gs), fit %q (%.3gs)", c.log, row.Schedule, *row.MeanLag, res.Schedule, res.Fitted.Lag.Mean)
		}
		if !strings.Contains(row.Schedule, c.shape) {
			t.Errorf("%s: frontier's schedule %q lacks the shape %q", c.log, row.Schedule, c.shape)
		}
	}
}

// frontier --by's row of each value at a budget is fit --by's schedule
// for that value when every value gets that budget
// (--budget-per-group): the mixed log's bank transfers settle in
// 5-minute batches, so their schedule asks after each boundary; frontier
// --by used to fit them without (11.8 s against fit --by's 1.31 s).
func TestFrontierByIsFitBy(t *testing.T) {
	log := groupedLog(t, t.TempDir(), "8000")
	var fr frontierOut
	runJSON(t, &fr, "frontier", "-q", "--json", "--by", "method", "--budgets", "6", log)
	var res struct {
		Segments []struct {
			Value, Schedule string
			Row             struct {
				Lag struct{ Mean float64 } `json:"lag_s"`
			} `json:"metrics"`
		}
	}
	runJSON(t, &res, "fit", "-q", "--json", "--by", "method", "--budget-per-group", "--requests-per-item", "6", log)
	if len(fr.Segments) != len(res.Segments) {
		t.Fatalf("frontier has %d values, fit %d", len(fr.Segments), len(res.Segments))
	}
	for i, s := range res.Segments {
		row := fitted(t, fr.Segments[i].Points, 6)
		if fr.Segments[i].Value != s.Value || row.Schedule != s.Schedule || *row.MeanLag != s.Row.Lag.Mean {
			t.Errorf("%s: frontier ships %q (%.3gs), fit --by %s %q (%.3gs)", fr.Segments[i].Value, row.Schedule, *row.MeanLag, s.Value, s.Schedule, s.Row.Lag.Mean)
		}
		if s.Value == "bank_transfer" && !strings.Contains(row.Schedule, "every 5m") {
			t.Errorf("bank transfers: %q has no batch asks", row.Schedule)
		}
	}
}

// The knee is one: frontier's text and its --json with the same flags
// mark the same budget, and the knee's rule holds at every row of the
// table past it, worked from the rows' own mean lags: made monotone in
// the budget, each next request buys less than 5% of the lag. On
// payments with today's schedule, frontier put the knee at 11.3 requests
// per item with the row after it buying 51.2 ms of 880 ms (5.8%), and
// the report at 14.1. The report draws the fit's frontier at its own
// budgets (fit.ReportBudgets), not frontier's: at a budget given, its
// knee is the one frontier --budgets marks at those budgets.
func TestOneKnee(t *testing.T) {
	log, base := "../../testdata/payments.csv", "--baseline=now=1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m"
	var fr frontierOut
	runJSON(t, &fr, "frontier", "-q", "--json", base, log)
	var rows []frontierRow
	knee := -1
	for _, r := range fr.Points {
		if r.Kind == "fitted" {
			if r.Knee == 1 {
				knee = len(rows)
			}
			rows = append(rows, r)
		}
	}
	if knee < 0 {
		t.Fatal("frontier --json marks no knee")
	}
	lag := make([]float64, len(rows))
	for i, r := range rows {
		lag[i] = *r.MeanLag
		if i > 0 {
			lag[i] = math.Min(lag[i], lag[i-1])
		}
	}
	for i := knee; i+1 < len(rows); i++ {
		gain := (lag[i] - lag[i+1]) / (*rows[i+1].Requests - *rows[i].Requests)
		if !(gain < fit.KneeShare*lag[i]) {
			t.Errorf("past the knee at %.3g: at %.3g the next request buys %.3gs of %.3gs", *rows[knee].Requests, *rows[i].Requests, gain, lag[i])
		}
	}
	if i := knee - 1; i >= 0 && (lag[i]-lag[i+1])/(*rows[i+1].Requests-*rows[i].Requests) < fit.KneeShare*lag[i] {
		// The row before the knee buys less too: then the knee is not the first from which on the rule holds.
		t.Errorf("the row before the knee at %.3g buys less than 5%% as well", *rows[knee].Requests)
	}
	want := *rows[knee].Requests
	text, errs, code := cliRun(t, "frontier", "-q", base, log)
	if code != 0 {
		t.Fatal(errs)
	}
	if !strings.Contains(text, "knee at "+strconv.FormatFloat(want, 'g', 3, 64)+" requests per item") {
		t.Errorf("frontier's text does not put the knee at %.3g:\n%s", want, text)
	}
	var budgets []string
	for _, b := range fit.ReportBudgets(fit.Budget{RequestsPerItem: 8}) {
		budgets = append(budgets, strconv.FormatFloat(b, 'g', -1, 64))
	}
	runJSON(t, &fr, "frontier", "-q", "--json", "--budgets", strings.Join(budgets, ","), base, log)
	want = math.NaN()
	for _, r := range fr.Points {
		if r.Kind == "fitted" && r.Knee == 1 {
			want = *r.Requests
		}
	}
	page, errs, code := cliRun(t, "report", "-q", "--requests-per-item", "8", base, log)
	if code != 0 {
		t.Fatal(errs)
	}
	got := math.NaN()
	if m := regexp.MustCompile(`frontier\.knee\.requests_per_item=([0-9.e+-]+)`).FindStringSubmatch(html.UnescapeString(page)); m != nil {
		got, _ = strconv.ParseFloat(m[1], 64)
	}
	if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
		t.Errorf("report's knee at %g requests per item, frontier --budgets %s's at %g (NaN: none)", got, strings.Join(budgets, ","), want)
	}
}

// fit --by takes a --baseline, one for all values, and opens with each
// value's decision: its schedule against the baseline on the value's
// held-out items. The JSON's decisions carry both rows; each change is
// worked here from them, and the text's first lines are the decisions
// in the values' order, each naming the baseline. Only the wallets
// (answered within 5 s, where the baseline asks once: no fit at its
// cost) have enough answers for a schedule of their own: their study
// replays the baseline rather than fail; the rest follow the one
// schedule, weighed against the baseline all the same. fit --by refused
// --baseline before. card:prod=SPEC is card's own baseline, which its
// decision weighs it against instead (before, it was a baseline named
// "card:prod" for all); each decision line is the JSON's sentence, one
// value rendered twice.
func TestFitByDecisionsFirst(t *testing.T) {
	log := groupedLog(t, t.TempDir(), "3000")
	// The decisions are rendered, not shaped: no shapes to search for.
	args := []string{"fit", "-q", "--by", "method", "--min-group", "700", "--bootstrap", "0", "--deadlines=false", "--batches=false", "--requests-per-item", "8", "--baseline", "now=10s until 5m",
		"--baseline", "card:prod=2s until 1m, 10s until 5m", log}
	var res struct {
		Decisions []struct {
			Value, Against, Sentence string
			Fitted, Other            struct {
				Name string
				Req  float64                `json:"requests_per_item"`
				Lag  struct{ Mean float64 } `json:"lag_s"`
			}
			RequestsChange float64 `json:"requests_change"`
			LagChange      float64 `json:"lag_change"`
		}
		Segments []struct{ Value string }
	}
	runJSON(t, &res, append(args, "--json")...)
	if len(res.Decisions) != len(res.Segments) || len(res.Decisions) < 2 {
		t.Fatalf("%d decisions for %d values", len(res.Decisions), len(res.Segments))
	}
	text, _, code := cliRun(t, args...)
	if code != 0 {
		t.Fatal(text)
	}
	lines := strings.Split(text, "\n")
	for i, d := range res.Decisions {
		against := "now" // every value's, but card's own
		if d.Value == "card" {
			against = "prod"
		}
		if d.Against != against || d.Other.Req <= 0 || d.Other.Name != against {
			t.Errorf("%s: weighed against %q (row %q) at %g requests per item, want %s", d.Value, d.Against, d.Other.Name, d.Other.Req, against)
		}
		if want := d.Fitted.Req/d.Other.Req - 1; math.Abs(d.RequestsChange-want) > 1e-12 {
			t.Errorf("%s: requests change %g, want %g", d.Value, d.RequestsChange, want)
		}
		if want := d.Fitted.Lag.Mean/d.Other.Lag.Mean - 1; math.Abs(d.LagChange-want) > 1e-12 {
			t.Errorf("%s: lag change %g, want %g", d.Value, d.LagChange, want)
		}
		if !strings.HasPrefix(lines[i], "method "+d.Value+": shipping fitted vs "+against+": ") || lines[i] != d.Sentence {
			t.Errorf("line %d: %q, want %s's decision %q", i+1, lines[i], d.Value, d.Sentence)
		}
	}
}
