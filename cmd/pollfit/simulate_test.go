package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Five clients, 2 calls/s, answers in 1 s, retry every 0.4 s: 16 calls,
// 11 refused, served at 1, 1, 2.2, 2.2, 3 (worked out in
// fit/simulate's TestConstantRetryByHand).
func TestSimulateJSON(t *testing.T) {
	out, errs, code := cliRun(t, "simulate", "--clients", "5", "--capacity", "2/s", "--answer", "1s", "--runs", "3",
		"--strategy", "constant(400ms)", "--strategy", "400ms", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(rows) != 2 || rows[0]["strategy"] != "constant(400ms)" || rows[1]["strategy"] != "400ms" {
		t.Fatalf("rows %v", rows)
	}
	want := map[string]float64{"last_served_s": 3, "calls_sent": 16, "calls_refused": 11, "typical_served_s": 2.2, "peak_calls_per_s": 11}
	for _, r := range rows {
		for k, v := range want {
			s, _ := r[k].(map[string]any)
			for _, q := range []string{"median", "p10", "p90"} {
				if x, _ := s[q].(float64); x < v-1e-9 || x > v+1e-9 {
					t.Errorf("%s %s.%s = %v, want %v", r["strategy"], k, q, s[q], v)
				}
			}
		}
	}
}

func TestSimulateTable(t *testing.T) {
	out, errs, code := cliRun(t, "simulate", "--clients", "5", "--capacity", "2/s", "--answer", "1s", "--runs", "2",
		"--strategy", "constant(400ms)")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || strings.Join(strings.Fields(lines[1]), " ") != "constant(400ms) 3s 16 11 2.2s 11" {
		t.Errorf("table:\n%s", out)
	}
}

func TestSimulateWarnsAndErrors(t *testing.T) {
	_, errs, code := cliRun(t, "simulate", "--clients", "3", "--capacity", "1/s", "--runs", "1", "--strategy", "constant(100ms, attempts=2)")
	if code != 0 || !strings.Contains(errs, "warning: simulate: constant(100ms, attempts=2): clients gave up") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	for args, want := range map[string]string{
		"simulate --strategy constant(1s)":                    "--capacity N/PERIOD is required",
		"simulate --capacity 20/s":                            "at least one --strategy",
		"simulate --capacity 2.5/s --strategy constant(1s)":   "whole number",
		"simulate --capacity 20/s --strategy bogus(1s)":       "unknown strategy",
		"simulate --capacity 20/s --arrivals x --strategy 1s": "--arrivals",
		"simulate --capacity 20/s --clients 0 --strategy 1s":  "--clients",
		"simulate --capacity 20/s --answer -1s --strategy 1s": `--answer: negative duration "-1s"`,
		"simulate --capacity 20/s --answer 90 --strategy 1s":  `--answer: duration "90" has no unit`,
	} {
		_, errs, code := cliRun(t, strings.Fields(args)...)
		if code != 2 || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", args, code, errs, want)
		}
	}
}

// 100 items at once asking at 0, 1 and 3 s: 300 asks in 10 s (30/s),
// 100 in the busiest second and in the busiest after the first.
func TestSimulateFleet(t *testing.T) {
	out, errs, code := cliRun(t, "simulate", "--fleet", "--burst", "100", "--duration", "10s", "--runs", "2", "--strategy", "at 0s 1s 3s", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	want := map[string]float64{"requests_per_s": 30, "peak_requests_per_s": 100, "echo_peak_per_s": 100}
	for k, v := range want {
		s, _ := rows[0][k].(map[string]any)
		if s["median"] != v || s["p90"] != v {
			t.Errorf("%s = %v, want %v", k, rows[0][k], v)
		}
	}
	_, errs, code = cliRun(t, "simulate", "--fleet", "--strategy", "1s")
	if code != 2 || !strings.Contains(errs, "needs an --arrivals rate or a --burst") {
		t.Errorf("exit %d, %q", code, errs)
	}
}

// A log with items created at 0, 0.5 and 3 s, each settled 2 s later:
// as arrivals and answer times with capacity 1/s and retry every 1 s it
// is fit/simulate's TestArrivalTimesAndAnswerSample: last served 3 s,
// typical 2 s, 4 calls, 1 refused.
func TestSimulateLogs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.csv")
	log := "created_at,settled_at\n" +
		"2026-01-01T00:00:00Z,2026-01-01T00:00:02Z\n" +
		"2026-01-01T00:00:00.5Z,2026-01-01T00:00:02.5Z\n" +
		"2026-01-01T00:00:03Z,2026-01-01T00:00:05Z\n"
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := cliRun(t, "simulate", "--arrivals-log", path, "--answer-log", path, "--capacity", "1/s", "--runs", "1", "--strategy", "constant(1s)")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || strings.Join(strings.Fields(lines[1]), " ") != "constant(1s) 3s 4 1 2s 2" {
		t.Errorf("table:\n%s", out)
	}
	_, errs, code = cliRun(t, "simulate", "--arrivals-log", filepath.Join(t.TempDir(), "none.csv"), "--capacity", "1/s", "--strategy", "1s")
	if code != 1 || !strings.Contains(errs, "--arrivals-log") {
		t.Errorf("missing log: exit %d, %q", code, errs)
	}
	// A log of one's own: its columns named as the other commands name
	// them, the same table; a bad row skipped and counted with --skip-bad.
	own := filepath.Join(t.TempDir(), "own.csv")
	renamed := strings.Replace(log, "created_at,settled_at", "placed;done", 1)
	renamed = strings.ReplaceAll(renamed, "Z,", "Z;") + "yesterday;2026-01-01T00:00:09Z\n"
	if err := os.WriteFile(own, []byte(renamed), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"simulate", "--arrivals-log", own, "--answer-log", own, "--capacity", "1/s", "--runs", "1", "--strategy", "constant(1s)",
		"--created-col", "placed", "--settled-col", "done", "--delimiter", ";", "--skip-bad"}
	got, errs, code := cliRun(t, args...)
	if code != 0 || got != out || !strings.Contains(errs, "warning: simulate: --arrivals-log "+own+": skipped 1 bad row") {
		t.Errorf("own columns: exit %d, %q\n%s\nwant\n%s", code, errs, got, out)
	}
	if got, errs, code := cliRun(t, append(args, "-q")...); code != 0 || got != out || errs != "" {
		t.Errorf("-q: exit %d, stderr %q", code, errs)
	}
	_, errs, code = cliRun(t, append(args[:len(args)-7:len(args)-7], "--delimiter", ";")...) // the columns not named
	if code != 1 || !strings.Contains(errs, "name your columns with --created-col") {
		t.Errorf("own columns not named: exit %d, %q", code, errs)
	}
	_, errs, code = cliRun(t, append(args, "--histogram")...)
	if code != 2 || !strings.Contains(errs, "simulate: --histogram:") {
		t.Errorf("--histogram: exit %d, %q", code, errs)
	}
}

// --answer reads durations as every other pollfit flag does, d for a
// day: one client, answered a day and a half after its first call.
func TestSimulateAnswerDays(t *testing.T) {
	out, errs, code := cliRun(t, "simulate", "--clients", "1", "--capacity", "1/s", "--answer", "1d12h", "--horizon", "2d",
		"--runs", "1", "--strategy", "constant(1s)", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if s, _ := rows[0]["last_served_s"].(map[string]any); s["median"] != 129600.0 {
		t.Errorf("last_served_s = %v, want 129600 (1d12h)", rows[0]["last_served_s"])
	}
}
