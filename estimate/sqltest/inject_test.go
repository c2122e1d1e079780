package sqltest

import (
	"bufio"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pollfit/pollfit/estimate"
)

// injectionCorpus reads estimate's corpus of hostile names and queries.
func injectionCorpus(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("../testdata/sql/injection.txt")
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

// hostileQueries are the queries SketchSQL writes, in a dialect, with
// each corpus string in each field that reaches the query (the ones it
// refuses left out), over a table payments: of a log, and of a poller
// log of one row per ask.
func hostileQueries(t *testing.T, dialect string) (queries []string, refused int) {
	for _, s := range injectionCorpus(t) {
		for _, set := range []func(o *estimate.SQLOptions){
			func(o *estimate.SQLOptions) { o.Table = s },
			func(o *estimate.SQLOptions) { o.Table, o.Query = "", s },
			func(o *estimate.SQLOptions) { o.CreatedCol = s },
			func(o *estimate.SQLOptions) { o.SettledCol = s },
			func(o *estimate.SQLOptions) { o.StatusCol = s },
			func(o *estimate.SQLOptions) { o.SignalCol = s },
			func(o *estimate.SQLOptions) { o.By = s },
			func(o *estimate.SQLOptions) { o.FinalStatus = []string{s} },
			func(o *estimate.SQLOptions) { o.AskedCol = s },
			func(o *estimate.SQLOptions) { o.AskedCol, o.IDCol = "asked_at", s },
			func(o *estimate.SQLOptions) { o.AskedCol, o.Table, o.Query = "asked_at", "", s },
			func(o *estimate.SQLOptions) { o.AskedCol, o.CreatedCol = "asked_at", s },
			func(o *estimate.SQLOptions) { o.AskedCol, o.StatusCol = "asked_at", s },
		} {
			o := estimate.SQLOptions{Dialect: dialect, Table: "payments", Holdout: holdout, Seed: seed}
			set(&o)
			q, err := estimate.SketchSQL(o)
			if err != nil {
				refused++
				continue
			}
			queries = append(queries, q)
		}
	}
	return queries, refused
}

// sentinelDDL makes the table the corpus drops, and a small payments.
const sentinelDDL = `CREATE TABLE x (keep INTEGER);
INSERT INTO x VALUES (1);
CREATE TABLE payments (id VARCHAR, created_at TIMESTAMPTZ, settled_at TIMESTAMPTZ, asked_at TIMESTAMPTZ, status VARCHAR);
INSERT INTO payments VALUES ('a', '2026-11-01 10:00:00+00', '2026-11-01 10:00:03+00', '2026-11-01 10:00:03+00', 'paid'),
  ('b', '2026-11-01 10:00:01+00', NULL, '2026-11-01 10:00:02+00', 'pending')`

// DuckDB runs every query pollfit writes from the corpus, through
// duckdb-go's Exec (which runs stacked statements): the sentinel table
// survives each.
func TestDuckDBInjection(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(sentinelDDL); err != nil {
		t.Fatal(err)
	}
	queries, refused := hostileQueries(t, "duckdb")
	for _, q := range queries {
		db.Exec(q) // it may fail (a hostile column name): it must not drop x
		var n int
		if err := db.QueryRow("SELECT count(*) FROM x").Scan(&n); err != nil || n != 1 {
			t.Fatalf("after the query below, table x: %v, %d rows, want 1:\n%s", err, n, q)
		}
	}
	t.Logf("duckdb: %d queries run, %d refused", len(queries), refused)
}

// PostgreSQL runs every query pollfit writes from the corpus through the
// simple protocol (which runs stacked statements), and pollfit sketch
// --from gets the hostile flags: the sentinel table survives.
func TestPostgresInjection(t *testing.T) {
	url := os.Getenv("POLLFIT_PG_URL")
	if url == "" {
		url = startPostgres(t)
	}
	conn, ctx := connectPostgres(t, url)
	ddl := "DROP SCHEMA IF EXISTS pollfit_inject CASCADE; CREATE SCHEMA pollfit_inject; SET search_path = pollfit_inject;\n" + sentinelDDL
	if _, err := conn.Exec(ctx, ddl); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Exec(ctx, "DROP SCHEMA IF EXISTS pollfit_inject CASCADE") })
	survives := func(after string) {
		t.Helper()
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pollfit_inject.x").Scan(&n); err != nil || n != 1 {
			t.Fatalf("after %s, table x: %v, %d rows, want 1", after, err, n)
		}
	}
	queries, refused := hostileQueries(t, "postgres")
	for _, q := range queries {
		conn.Exec(ctx, q, pgx.QueryExecModeSimpleProtocol)
		survives("the query\n" + q)
	}
	t.Logf("postgres: %d queries run, %d refused", len(queries), refused)

	dir := t.TempDir()
	bin := buildPollfit(t, dir)
	inSchema := url + "&search_path=pollfit_inject"
	for _, args := range [][]string{
		{"--table", "payments) SELECT 1; DROP TABLE x; WITH src AS (SELECT 1 AS c_us, 1 AS s_us, 1 AS st"},
		{"--table", "payments", "--status-col", "status) = 1; DROP TABLE IF EXISTS x; --"},
		{"--table", "payments; DROP TABLE x; --"},
		{"--query", "SELECT * FROM payments; DROP TABLE x"},
		{"--query", "SELECT * FROM payments WHERE note = 'it\\'s; DROP TABLE x; --'"},
	} {
		out := filepath.Join(dir, "s.csv")
		b, err := exec.Command(bin, append([]string{"sketch", "--from", inSchema, "-o", out}, args...)...).CombinedOutput()
		if err == nil || !strings.Contains(string(b), "sql: ") {
			t.Errorf("sketch --from %q: %v, %s; want a usage error from the query's check", args, err, b)
		}
		survives("sketch --from " + strings.Join(args, " "))
	}
	// The read-only transaction: a query that writes (here, a sequence)
	// is refused by the server.
	if _, err := conn.Exec(ctx, "CREATE SEQUENCE pollfit_inject.seq"); err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command(bin, "sketch", "--from", inSchema, "-o", filepath.Join(dir, "w.csv"),
		"--query", "SELECT * FROM payments WHERE nextval('seq') > 0").CombinedOutput()
	if err == nil || !strings.Contains(string(b), "read-only transaction") {
		t.Errorf("sketch --from a query calling nextval: %v, %s; want the server's read-only error", err, b)
	}
}
