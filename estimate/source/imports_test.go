package source_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readEntries are estimate/logs' names for reading logs, sketch files,
// poller logs and metrics, which package source wraps: a command reads
// through source.Read (source.ReadIntervals for a poller's own log or a
// metric), and so holds one path from a log to samples. Left to
// logs: its options and statistics (logs.Options, logs.Stats), its
// errors, the writers of pollfit gen, and ReadContext, with
// which simulate reads the arrivals and answers of one log it replays
// (raw rows of a log given as a clock, not samples to fit).
var readEntries = []string{"Each", "EachContext", "EachWeighted", "EachWeightedContext", "EachBy", "EachByContext",
	"EachParallel", "Read", "Sinks", "OtherColumns", "IsParquetSketch", "ReadParquetSketch", "WriteParquetSketch",
	"IsPollerLog", "EachPoller", "IsMetric", "ReadMetric"}

// logsReads lists, file:line, the uses of readEntries in the non-test
// Go files of dir, under whatever name each file imports estimate/logs.
func logsReads(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var uses []string
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		local := ""
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == "github.com/pollfit/pollfit/estimate/logs" {
				local = "logs"
				if im.Name != nil {
					local = im.Name.Name
				}
			}
		}
		if local == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == local && slices.Contains(readEntries, sel.Sel.Name) {
					uses = append(uses, fset.Position(sel.Pos()).String()+": logs."+sel.Sel.Name)
				}
			}
			return true
		})
	}
	return uses
}

// TestCommandReadsThroughSource: cmd/pollfit calls none of estimate/logs'
// read entry points that source offers.
func TestCommandReadsThroughSource(t *testing.T) {
	if uses := logsReads(t, "../../cmd/pollfit"); len(uses) > 0 {
		t.Errorf("cmd/pollfit reads around source.Read:\n%s", strings.Join(uses, "\n"))
	}
}

// TestReadRuleCatches: the rule sees a read entry point under the
// package's own name and under another, and lets the options pass.
func TestReadRuleCatches(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.go":      "package main\n\nimport \"github.com/pollfit/pollfit/estimate/logs\"\n\nvar _ = logs.EachContext\nvar _ logs.Options\n",
		"b.go":      "package main\n\nimport lg \"github.com/pollfit/pollfit/estimate/logs\"\n\nvar _ = lg.Sinks\n",
		"c_test.go": "package main\n\nimport \"github.com/pollfit/pollfit/estimate/logs\"\n\nvar _ = logs.Read\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uses := logsReads(t, dir)
	if len(uses) != 2 || !strings.HasSuffix(uses[0], "a.go:5:9: logs.EachContext") || !strings.HasSuffix(uses[1], "b.go:5:9: logs.Sinks") {
		t.Errorf("uses %q", uses)
	}
}
