package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalRemovesTemp runs the binary (shippedPollfit), signals it
// while it writes its output and checks the exit code, the message, and
// that no temporary (or partial) file is left.
func TestSignalRemovesTemp(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary, signalled, for seconds")
	}
	bin := shippedPollfit(t)
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
			if !waitForTemp(cmd.Process.Pid, dir, 20*time.Second) {
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

// waitForTemp polls until process pid writes its output in dir: a
// hidden temporary file appears there, or (Linux, where the output has
// no name until it is done) the process holds a file of dir open.
func waitForTemp(pid int, dir string, limit time.Duration) bool {
	fds := fmt.Sprintf("/proc/%d/fd", pid)
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".big.csv.tmp") {
				return true
			}
		}
		open, _ := os.ReadDir(fds)
		for _, e := range open {
			if target, err := os.Readlink(filepath.Join(fds, e.Name())); err == nil && strings.HasPrefix(target, dir+"/") {
				return true
			}
		}
	}
	return false
}

// TestKillLeavesNothing: SIGKILL, which no process can catch, midway
// through writing an output leaves nothing in the output's folder on
// Linux, where the output has no name until it is complete (a named
// temporary file would stay: the 45 MB .victim.csv.tmpNNNN of issue 27).
func TestKillLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary, signalled, for seconds")
	}
	if runtime.GOOS != "linux" {
		t.Skip("cmd/pollfit: unnamed output files (O_TMPFILE) are Linux-only")
	}
	bin := shippedPollfit(t)
	for _, force := range []bool{false, true} {
		dir := t.TempDir()
		out := filepath.Join(dir, "big.csv")
		args := []string{"gen", "-n", "1000000", "-o", out}
		if force {
			os.WriteFile(out, []byte("old\n"), 0o644)
			args = append(args, "--force")
		}
		cmd := exec.Command(bin, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if !waitForTemp(cmd.Process.Pid, dir, 20*time.Second) {
			cmd.Process.Kill()
			t.Fatal("the output was never opened")
		}
		cmd.Process.Kill()
		cmd.Wait()
		want := 0
		if force {
			want = 1 // the old file, untouched
			if b, _ := os.ReadFile(out); string(b) != "old\n" {
				t.Errorf("--force: the old file holds %q after the kill, want it untouched", b)
			}
		}
		if left, _ := os.ReadDir(dir); len(left) != want {
			t.Errorf("force=%v: left behind: %v", force, left)
		}
	}
}

// shippedPollfit returns the binary for a test: this test binary run as
// pollfit-main (TestMain), which runs main as the built binary does,
// rather than a go build of the package per test (seconds of linking
// each).
func shippedPollfit(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("pollfit-main")
	if err != nil {
		t.Fatalf("pollfit-main is not on PATH (TestMain puts it there): %v", err)
	}
	return bin
}

// TestSignalStopsFit: SIGTERM during a fit that would run for minutes
// (10,000 bootstrap resamples) cancels the context the fit watches: it
// exits 143 with the signal's message and no "context canceled" error,
// well inside the watchdog (the grace period before a forced exit is
// stopGrace; the fit stops long before it).
func TestSignalStopsFit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary, signalled, for seconds")
	}
	bin := shippedPollfit(t)
	cmd := exec.Command(bin, "fit", "--requests-per-item", "8", "--bootstrap", "10000", "--family", "exponential",
		"--baseline", "now=1s until 30s, 2s until 2m, 5s until 5m", "../../testdata/payments.csv")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // reading and fitting, well before the end
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatal("fit still running a minute after SIGTERM")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Fatalf("exit: %v, want code 143 (stderr %q)", err, stderr.String())
	}
	if got := stderr.String(); !strings.Contains(got, "pollfit: stopped by SIGTERM") || strings.Contains(got, "context canceled") {
		t.Errorf("stderr %q, want the signal's message alone", got)
	}
}
