package estimate

import (
	"strings"
	"testing"
)

// inlineCTEs writes each CTE in place of the references after it, and
// only those: the first CTE's own FROM (a table named like a later CTE)
// stays as it is.
func TestInlineCTEs(t *testing.T) {
	q := "-- head\nWITH\na AS (\n  SELECT x FROM b\n),\nb AS (\n  SELECT x FROM a\n),\nc AS (\n  SELECT x FROM b CROSS JOIN a\n)\nSELECT x FROM c\n"
	want := "-- head\nSELECT x FROM (\n" +
		"  SELECT x FROM (\n  SELECT x FROM (\n  SELECT x FROM b\n) AS a\n) AS b CROSS JOIN (\n  SELECT x FROM b\n) AS a\n" +
		") AS c\n"
	if got := inlineCTEs(q); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := inlineCTEs("SELECT 1\n"); got != "SELECT 1\n" {
		t.Errorf("a query without WITH became %q", got)
	}
}

// The ClickHouse query is one SELECT without CTEs (ClickHouse 18.16 has
// none), and a user's query inside it is kept whole, even one with lines
// that look like a CTE's end and names of the query's CTEs.
func TestClickHouseQueryInlined(t *testing.T) {
	user := "SELECT a FROM (\nSELECT * FROM ok\n)\nAS t"
	q, err := SketchSQL(SQLOptions{Dialect: "clickhouse", Query: user, Holdout: 0.3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(q, "WITH") || strings.Contains(q, fromMark) {
		t.Errorf("the query holds WITH or the mark:\n%s", q)
	}
	if n := strings.Count(q, "(\n"+user+"\n) AS pollfit_rows"); n != 5 {
		t.Errorf("the user's query appears whole %d times, want 5 (items reads ok and obs, dropped reads checked and late, late ok and obs):\n%s", n, q)
	}
	if !strings.HasPrefix(q, "-- pollfit sketch v") || !strings.Contains(q, "-- Export the result") {
		t.Errorf("the head comments are lost:\n%.300s", q)
	}
}
