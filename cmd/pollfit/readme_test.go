package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestReadmeFirstCommand runs the README's first command and checks that
// its output is, to the byte, the output the README explains.
func TestReadmeFirstCommand(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	_, rest, ok := strings.Cut(readme, "```sh\n")
	if !ok {
		t.Fatal("README has no sh block")
	}
	cmd, _, _ := strings.Cut(rest, "\n")
	args := shellWords(t, strings.TrimPrefix(cmd, "go run ./cmd/pollfit "))
	for i, a := range args {
		if strings.HasPrefix(a, "testdata/") {
			args[i] = "../../" + a
		}
	}
	_, rest, ok = strings.Cut(readme, "## Reading the first command's output\n\n```text\n")
	if !ok {
		t.Fatal("README has no output of the first command")
	}
	want, _, _ := strings.Cut(rest, "```")
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, errb.String())
	}
	if got := strings.ReplaceAll(out.String(), "../../testdata/", "testdata/"); got != want {
		t.Errorf("the README's first command prints\n%s\nbut the README shows\n%s", got, want)
	}
}

// shellWords splits a command line as sh does for words and single
// quotes (enough for the README).
func shellWords(t *testing.T, s string) []string {
	var out []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				out, in = append(out, w.String()), false
				w.Reset()
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if in {
		out = append(out, w.String())
	}
	return out
}
