package main

import (
	"bytes"
	"github.com/pollfit/pollfit/internal/testenv"
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

// TestReadmeOwnLog runs the commands of the README's "Fit your own log"
// section as written (each "$ pollfit ..." line of its text blocks) and
// checks that the lines the README shows under each are the first lines
// of what it prints: stdout, or stderr when it prints nothing there.
// The fits run only in the long run (each is a full study of 5,000
// items with every shape); the reads always run.
func TestReadmeOwnLog(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "## Fit your own log\n")
	if !ok {
		t.Fatal(`README has no "Fit your own log" section`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	cmds := readmeCommands(sec)
	if len(cmds) < 4 {
		t.Fatalf("found %d commands in the section, want 4 or more", len(cmds))
	}
	for _, c := range cmds {
		if strings.HasPrefix(c.line, "fit ") && !testenv.Long() {
			continue
		}
		args := shellWords(t, c.line)
		for i, a := range args {
			if strings.HasPrefix(a, "testdata/") {
				args[i] = "../../" + a
			}
		}
		var out, errb bytes.Buffer
		run(args, &out, &errb)
		got := out.String()
		if got == "" {
			got = errb.String()
		}
		got = strings.ReplaceAll(got, "../../testdata/", "testdata/")
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("pollfit %s prints\n%s\nbut the README shows\n%s", c.line, got, c.want)
		}
	}
}

type readmeCommand struct{ line, want string }

// readmeCommands are the "$ pollfit" lines of the text blocks in s, each
// with the lines under it up to the next command or the block's end.
func readmeCommands(s string) []readmeCommand {
	var cmds []readmeCommand
	for _, block := range strings.Split(s, "```text\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		for _, part := range strings.Split(block, "$ pollfit ")[1:] {
			line, want, _ := strings.Cut(part, "\n")
			cmds = append(cmds, readmeCommand{line, want})
		}
	}
	return cmds
}
