package estimate

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// injectionCorpus reads testdata/sql/injection.txt: hostile names and
// queries, one Go-quoted string a line (estimate/sqltest runs them too).
func injectionCorpus(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("testdata/sql/injection.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		s, err := strconv.Unquote(sc.Text())
		if err != nil {
			t.Fatalf("injection.txt: %q: %v", sc.Text(), err)
		}
		out = append(out, s)
	}
	return out
}

// hostileOptions are the options with s in each field that reaches the
// query, by field.
func hostileOptions(dialect, s string) map[string]SQLOptions {
	base := SQLOptions{Dialect: dialect, Table: "payments", Holdout: 0.3, Seed: 1}
	out := map[string]SQLOptions{}
	set := func(name string, f func(o *SQLOptions)) {
		o := base
		f(&o)
		out[name] = o
	}
	set("table", func(o *SQLOptions) { o.Table = s })
	set("query", func(o *SQLOptions) { o.Table, o.Query = "", s })
	set("created", func(o *SQLOptions) { o.CreatedCol = s })
	set("settled", func(o *SQLOptions) { o.SettledCol = s })
	set("status", func(o *SQLOptions) { o.StatusCol = s })
	set("signal", func(o *SQLOptions) { o.SignalCol = s })
	set("by", func(o *SQLOptions) { o.By = s })
	set("final", func(o *SQLOptions) { o.FinalStatus = []string{s} })
	set("pending", func(o *SQLOptions) { o.PendingStatus = []string{s} })
	return out
}

// Every hostile name or query in every field and dialect is refused, or
// the query is one statement as an engine (or psql) splits it.
func TestSketchSQLOneStatement(t *testing.T) {
	refused, kept := 0, 0
	for _, s := range injectionCorpus(t) {
		for _, d := range SQLDialects() {
			for field, o := range hostileOptions(d, s) {
				q, err := SketchSQL(o)
				if err != nil {
					refused++
					continue
				}
				kept++
				if n, why := countStatements(d, q); n != 1 {
					t.Errorf("%s, %s %q: %d statements (%s):\n%s", d, field, s, n, why, q)
				}
			}
		}
	}
	if refused == 0 || kept == 0 {
		t.Errorf("refused %d, kept %d: the corpus should hold both", refused, kept)
	}
}

// countStatements splits q as an engine of the dialect does: strings
// and quoted names (doubled quotes, and backslash escapes where the
// dialect has them), dollar quotes, line and block comments (nested in
// PostgreSQL and DuckDB), then semicolons outside them. A backslash
// outside them is a psql meta-command: it counts as a statement.
func countStatements(dialect, q string) (int, string) {
	backslash := dialect == "bigquery" || dialect == "spark" || dialect == "clickhouse"
	pgLike := dialect == "postgres" || dialect == "duckdb"
	hash := dialect == "bigquery" || dialect == "clickhouse"
	n, content := 0, false
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			esc := backslash || pgLike && c == '\'' && i > 0 && (q[i-1] == 'E' || q[i-1] == 'e')
			j := skipQuoted(q, i, esc)
			if j < 0 {
				return -1, "an unclosed quote at byte " + strconv.Itoa(i+1)
			}
			i, content = j, true
		case strings.HasPrefix(q[i:], "--") || hash && c == '#':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			i += j
		case strings.HasPrefix(q[i:], "/*"):
			j := skipComment(q, i, pgLike)
			if j < 0 {
				return -1, "an unclosed comment"
			}
			i = j
		case pgLike && c == '$' && dollarTag(q[i:]) != "":
			tag := dollarTag(q[i:])
			j := strings.Index(q[i+len(tag):], tag)
			if j < 0 {
				return -1, "an unclosed dollar quote"
			}
			i, content = i+len(tag)+j+len(tag), true
		case c == '\\':
			return 2, "a backslash outside quotes (a psql command)"
		case c == ';':
			if content {
				n++
			}
			content = false
			i++
		default:
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				content = true
			}
			i++
		}
	}
	if content {
		n++
	}
	return n, "split at top-level semicolons"
}

// skipQuoted is the index after the quote closing the one at q[i].
func skipQuoted(q string, i int, esc bool) int {
	c := q[i]
	for j := i + 1; j < len(q); j++ {
		switch {
		case esc && q[j] == '\\':
			j++
		case q[j] == c && j+1 < len(q) && q[j+1] == c:
			j++
		case q[j] == c:
			return j + 1
		}
	}
	return -1
}

// skipComment is the index after the block comment at q[i].
func skipComment(q string, i int, nested bool) int {
	depth := 0
	for j := i; j+1 < len(q); j++ {
		switch {
		case q[j] == '/' && q[j+1] == '*' && (nested || depth == 0):
			depth++
			j++
		case q[j] == '*' && q[j+1] == '/':
			if depth--; depth == 0 {
				return j + 2
			}
			j++
		}
	}
	return -1
}

// dollarTag is the $tag$ starting s, "" when s starts none.
func dollarTag(s string) string {
	for j := 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '$':
			return s[:j+1]
		case !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 1 && c >= '0' && c <= '9'):
			return ""
		}
	}
	return ""
}

// The lexer itself: it finds the second statement in each way the old
// queries let one through.
func TestCountStatements(t *testing.T) {
	for _, c := range []struct {
		dialect, q string
		want       int
	}{
		{"postgres", "SELECT 1", 1},
		{"postgres", "SELECT 1; DROP TABLE x; --", 2},
		{"postgres", "SELECT ';' -- ;\n/* ; /* ; */ ; */", 1},
		{"duckdb", "SELECT $a$;$a$", 1},
		{"spark", `SELECT 'it\'s; x'`, 1},
		{"postgres", `SELECT 'it\'s; x'`, -1},
		{"bigquery", "SELECT 1 # ;\n", 1},
		{"snowflake", "SELECT 1 /* /* */ ; SELECT 2", 2},
		{"postgres", `SELECT 1 \! ls`, 2},
	} {
		if n, why := countStatements(c.dialect, c.q); n != c.want {
			t.Errorf("%s %q: %d statements (%s), want %d", c.dialect, c.q, n, why, c.want)
		}
	}
}

// Names are written in the dialect's quotes, plain ones as given, and a
// query goes in parentheses with an alias (which PostgreSQL needs).
func TestSketchSQLNames(t *testing.T) {
	for _, c := range []struct {
		o    SQLOptions
		want []string
	}{
		{SQLOptions{Dialect: "postgres", Table: `"Pay Ments"`, CreatedCol: "`opened at`"},
			[]string{`FROM "Pay Ments"`, `isfinite("opened at")`}},
		{SQLOptions{Dialect: "spark", Table: `"Pay Ments"`, By: `"Method"`},
			[]string{"FROM `Pay Ments`", "CAST(`Method` AS STRING)", "'Method' AS segment_by"}},
		{SQLOptions{Dialect: "bigquery", Table: "`my-project`.ds.payments"}, []string{"FROM `my-project`.ds.payments"}},
		{SQLOptions{Dialect: "snowflake", Table: "analytics.payments"}, []string{"FROM analytics.payments"}},
		{SQLOptions{Dialect: "postgres", Query: "SELECT * FROM t WHERE k = 'a--b' -- note"},
			[]string{"FROM (\nSELECT * FROM t WHERE k = 'a--b' -- note\n) AS pollfit_rows", "sketch v2 of a query"}},
	} {
		q, err := SketchSQL(c.o)
		if err != nil {
			t.Errorf("%+v: %v", c.o, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(q, w) {
				t.Errorf("%+v: the query lacks %q", c.o, w)
			}
		}
	}
}
