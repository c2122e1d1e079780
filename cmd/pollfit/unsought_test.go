package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/internal/testenv"
)

// A sketch made --by a column keeps no item sample per value, so no
// creation times: on the mixed log, whose bank transfers settle in
// 5-minute batches, fit --by on the sketch cannot look for batch asks.
// It says so on stderr and in --json's notes; fit --by on the log
// itself looks for them (bank_transfer's schedule asks "every 5m") and
// says nothing of it. estimate --by on the sketch prints "not tested"
// for periodicity, never "none", and its JSON says periodicity_tested
// false; on the log, true. All of it was silent before, and estimate
// printed "periodicity:  none".
func TestSketchSaysWhatItCannotServe(t *testing.T) {
	dir := t.TempDir()
	n := "3000" // 450 bank transfers, enough to find their batches
	if testenv.Long() {
		n = "8000"
	}
	log := groupedLog(t, dir, n)
	sk := filepath.Join(dir, "mixed.sketch")
	if _, errs, code := cliRun(t, "sketch", "--by", "method", "-o", sk, log); code != 0 {
		t.Fatal(errs)
	}
	const said = "is a grouped sketch, whose values keep no item sample, so no signals or creation times: batch asks not looked for"
	// The batch asks are what is looked for: the deadline bursts are not.
	out, errs, code := cliRun(t, "fit", "--by", "method", "--requests-per-item", "8", "--bootstrap", "0", "--deadlines=false", "--json", sk)
	if code != 0 {
		t.Fatal(errs)
	}
	if !strings.Contains(errs, said) {
		t.Errorf("fit --by on the sketch: stderr %q does not say batch asks were not looked for", errs)
	}
	var res struct{ Notes []string }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Notes) == 0 || !strings.Contains(res.Notes[0], said) {
		t.Errorf("fit --by --json on the sketch: notes %q", res.Notes)
	}
	var byLog struct {
		Notes    []string
		Segments []struct{ Value, Schedule string }
	}
	runJSON(t, &byLog, "fit", "--by", "method", "--requests-per-item", "8", "--bootstrap", "0", "--deadlines=false", "--json", log)
	for _, n := range byLog.Notes {
		if strings.Contains(n, "not looked for") {
			t.Errorf("fit --by on the log: note %q", n)
		}
	}
	for _, s := range byLog.Segments {
		if s.Value == "bank_transfer" && !strings.Contains(s.Schedule, "every 5m") {
			t.Errorf("fit --by on the log: bank transfers get %q, no batch asks", s.Schedule)
		}
	}
	text, _, code := cliRun(t, "estimate", "-q", "--by", "method", sk)
	if code != 0 || strings.Contains(text, "periodicity:  none") || !strings.Contains(text, "periodicity:  not tested") {
		t.Errorf("estimate --by on the sketch:\n%s", text)
	}
	for _, c := range []struct {
		input  string
		tested bool
	}{{sk, false}, {log, true}} {
		var est struct {
			Segments []struct {
				Summary struct {
					Tested bool `json:"periodicity_tested"`
				} `json:"summary"`
			}
		}
		runJSON(t, &est, "estimate", "-q", "--json", "--by", "method", c.input)
		if len(est.Segments) == 0 {
			t.Fatalf("estimate --by --json %s: no groups", c.input)
		}
		for _, s := range est.Segments {
			if s.Summary.Tested != c.tested {
				t.Errorf("estimate --by --json %s: periodicity_tested %v", c.input, s.Summary.Tested)
			}
		}
	}
}
