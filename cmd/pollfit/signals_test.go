package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalRemovesTemp runs the built binary, signals it while it
// writes its output and checks the exit code, the message, and that no
// temporary (or partial) file is left.
func TestSignalRemovesTemp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "pollfit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{{syscall.SIGINT, 130, "SIGINT"}, {syscall.SIGTERM, 143, "SIGTERM"}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(bin, "gen", "-n", "1000000", "-o", filepath.Join(dir, "big.csv"))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if !waitForTemp(dir, 20*time.Second) {
				cmd.Process.Kill()
				t.Fatal("no temporary file appeared")
			}
			cmd.Process.Signal(tc.sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Fatalf("exit: %v, want code %d (stderr %q)", err, tc.code, stderr.String())
			}
			if want := "pollfit: stopped by " + tc.name; !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr %q, want %q", stderr.String(), want)
			}
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

// waitForTemp polls dir until a temporary output file appears.
func waitForTemp(dir string, limit time.Duration) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".big.csv.tmp") {
				return true
			}
		}
	}
	return false
}
