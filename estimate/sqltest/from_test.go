package sqltest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
)

// pollfit sketch --from postgres://… runs the sketch query on the
// server itself, streaming the result through pgx: its sketch is
// pollfit's own sketch of the same rows, bin for bin, and a bad query
// (a missing table) is an error naming the server without its password.
func TestSketchFromPostgres(t *testing.T) {
	dir := t.TempDir()
	file := testLog(t, dir, 8000)
	url := loadPostgres(t, file, "pollfit_from", "")
	bin := buildPollfit(t, dir)
	out := filepath.Join(dir, "from.sketch.csv")
	args := []string{"sketch", "--from", url, "--table", "pollfit_from", "--holdout", fmt.Sprint(holdout), "--seed", fmt.Sprint(seed), "-o", out}
	// The log's three bad rows: an error, as the log readers stop, and
	// with --skip-bad counted by the readers' reasons.
	b, err := exec.Command(bin, args...).CombinedOutput()
	if want := "the query left out 3 bad rows (missing value: 1, settled before created: 1, unknown status: 1)"; err == nil || !strings.Contains(string(b), want) {
		t.Errorf("sketch --from without --skip-bad: %v, %s; want an error with %q", err, b, want)
	}
	b, err = exec.Command(bin, append(args, "--skip-bad")...).CombinedOutput()
	if err != nil {
		t.Fatalf("pollfit sketch --from --skip-bad: %v\n%s", err, b)
	}
	if want := "skipped 3 bad rows (missing value: 1, settled before created: 1, unknown status: 1)"; !strings.Contains(string(b), want) {
		t.Errorf("sketch --from --skip-bad said %q, want %q", b, want)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := estimate.ReadSketch(f, out)
	if err != nil {
		t.Fatal(err)
	}
	own := ownSketch(t, file)
	sameSketch(t, "postgres (sketch --from)", own, got)

	withPassword := strings.Replace(url, "postgres@", "postgres:s3cret@", 1)
	b, err = exec.Command(bin, "sketch", "--from", withPassword, "--table", "no_such_table", "-o", filepath.Join(dir, "x.csv")).CombinedOutput()
	msg := string(b)
	if err == nil || !strings.Contains(msg, "no_such_table") || strings.Contains(msg, "s3cret") {
		t.Errorf("sketch --from a missing table: %v, %q; want an error naming the table, without the password", err, msg)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.csv")); err == nil {
		t.Errorf("sketch --from a missing table left an output file")
	}
}

// buildPollfit builds the pollfit command into dir.
func buildPollfit(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "pollfit")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/pollfit")
	cmd.Dir = "../.."
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build pollfit: %v\n%s", err, b)
	}
	return bin
}
