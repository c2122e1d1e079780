package report

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/fitjson"
	"github.com/pollfit/pollfit/fit"
)

// TestSummaryFigsAreFitJSON: on a study by hand with a baseline, a
// bootstrap and a comparison read between two fits, the summary shows
// the figures listed here by hand, each keyed where fit --json writes
// it, holding there the very value the summary shows.
func TestSummaryFigsAreFitJSON(t *testing.T) {
	row := func(name string, mean, req, stuck float64) fit.Row {
		return fit.Row{Metrics: fit.Metrics{Name: name, Lag: fit.LagStats{Mean: mean}, RequestsPerItem: req}, Stuck: stuck, MissedShare: 0.01,
			LagCI: fit.Interval{mean - 0.25, mean + 0.25}, P95CI: fit.Interval{1, 2}, RequestsCI: fit.Interval{req - 0.5, req + 0.5}}
	}
	same := row("same lag", 2, 4.5, 20)
	st := &fit.StudyResult{Schedule: mustParse(t, "1s until 30s"), Budget: fit.Budget{RequestsPerItem: 6}, Bootstrap: 40,
		Fitted: row("fitted", 1.5, 6, 30), GiveUp: fit.GiveUp{Age: 5 * time.Minute, Reason: "by hand"}, StuckCap: 80, StuckCapReason: "8 × the budget",
		Decision: &fit.Decision{Against: "now", RequestsChange: -0.2, LagChange: -0.25, RequestsCI: fit.Interval{-0.3, -0.1}, LagCI: fit.Interval{-0.35, -0.15}},
		Baselines: []fit.Comparison{{Name: "now", Baseline: row("now", 2, 7.5, 40), Fitted: row("fitted at now's cost", 1.6, 7.4, 35),
			EqualCostLag: 1.55, Change: -0.225, RequestsChange: 0.01, Interpolated: true, ChangeCI: fit.Interval{-0.3, -0.15},
			Bracket: []fit.Row{row("a", 1.7, 7, 33), row("b", 1.5, 8, 36)}, SameLag: &same, SameLagSchedule: mustParse(t, "2s until 30s"), Saving: 0.4}}}
	s := Summarise(st, nil)
	js, _ := json.Marshal(fitjson.New(st, nil))
	var doc any
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, sen := range append([]Sentence{s.Decision, s.Lead}, s.Points...) {
		for _, p := range sen {
			keys = append(keys, checkFigs(t, doc, p)...)
		}
	}
	for _, r := range s.Rows {
		for _, p := range []Part{r.Lag, r.LagCI, r.Req, r.ReqCI, r.Stuck, r.Missed} {
			keys = append(keys, checkFigs(t, doc, p)...)
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var want []string
	for _, r := range []string{"fitted", "baselines.0"} {
		for _, k := range []string{"lag_s.mean", "lag_mean_ci.0", "lag_mean_ci.1", "requests_per_item", "requests_per_item_ci.0", "requests_per_item_ci.1", "stuck_asks", "missed_share"} {
			want = append(want, r+"."+k)
		}
	}
	want = append(want, "decision.requests_change", "decision.requests_change_ci.0", "decision.requests_change_ci.1",
		"decision.lag_change", "decision.lag_change_ci.0", "decision.lag_change_ci.1", "budget.requests_per_item",
		"comparisons.0.change", "comparisons.0.change_ci.0", "comparisons.0.change_ci.1", "comparisons.0.equal_cost_lag_s",
		"comparisons.0.bracket.0.requests_per_item", "comparisons.0.bracket.1.requests_per_item", "at_baseline_cost.0.requests_per_item",
		"comparisons.0.same_lag.saving", "comparisons.0.same_lag.metrics.requests_per_item", "comparisons.0.same_lag.metrics.lag_s.mean",
		"comparisons.0.same_lag.schedule", "stuck_cap.asks", "give_up.age_s")
	slices.Sort(want)
	if !slices.Equal(keys, want) {
		t.Errorf("figures\n%s\nwant\n%s", strings.Join(keys, "\n"), strings.Join(want, "\n"))
	}
}

// checkFigs checks each figure of p against the JSON doc at its key,
// and returns the keys.
func checkFigs(t *testing.T, doc any, p Part) []string {
	t.Helper()
	var keys []string
	for _, f := range p.Figs {
		keys = append(keys, f.Key)
		v := doc
		for _, k := range strings.Split(f.Key, ".") {
			switch n := v.(type) {
			case map[string]any:
				v = n[k]
			case []any:
				i, _ := strconv.Atoi(k)
				v = n[i]
			}
		}
		got := ""
		switch w := v.(type) {
		case float64:
			got = strconv.FormatFloat(w, 'g', -1, 64)
		case string:
			got = w
		}
		if got != f.Value {
			t.Errorf("%s: summary %q, JSON %v", f.Key, f.Value, v)
		}
	}
	return keys
}
