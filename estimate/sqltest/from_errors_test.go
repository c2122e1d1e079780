package sqltest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sketch --from tells the truth and stops: the server's own error, a
// statement timeout, a cancel on SIGINT, infinite timestamps as bad
// rows, an empty table as an empty sketch of the split asked for, and
// no password of the URL's query string printed.
func TestSketchFromServerErrors(t *testing.T) {
	dir := t.TempDir()
	file := testLog(t, dir, 2000)
	url := loadPostgres(t, file, "pollfit_err", "")
	conn, ctx := connectPostgres(t, url)
	setup := `DROP TABLE IF EXISTS pollfit_empty, pollfit_inf;
CREATE TABLE pollfit_empty (created_at timestamptz, settled_at timestamptz, status text);
CREATE TABLE pollfit_inf AS SELECT * FROM pollfit_err;
INSERT INTO pollfit_inf VALUES ('-infinity', '2026-11-01 10:00:00+00', 'paid'), ('2026-11-01 10:00:00+00', 'infinity', 'paid')`
	if _, err := conn.Exec(ctx, setup); err != nil {
		t.Fatal(err)
	}
	bin := buildPollfit(t, dir)
	run := func(args ...string) (string, error, time.Duration) {
		start := time.Now()
		b, err := exec.Command(bin, append([]string{"sketch", "--from", url, "--skip-bad", "--holdout", fmt.Sprint(holdout), "--seed", fmt.Sprint(seed)}, args...)...).CombinedOutput()
		return string(b), err, time.Since(start)
	}
	out := filepath.Join(dir, "o.csv")

	msg, err, _ := run("-o", out, "--force", "--query", "SELECT * FROM pollfit_err WHERE 1 / (length(status) - length(status)) = 1")
	if err == nil || !strings.Contains(msg, "division by zero") || strings.Contains(msg, "not a pollfit sketch") {
		t.Errorf("a division by zero: %v, %q; want the server's error", err, msg)
	}
	msg, err, took := run("-o", out, "--force", "--query-timeout", "1s", "--query", "SELECT p.* FROM pollfit_err AS p, pg_sleep(20)")
	if err == nil || !strings.Contains(msg, "statement timeout") || !strings.Contains(msg, "--query-timeout 1s") || took > 8*time.Second {
		t.Errorf("a query past --query-timeout 1s: %v after %v, %q; want the server's statement timeout, soon", err, took, msg)
	}
	msg, err, _ = run("-o", out, "--force", "--table", "pollfit_inf")
	if err != nil || !strings.Contains(msg, "bad timestamp: 2") {
		t.Errorf("infinite timestamps: %v, %q; want them skipped as bad timestamps", err, msg)
	}

	// An empty table: an empty sketch of the split, which merges.
	empty, full := filepath.Join(dir, "empty.csv"), filepath.Join(dir, "full.csv")
	if msg, err, _ := run("-o", empty, "--table", "pollfit_empty"); err != nil {
		t.Fatalf("an empty table: %v, %s", err, msg)
	}
	if msg, err, _ := run("-o", full, "--table", "pollfit_err"); err != nil {
		t.Fatalf("%v, %s", err, msg)
	}
	head, _ := os.ReadFile(empty)
	if want := fmt.Sprintf("holdout=%g seed=%d", holdout, seed); !bytes.Contains(head, []byte(want)) {
		t.Errorf("the empty table's sketch starts %q, want the split %s", head, want)
	}
	if b, err := exec.Command(bin, "sketch", "-o", filepath.Join(dir, "m.csv"), empty, full).CombinedOutput(); err != nil {
		t.Errorf("merging the empty day: %v, %s", err, b)
	}

	// A password in the query string is never printed.
	secret := strings.Replace(url, "sslmode=disable", "sslmode=disable&password=S3cretPW!&sslpassword=K3yPW", 1)
	b, err := exec.Command(bin, "sketch", "--from", secret, "--table", "no_such_table", "-o", out, "--force").CombinedOutput()
	if err == nil || strings.Contains(string(b), "S3cretPW") || strings.Contains(string(b), "K3yPW") || !strings.Contains(string(b), "no_such_table") {
		t.Errorf("a password in the query string: %v, %q; want the error without it", err, b)
	}
}

// On SIGINT, sketch --from asks the server to cancel the query: it is no
// longer running a moment later.
func TestSketchFromCancel(t *testing.T) {
	dir := t.TempDir()
	url := loadPostgres(t, testLog(t, dir, 200), "pollfit_cancel", "")
	conn, ctx := connectPostgres(t, url)
	bin := buildPollfit(t, dir)
	cmd := exec.Command(bin, "sketch", "--from", url, "--skip-bad", "-o", filepath.Join(dir, "c.csv"),
		"--query", "SELECT p.* FROM pollfit_cancel AS p, pg_sleep(60)")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	running := func() int {
		var n int
		q := "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '-- pollfit sketch v2 of a query%' AND pid <> pg_backend_pid()"
		if err := conn.QueryRow(ctx, q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for i := 0; running() == 0; i++ {
		select {
		case err := <-exited:
			t.Fatalf("sketch --from exited before the signal: %v, %s", err, stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
		if i > 100 {
			t.Fatal("the query never started")
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	if err := <-exited; err == nil {
		t.Errorf("sketch --from exited 0 after SIGINT")
	}
	deadline := time.Now().Add(3 * time.Second)
	for running() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the server still runs the query 3 s after pollfit stopped (%s)", stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.csv")); err == nil {
		t.Errorf("an output file was left after SIGINT")
	}
}
