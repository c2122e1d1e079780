package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

// runCLI runs pollfit in process and returns its exit code, stderr and
// the bytes allocated meanwhile.
func runCLI(t *testing.T, args ...string) (code int, stderr string, alloc uint64) {
	t.Helper()
	var out, errb bytes.Buffer
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	code = run(args, &out, &errb)
	runtime.ReadMemStats(&after)
	return code, errb.String(), after.TotalAlloc - before.TotalAlloc
}

// TestSpecFileBounded: @/dev/zero and @/dev/urandom once read whole
// (11.8 GB in 24 s); now at most export.MaxDocument bytes are read, twice
// (the strategy test and the schedule), so the run allocates a few times
// 2 MiB.
func TestSpecFileBounded(t *testing.T) {
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		if _, err := os.Stat(dev); err != nil {
			t.Skipf("%s: %v", dev, err)
		}
		code, stderr, alloc := runCLI(t, "eval", "-s", "@"+dev, "nolog.csv")
		if code != 1 || !strings.Contains(stderr, dev+": longer than the 2097152 bytes (2 MiB) pollfit reads for a schedule") {
			t.Errorf("eval -s @%s: exit %d, %q", dev, code, stderr)
		}
		if alloc > 64<<20 {
			t.Errorf("eval -s @%s allocated %d MB, want at most 64", dev, alloc>>20)
		}
	}
}

// TestExportFromBounded: export --from reads through the same limit.
func TestExportFromBounded(t *testing.T) {
	code, stderr, alloc := runCLI(t, "export", "--from", "/dev/zero")
	if code != 1 || !strings.Contains(stderr, "longer than the 2097152 bytes") {
		t.Errorf("export --from /dev/zero: exit %d, %q", code, stderr)
	}
	if alloc > 64<<20 {
		t.Errorf("export --from /dev/zero allocated %d MB, want at most 64", alloc>>20)
	}
}

// TestInlineSpecErrorBounded: a spec without NAME= is named after
// itself, and its error once echoed all 109 KB of it. Every quoted piece
// is now at most quote.Max runes.
func TestInlineSpecErrorBounded(t *testing.T) {
	for _, spec := range []string{
		strings.Repeat("1s, ", 27000) + "nonsense",
		"exponential(initial=" + strings.Repeat("\xfd", 100000) + ")",
		strings.Repeat("é", 60000),
	} {
		code, stderr, _ := runCLI(t, "eval", "-s", spec, "nolog.csv")
		if code == 0 {
			t.Fatalf("spec of %d bytes accepted", len(spec))
		}
		if n := utf8.RuneCountInString(stderr); n > 1000 {
			t.Errorf("spec of %d bytes: error of %d runes: %.300s", len(spec), n, stderr)
		}
	}
}

// TestForceRefusesIrregular: --force once replaced a named pipe with a
// regular file; a pipe, a device or a folder is now refused, with or
// without --force, and left as it was.
func TestForceRefusesIrregular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{
		{"gen", "-n", "5", "--force", "-o", fifo},
		{"gen", "-n", "5", "-o", fifo},
		{"sketch", "--force", "-o", fifo, "nolog.csv"},
	} {
		code, stderr, _ := runCLI(t, args...)
		want := "pollfit: " + fifo + " is a named pipe, not a regular file: pollfit writes only regular files (remove it, or give another name)\n"
		if code != 1 || stderr != want {
			t.Errorf("%v: exit %d, %q, want 1, %q", args, code, stderr, want)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", fi.Mode(), err)
	}
	if _, err := os.Stat("/dev/null"); err == nil {
		code, stderr, _ := runCLI(t, "gen", "-n", "5", "--force", "-o", "/dev/null")
		if code != 1 || !strings.Contains(stderr, "/dev/null is a character device, not a regular file") {
			t.Errorf("gen -o /dev/null --force: exit %d, %q", code, stderr)
		}
	}
}

// TestForceFollowsLinkToRegular: a link to a regular file may still be
// overwritten with --force, as before.
func TestForceFollowsLinkToRegular(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "t.csv"), filepath.Join(dir, "l.csv")
	if err := os.WriteFile(target, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if code, stderr, _ := runCLI(t, "gen", "-n", "5", "--force", "-o", link); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(link)
	if err != nil || !bytes.HasPrefix(data, []byte("created_at")) && !bytes.Contains(data, []byte(",")) {
		t.Errorf("link now reads %q, %v", data, err)
	}
}

// TestGenStreams: gen once held every row (1.27 GB for 10 million CSV
// rows); it now holds 4 bytes a row and a chunk. 200,000 rows held at
// once took 26 MB (a 104-byte row and a 24-byte creation time each);
// streamed, the whole run allocates a few MB.
func TestGenStreams(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g.csv")
	code, stderr, alloc := runCLI(t, "gen", "-n", "200000", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if alloc > 8<<20 {
		t.Errorf("gen -n 200000 allocated %.1f MB, want at most 8", float64(alloc)/(1<<20))
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if lines := bytes.Count(data, []byte("\n")); lines != 200001 {
		t.Errorf("%d lines, want a header and 200000 rows", lines)
	}
}
