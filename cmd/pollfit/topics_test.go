package main

import (
	"bytes"
	"github.com/pollfit/pollfit/estimate"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/fit/schedule"
)

// TestHelpSchedule checks that "pollfit help schedule", the topic eval
// --help points to, prints the grammar of package fit/schedule's
// documentation line for line, and that its examples parse.
func TestHelpSchedule(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"help", "schedule"}, &out, &errb); code != 0 {
		t.Fatalf("pollfit help schedule: exit %d: %s", code, errb.String())
	}
	got := out.String()
	grammar := docGrammar(t)
	if len(grammar) < 10 {
		t.Fatalf("found %d grammar lines in fit/schedule/doc.go, want 10 or more", len(grammar))
	}
	for _, l := range grammar {
		if !strings.Contains(got, "\n  "+l+"\n") {
			t.Errorf("pollfit help schedule lacks the grammar line %q", l)
		}
	}
	for _, ex := range []string{
		"1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m",
		"at 0s 3s 8s 16s 29s, 15s until 2m, 30s",
		"at 0s 1s, 2s until 2m, 5s, every 5m at +2s +5s until 1h, reset on signal",
	} {
		if !strings.Contains(got, "\n  "+ex+"\n") {
			t.Errorf("pollfit help schedule lacks the example %q", ex)
		}
		if _, err := schedule.Parse(ex); err != nil {
			t.Errorf("example %q: %v", ex, err)
		}
	}
}

// docGrammar is the EBNF in fit/schedule/doc.go: the code block after
// "The grammar, in EBNF:".
func docGrammar(t *testing.T) []string {
	b, err := os.ReadFile("../../fit/schedule/doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "// The grammar, in EBNF:\n//\n")
	if !ok {
		t.Fatal("fit/schedule/doc.go has no grammar")
	}
	var out []string
	for _, l := range strings.Split(rest, "\n") {
		l, ok := strings.CutPrefix(l, "//\t")
		if !ok {
			break
		}
		out = append(out, l)
	}
	return out
}

// TestHelpUnknown checks that help refuses a name that is neither a
// command nor a topic.
func TestHelpUnknown(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"help", "frobnicate"}, &out, &errb); code != 2 {
		t.Errorf("pollfit help frobnicate: exit %d, want 2", code)
	}
	want := "pollfit: help: unknown command or topic \"frobnicate\" (run 'pollfit help')\n"
	if errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
}

// TestHelpReferences checks that every "pollfit help NAME" a command's
// help mentions names a command or a topic, and that eval's help names
// its "detected" column with the JSON's word.
func TestHelpReferences(t *testing.T) {
	ref := regexp.MustCompile(`pollfit help ([a-z]+)`)
	for _, name := range commandNames() {
		var out, errb bytes.Buffer
		if code := run([]string{name, "--help"}, &out, &errb); code != 0 {
			t.Fatalf("pollfit %s --help: exit %d: %s", name, code, errb.String())
		}
		for _, m := range ref.FindAllStringSubmatch(out.String(), -1) {
			if commands[m[1]] == nil && topics[m[1]] == nil {
				t.Errorf("pollfit %s --help points to %q, which is neither a command nor a topic", name, m[0])
			}
		}
		if name == "eval" && !strings.Contains(out.String(), `"detected" column (as in --json)`) {
			t.Errorf("pollfit eval --help does not name its detected column as the JSON does")
		}
	}
}

// TestHelpLogsListsStatusWords checks that "pollfit help logs", which the
// unknown-status error points to, lists every status word the readers
// know, under its meaning.
func TestHelpLogsListsStatusWords(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"help", "logs"}, &out, &errb); code != 0 {
		t.Fatalf("pollfit help logs: exit %d: %s", code, errb.String())
	}
	flat := strings.Join(strings.Fields(out.String()), " ")
	for st, label := range map[estimate.Status]string{estimate.Settled: "success:", estimate.Failed: "failure:", estimate.Pending: "pending:"} {
		_, list, ok := strings.Cut(flat, label)
		if !ok {
			t.Fatalf("pollfit help logs has no %q list", label)
		}
		list, _, _ = strings.Cut(list, ":")
		for _, w := range estimate.NewStatusWords(nil, nil).ByStatus()[st] {
			if !strings.Contains(list, " "+w+",") && !strings.Contains(list, " "+w+" ") {
				t.Errorf("pollfit help logs does not list %q under %s", w, label)
			}
		}
	}
}
