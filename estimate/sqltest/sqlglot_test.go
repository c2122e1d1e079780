package sqltest

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
)

// sqlglotPython is a python3 that imports sqlglot (Debian's
// python3-sqlglot installs it for /usr/bin/python3), "" when none does.
func sqlglotPython() string {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(p, "-c", "import sqlglot").Run() == nil {
			return p
		}
	}
	return ""
}

// parseOne is a sqlglot script: the statements of stdin in dialect
// argv[1], an error when they do not parse.
const parseOne = `import sys, sqlglot
from sqlglot.errors import ErrorLevel
trees = [t for t in sqlglot.parse(sys.stdin.read(), read=sys.argv[1], error_level=ErrorLevel.RAISE) if t is not None]
print(len(trees), trees[0].key if trees else "")
`

// Every dialect's query, in each of its shapes, parses in sqlglot as
// one SELECT of that dialect: BigQuery, Spark and Snowflake, which no
// test runs, and the others too.
func TestSQLGlotParses(t *testing.T) {
	py := sqlglotPython()
	if py == "" {
		t.Skip("no python3 with sqlglot: install Debian's python3-sqlglot (apt-get install python3-sqlglot)")
	}
	for _, d := range estimate.SQLDialects() {
		for name, o := range map[string]estimate.SQLOptions{
			"table":         {Table: "analytics.payments"},
			"by":            {Table: "payments", By: "method"},
			"signal":        {Table: "payments", SignalCol: "signal_at", FinalStatus: []string{"cleared"}},
			"query":         {Query: "SELECT * FROM payments WHERE amount > 0"},
			"quoted":        {Table: `"Pay Ments"`, CreatedCol: `"Created At"`, NoStatus: true},
			"poller":        {Table: "asks", AskedCol: "asked_at", FinalStatus: []string{"cleared"}},
			"poller quoted": {Query: "SELECT * FROM asks", AskedCol: `"Asked At"`, IDCol: "payment_id"},
		} {
			o.Dialect, o.Holdout, o.Seed = d, 0.3, 1
			q, err := estimate.SketchSQL(o)
			if err != nil {
				t.Fatalf("%s %s: %v", d, name, err)
			}
			cmd := exec.Command(py, "-c", parseOne, d)
			cmd.Stdin = strings.NewReader(q)
			out, err := cmd.CombinedOutput()
			if got := strings.TrimSpace(string(out)); err != nil || got != "1 select" {
				t.Errorf("%s %s: sqlglot: %v, %.600s", d, name, err, got)
			}
		}
	}
}
