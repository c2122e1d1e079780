package export

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// normalized is lines with leading space trimmed and inner runs of
// space (gofmt's alignment of comments) made one space.
func normalized(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.Join(strings.Fields(l), " ")
	}
	return out
}

// adapterSnippets are the code blocks of the package documentation's
// section on retry libraries, each without its first line (making b).
func adapterSnippets(t *testing.T) [][]string {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(src), "// # Using the generated Go with retry libraries")
	section, _, _ = strings.Cut(section, "// A hand-written loop")
	var blocks [][]string
	var cur []string
	for _, line := range append(strings.Split(section, "\n"), "") {
		if code, ok := strings.CutPrefix(line, "//\t"); ok {
			cur = append(cur, code)
			continue
		}
		if len(cur) > 0 {
			if cur[0] != "b := poll.Poll.BackOff()" {
				t.Errorf("snippet does not start by making b:\n%s", strings.Join(cur, "\n"))
			}
			blocks = append(blocks, cur[1:])
			cur = nil
		}
	}
	return blocks
}

// TestDocAdapters checks that every adapter of the package
// documentation is, line for line, code of the adapter tests in
// adapters/, which build it against the real library.
func TestDocAdapters(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("adapters", "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no adapter tests (%v)", err)
	}
	var code []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code = append(code, normalized(strings.Split(string(src), "\n"))...)
	}
	blocks := adapterSnippets(t)
	if len(blocks) != 6 {
		t.Errorf("%d adapter snippets, want 6 (cenkalti v4 and v5, go-retry, failsafe-go, retry-go v4 and v5)", len(blocks))
	}
	for _, b := range blocks {
		want := normalized(b)
		found := false
		for i := range code {
			if i+len(want) <= len(code) && slices.Equal(code[i:i+len(want)], want) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("snippet of the package documentation is not in adapters/*_test.go:\n%s", strings.Join(b, "\n"))
		}
	}
}
