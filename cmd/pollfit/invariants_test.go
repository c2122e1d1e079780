package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/pollfit/pollfit/internal/testenv"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/internal/loggen"
)

// The invariants of fit/invariants_test.go that need the commands: what
// frontier, frontier --json, report and fit print from the same flags on
// a log of a team's own (loggen.Realistic, read with its own column
// names and status words). POLLFIT_LONG_TESTS=1 runs more logs.

// invLogs are the seeds of the realistic logs, and their rows: short
// lists by default (a knee takes two frontiers of 20 fits and a report),
// more with POLLFIT_LONG_TESTS=1 (each frontier is 20 fits with every shape).
func invLogs(long []uint64, short ...uint64) ([]uint64, int) {
	if testenv.Long() {
		return long, 1500
	}
	return short, 1500
}

// writeRealistic writes the realistic log of seed to dir.
func writeRealistic(t *testing.T, dir string, seed uint64, rows int) string {
	t.Helper()
	g, err := loggen.NewRealistic(seed)
	if err != nil {
		t.Skipf("%v", err)
	}
	var buf bytes.Buffer
	if err := g.WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("own%d.csv", seed))
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// pollfitOut runs pollfit with args and returns its stdout.
func pollfitOut(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("pollfit %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// frontierJSONRows are the rows of frontier --json.
func frontierJSONRows(t *testing.T, out string) []frontierRow {
	t.Helper()
	var doc struct {
		Points []frontierRow `json:"points"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("frontier --json: %v\n%s", err, out)
	}
	return doc.Points
}

var (
	frontierKnee = regexp.MustCompile(`(?m)^knee at (\S+) requests per item`)
	reportKnee   = regexp.MustCompile(`frontier\.knee\.requests_per_item=([^;"]+)`)
)

// TestInvariantsKnee: one knee. frontier's text and frontier --json,
// given the same flags and the same baseline, name the same knee (or
// none); the report, at a budget given, names the knee frontier names
// at the report's budgets (fit.ReportBudgets), each of its points the
// fit at that budget.
func TestInvariantsKnee(t *testing.T) {
	testenv.SkipUnlessLong(t) // three frontiers and a report a log
	seeds, rows := invLogs([]uint64{2, 8})
	dir := t.TempDir()
	var budgets []string
	for _, b := range fit.ReportBudgets(fit.Budget{RequestsPerItem: 8}) {
		budgets = append(budgets, strconv.FormatFloat(b, 'g', -1, 64))
	}
	for _, seed := range seeds {
		path := writeRealistic(t, dir, seed, rows)
		flags := append(strings.Fields(loggen.RealisticReadFlags), "-q", "--baseline", "now=2s until 1m, 10s until 10m", path)
		knees := map[string]string{
			"frontier":                  textKnee(pollfitOut(t, append([]string{"frontier"}, flags...)...)),
			"frontier --json":           jsonKnee(t, pollfitOut(t, append([]string{"frontier", "--json"}, flags...)...)),
			"frontier --budgets report": jsonKnee(t, pollfitOut(t, append([]string{"frontier", "--json", "--budgets", strings.Join(budgets, ",")}, flags...)...)),
			"report":                    pageKnee(pollfitOut(t, append([]string{"report", "--bootstrap", "0", "--requests-per-item", "8"}, flags...)...)),
		}
		if knees["frontier"] != knees["frontier --json"] || knees["frontier --budgets report"] != knees["report"] {
			t.Errorf("seed %d (%d rows, baseline now): the knee, in requests per item: frontier %s, frontier --json %s; at the report's budgets, frontier %s, report %s",
				seed, rows, knees["frontier"], knees["frontier --json"], knees["frontier --budgets report"], knees["report"])
		}
	}
}

// textKnee is frontier's knee in its text, "none" without one.
func textKnee(text string) string {
	if m := frontierKnee.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return "none"
}

// jsonKnee is frontier --json's knee, "none" without one.
func jsonKnee(t *testing.T, js string) string {
	for _, r := range frontierJSONRows(t, js) {
		if r.Kind == "fitted" && r.Knee == 1 && r.Requests != nil {
			return strconv.FormatFloat(*r.Requests, 'g', 3, 64)
		}
	}
	return "none"
}

// pageKnee is the report's knee, "none" without one.
func pageKnee(page string) string {
	m := reportKnee.FindStringSubmatch(page)
	if m == nil {
		return "none"
	}
	if v, err := strconv.ParseFloat(m[1], 64); err == nil {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return m[1]
}

// TestInvariantsFrontierIsFit: frontier's fitted row at a budget is the
// schedule fit ships with the same flags at that budget, with the same
// held-out figures.
func TestInvariantsFrontierIsFit(t *testing.T) {
	seeds, rows := invLogs([]uint64{2, 5, 8}, 8)
	dir := t.TempDir()
	for i, seed := range seeds {
		path := writeRealistic(t, dir, seed, rows)
		budget := []string{"4", "8", "13"}[i%3]
		flags := append(strings.Fields(loggen.RealisticReadFlags), "-q", path)
		var fitRes struct {
			Schedule string `json:"schedule"`
			Fitted   struct {
				Req float64                `json:"requests_per_item"`
				Lag struct{ Mean float64 } `json:"lag_s"`
			} `json:"fitted"`
		}
		out := pollfitOut(t, append([]string{"fit", "--json", "--bootstrap", "0", "--requests-per-item", budget}, flags...)...)
		if err := json.Unmarshal([]byte(out), &fitRes); err != nil {
			t.Fatalf("fit --json: %v", err)
		}
		got, lag := "no fitted row", -1.0
		for _, r := range frontierJSONRows(t, pollfitOut(t, append([]string{"frontier", "--json", "--budgets", budget}, flags...)...)) {
			if r.Kind == "fitted" && r.MeanLag != nil {
				got, lag = r.Schedule, *r.MeanLag
			}
		}
		if got != fitRes.Schedule || !closeTo(lag, fitRes.Fitted.Lag.Mean) {
			t.Errorf("seed %d (%d rows) at %s requests per item: frontier's fitted row %q waits %.6gs, fit ships %q, %.6gs at %.6g requests per item",
				seed, rows, budget, got, lag, fitRes.Schedule, fitRes.Fitted.Lag.Mean, fitRes.Fitted.Req)
		}
	}
}

func closeTo(a, b float64) bool { return a == b || (a-b)*(a-b) <= 1e-18*b*b }
