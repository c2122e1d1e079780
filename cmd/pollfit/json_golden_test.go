package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestJSONGolden pins the shape of every --json output: the key paths
// and their JSON types, one "path type" line each, against the golden
// files in testdata/golden (go test -run TestJSONGolden -update rewrites
// them). The figures are left out on purpose: the fit's numbers belong
// to the tests of fit; the names are what the README, the notebooks and
// scripts read, and a renamed or retyped key shows up here as a diff.
func TestJSONGolden(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "pay.csv")
	mustRun(t, "gen", "-n", "3000", "--seed", "1", "-o", log)
	now := "now=1s until 30s, 2s until 2m"
	for _, c := range []struct {
		name string
		args []string
	}{
		{"estimate", []string{"estimate", "--json", log}},
		{"eval", []string{"eval", "--json", "-s", now, "-s", "jitter=exponential(initial=1s, factor=2, max=30s, jitter=full)", "--horizon", "5m", log}},
		{"fit", []string{"fit", "--json", "--bootstrap", "20", "--requests-per-item", "8", "--baseline", now, log}},
		{"fit_asks_by", []string{"fit", "--json", "--bootstrap", "0", "--asks-by", "20@2m", "--signals=false", log}},
		{"frontier", []string{"frontier", "--json", "--budgets", "4,8", "--baseline", now, log}},
		{"simulate", []string{"simulate", "--json", "--clients", "20", "--capacity", "5/s", "--runs", "3", "--strategy", "constant(1s)"}},
		{"simulate_fleet", []string{"simulate", "--json", "--fleet", "--burst", "20", "--max-age", "1m", "--duration", "1m", "--runs", "2", "--strategy", "1s until 10s"}},
		{"export_asks", []string{"export", "--json", "-f", "asks", "-s", "1s until 3s"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := jsonShape(t, mustRun(t, c.args...))
			path := filepath.Join("testdata", "golden", c.name+".shape")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -run TestJSONGolden -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("pollfit %s: the JSON's shape changed (go test -run TestJSONGolden -update accepts it):\n%s",
					strings.Join(c.args[:1], " "), lineDiff(string(want), got))
			}
		})
	}
}

// The keys the README promises are in the shapes, written here from the
// README's own words, not from the output.
func TestJSONGoldenMatchesREADME(t *testing.T) {
	has := func(file string, paths ...string) {
		data, err := os.ReadFile(filepath.Join("testdata", "golden", file+".shape"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for _, p := range paths {
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, p+" ") }) {
				t.Errorf("%s: no key %s", file, p)
			}
		}
	}
	// eval: {"horizon_s", "schedules": [{"name", "schedule", "horizon_s",
	// "items", "detected", "missed", "pending", "lag_s": {"mean", "p50",
	// "p90", "p95", "p99", "max"}, "requests_per_item", "asks_by":
	// {"30s": ...}, "stuck_asks", "missed_share"}]}
	row := []string{"name", "schedule", "horizon_s", "items", "detected", "missed", "pending", "lag_s.mean", "lag_s.p50",
		"lag_s.p90", "lag_s.p95", "lag_s.p99", "lag_s.max", "requests_per_item", "asks_by.30s", "stuck_asks", "missed_share"}
	var eval []string
	for _, k := range row {
		eval = append(eval, "schedules[]."+k)
	}
	has("eval", append(eval, "horizon_s")...)
	// fit --json: schedule, give_up, budget, stuck_cap, the rows fitted,
	// limit, exact_fit, baselines and at_baseline_cost, comparisons,
	// holdout, shapes and notes, each row in eval's shape.
	has("fit", "schedule", "give_up.age_s", "budget.objective", "budget.requests_per_item", "stuck_cap.asks",
		"fitted.lag_s.mean", "limit.requests_per_item", "exact_fit.stuck_asks", "baselines[].name", "at_baseline_cost[].missed_share",
		"comparisons[].budget.requests_per_item", "holdout.seed", "shapes.reset_on_signal", "notes")
	has("fit_asks_by", "budget.asks_by.asks", "budget.asks_by.age_s")
	// frontier --json: the --csv columns as keys of "points".
	has("frontier", "points[].kind", "points[].requests_per_item", "points[].mean_lag_s", "points[].schedule", "points[].stuck_asks")
}

func mustRun(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("pollfit %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.Bytes()
}

// jsonShape lists the key paths of a JSON document with their types,
// sorted: arrays as [], null apart from the type it stands in for.
func jsonShape(t *testing.T, data []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	set := map[string]bool{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(strings.TrimPrefix(path+"."+k, "."), e)
			}
			if len(x) == 0 {
				set[path+" object"] = true
			}
		case []any:
			for _, e := range x {
				walk(path+"[]", e)
			}
			if len(x) == 0 {
				set[path+" array"] = true
			}
		case nil:
			set[path+" null"] = true
		default:
			set[fmt.Sprintf("%s %T", path, x)] = true
		}
	}
	walk("", v)
	lines := make([]string, 0, len(set))
	for l := range set {
		lines = append(lines, strings.Replace(strings.Replace(l, " float64", " number", 1), " bool", " boolean", 1))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for _, l := range w {
		if !slices.Contains(g, l) {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range g {
		if !slices.Contains(w, l) {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}
