package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportFromFitJSON checks the pipe export --help shows, pollfit fit
// --json | pollfit export --from -: export reads fit's document (its
// "schedule" at the top, the rest ignored) and writes the fitted
// schedule. The stdin half of the pipe is in testdata/script/export.txtar.
func TestExportFromFitJSON(t *testing.T) {
	var fitOut, errb bytes.Buffer
	args := []string{"fit", "--json", "--requests-per-item", "4", "--model", "exponential(mean=10s)"}
	if code := run(args, &fitOut, &errb); code != 0 {
		t.Fatalf("pollfit %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	var doc struct{ Schedule string }
	if err := json.Unmarshal(fitOut.Bytes(), &doc); err != nil || doc.Schedule == "" {
		t.Fatalf("fit --json has no schedule at the top (%v):\n%s", err, fitOut.String())
	}
	path := filepath.Join(t.TempDir(), "fit.json")
	if err := os.WriteFile(path, fitOut.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	errb.Reset()
	if code := run([]string{"export", "--from", path, "--format", "dsl", "--comment", "for checkout"}, &out, &errb); code != 0 {
		t.Fatalf("pollfit export --from fit.json: exit %d: %s", code, errb.String())
	}
	if want := "# for checkout\n" + doc.Schedule + "\n"; out.String() != want {
		t.Errorf("export --from fit.json wrote\n%s\nwant\n%s", out.String(), want)
	}
}
