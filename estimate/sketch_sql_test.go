package estimate

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/internal/opterr"
)

var update = flag.Bool("update", false, "rewrite the golden SQL files in testdata/sql")

// The query of each dialect, as reviewed: testdata/sql/DIALECT.sql,
// segmented by a column, DIALECT_by.sql, and of a poller log of one row
// per ask, DIALECT_poller.sql. duckdb, postgres and clickhouse
// run in tests (module estimate/sqltest); every dialect parses in sqlglot.
func TestSketchSQLGolden(t *testing.T) {
	cases := map[string]SQLOptions{"postgres_options": {Dialect: "postgres", Table: "public.payments",
		CreatedCol: "opened", SettledCol: "closed", NoStatus: true, Holdout: 0.2, Seed: 9,
		ObservedAt: time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC)}}
	for _, d := range SQLDialects() {
		cases[d] = SQLOptions{Dialect: d, Table: "payments", Holdout: 0.3, Seed: 1}
		cases[d+"_by"] = SQLOptions{Dialect: d, Table: "payments", Holdout: 0.3, Seed: 1, By: "method"}
		cases[d+"_poller"] = SQLOptions{Dialect: d, Table: "asks", AskedCol: "asked_at", Holdout: 0.3, Seed: 1}
	}
	for name, opt := range cases {
		got, err := SketchSQL(opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		file := filepath.Join("testdata", "sql", name+".sql")
		if *update {
			if err := os.WriteFile(file, []byte(got), 0o666); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (run go test -run TestSketchSQLGolden -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s: the query differs from %s (after review, refresh it with -update)", name, file)
		}
	}
}

func TestSketchSQLErrors(t *testing.T) {
	for _, c := range []struct {
		opt  SQLOptions
		want string
	}{
		{SQLOptions{Dialect: "oracle", Table: "t"}, `sql: dialect "oracle": want one of bigquery, clickhouse, duckdb, postgres, snowflake, spark`},
		{SQLOptions{Dialect: "duckdb"}, "sql: no table: give Table NAME (or Query"},
		{SQLOptions{Dialect: "duckdb", Table: "t", Query: "SELECT 1"}, "sql: give Table or Query, not both"},
		{SQLOptions{Dialect: "postgres", Table: "(SELECT * FROM t)"}, "a subquery goes in Query"},
		{SQLOptions{Dialect: "duckdb", Table: "t", Holdout: 1}, "sql: Holdout 1: want a share in [0, 1)"},
		{SQLOptions{Dialect: "duckdb", Table: "t", FinalStatus: []string{"it's"}}, `sql: status word "it's"`},
		{SQLOptions{Dialect: "duckdb", Table: "t", By: "o'k"}, `sql: By "o'k": '\'' at byte 2; want a name`},
		{SQLOptions{Dialect: "duckdb", Table: "t", FinalStatus: []string{"ok;"}}, `sql: status word "ok;": quotes, semicolons`},
		{SQLOptions{Dialect: "duckdb", Table: "t", IDCol: "item"}, `sql: IDCol "item": an id column is for a poller log: give AskedCol too`},
		{SQLOptions{Dialect: "duckdb", Table: "t", AskedCol: "asked_at", SettledCol: "settled_at"}, `sql: SettledCol "settled_at": a poller log (AskedCol given) takes none`},
		{SQLOptions{Dialect: "duckdb", Table: "t", AskedCol: "asked_at", By: "method"}, `sql: By "method": a poller log (AskedCol given) takes none`},
		{SQLOptions{Dialect: "duckdb", Table: "t", AskedCol: "asked;"}, `sql: AskedCol "asked;"`},
	} {
		_, err := SketchSQL(c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.opt, err, c.want)
		}
		// A refused name or share is an option error naming its field.
		var oe *opterr.OptionError
		if field, _, _ := strings.Cut(strings.TrimPrefix(c.want, "sql: "), " "); strings.ContainsAny(field[:1], "TBH") && (!errors.As(err, &oe) || oe.Field != field) {
			t.Errorf("%+v: %v: want an option error for %s", c.opt, err, field)
		}
	}
}

// sqlForm rewrites a sketch file as a SQL engine exports it: no first
// line, the split in two more columns, upper-case names, CRLF.
func sqlForm(t *testing.T, s *Sketch) string {
	var buf bytes.Buffer
	if err := WriteSketch(&buf, s); err != nil {
		t.Fatal(err)
	}
	bins, _, _ := strings.Cut(buf.String(), sampleHeader+"\n") // a SQL sketch keeps no sample
	lines := strings.Split(strings.TrimSpace(bins), "\n")[2:]
	out := strings.ToUpper(sqlSketchHeader) + "\r\n"
	for _, l := range lines {
		out += l + "," + num(s.Holdout) + "," + strconv.FormatUint(s.Seed, 10) + "\r\n"
	}
	return out
}

// A SQL engine's sketch reads as the same sketch.
func TestReadSQLSketch(t *testing.T) {
	s := mustSketch(t, sketchItems(3000, 4), 0.3, 1<<63+5) // a seed a float64 would round
	in := sqlForm(t, s)
	if !IsSketch([]byte(in[:32])) {
		t.Fatal("a SQL sketch is not recognised by its first 32 bytes")
	}
	got, err := ReadSketch(strings.NewReader(in), "q.csv")
	if err != nil {
		t.Fatal(err)
	}
	sameSketch(t, s, got)
	for _, c := range []struct{ in, want string }{
		{sqlSketchHeader + "\nfit,settled,30001,1,1,1,0,0.3\n", "q.csv:2: 8 fields, want 9"},
		{sqlSketchHeader + "\nfit,settled,30001,1,1,1,0,0.3,1\nfit,settled,30001,1,1,1,0,0.2,1\n", "q.csv:3:8: split 0.2,1 differs from the first row's (0.3,1)"},
		{sqlSketchHeader + "\nfit,settled,30001,1,1,1,0,2,1\n", "q.csv:2:8: split 2,1: hold-out share 2"},
		{sqlSketchHeader + "\nfit,settled,30000,1,1,1,0,0.3,1\n", "q.csv:2:4: column age_s: 1 is not in bin 30000"},
	} {
		if _, err := ReadSketch(strings.NewReader(c.in), "q.csv"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}
