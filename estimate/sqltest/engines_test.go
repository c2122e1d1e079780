package sqltest

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5"
)

// DuckDB's sketch of a log loaded from its CSV, exported by COPY, is
// pollfit's sketch of the log, and ships the same schedule.
func TestDuckDBSketch(t *testing.T) {
	dir := t.TempDir()
	file := testLog(t, dir, 8000)
	csv := duckDBExport(t, dir, file, query(t, "duckdb", "payments", ""), "")
	own, got := ownSketch(t, file), readExport(t, csv)
	sameSketch(t, "duckdb", own, got)
	sameSchedule(t, "duckdb", own, got)
}

// duckDBExport loads a CSV log into DuckDB (with the column by as text
// when given, or signal_at as a timestamp when by names it), runs query q over it and returns the CSV COPY exports.
func duckDBExport(t *testing.T, dir, file, q, by string) []byte {
	t.Helper()
	cols := `'created_at': 'TIMESTAMPTZ', 'settled_at': 'TIMESTAMPTZ', 'status': 'VARCHAR'`
	switch by {
	case "":
	case "signal_at": // a log with signals, not segmented
		cols += ", 'signal_at': 'TIMESTAMPTZ'"
	default:
		cols += ", '" + by + "': 'VARCHAR'"
	}
	return duckDBLoadExport(t, dir, file, cols, q)
}

// duckDBLoadExport loads a CSV file into DuckDB's table payments, its
// columns typed by cols (read_csv's columns), runs query q over it and
// returns the CSV COPY exports.
func duckDBLoadExport(t *testing.T, dir, file, cols, q string) []byte {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	table := map[bool]string{false: "payments", true: "asks"}[strings.Contains(cols, "'asked_at'")]
	load := `CREATE TABLE ` + table + ` AS SELECT * FROM read_csv(?, header = true, columns = {` + cols + `})`
	if _, err := db.Exec(load, file); err != nil {
		t.Fatalf("load: %v", err)
	}
	out := filepath.Join(dir, "sketch.csv")
	copyOut := "COPY (" + q + ") TO '" + strings.ReplaceAll(out, "'", "''") + "' (HEADER, DELIMITER ',')"
	if _, err := db.Exec(copyOut); err != nil {
		t.Fatalf("query: %v", err)
	}
	csv, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return csv
}

// PostgreSQL's sketch of a log loaded by COPY from its CSV, exported by
// COPY TO, is pollfit's sketch of the log, and ships the same schedule.
// The server is $POLLFIT_PG_URL, or one the test starts on loopback.
func TestPostgresSketch(t *testing.T) {
	dir := t.TempDir()
	file := testLog(t, dir, 8000)
	q := query(t, "postgres", "pollfit_payments", "")
	out := postgresExport(t, file, q, "")
	own, got := ownSketch(t, file), readExport(t, out)
	sameSketch(t, "postgres", own, got)
	sameSchedule(t, "postgres", own, got)
	if !strings.Contains(q, "EXTRACT(EPOCH FROM created_at)") {
		t.Errorf("the postgres query does not read created_at by EXTRACT(EPOCH FROM ...)")
	}
}

// postgresExport loads a CSV log into PostgreSQL (with the column by as
// text when given), runs query q over it and returns the CSV COPY TO
// writes.
func postgresExport(t *testing.T, file, q, by string) []byte {
	t.Helper()
	conn, ctx := connectPostgres(t, loadPostgres(t, file, "pollfit_payments", by))
	var out bytes.Buffer
	if _, err := conn.PgConn().CopyTo(ctx, &out, "COPY ("+q+") TO STDOUT (FORMAT csv, HEADER true)"); err != nil {
		t.Fatalf("query: %v", err)
	}
	return out.Bytes()
}

// loadPostgres loads a CSV log into table (with the column by as text
// when given, or signal_at as a timestamp when by names it) on $POLLFIT_PG_URL, or a server it starts on loopback, and
// returns the server's URL.
func loadPostgres(t *testing.T, file, table, by string) string {
	t.Helper()
	cols := "created_at timestamptz, settled_at timestamptz, status text"
	switch by {
	case "":
	case "signal_at": // a log with signals, not segmented
		cols += ", signal_at timestamptz"
	default:
		cols += ", " + by + " text"
	}
	return loadPostgresCols(t, file, table, cols)
}

// loadPostgresCols loads a CSV file into table, of the columns cols, on
// $POLLFIT_PG_URL, or a server it starts on loopback, and returns the
// server's URL.
func loadPostgresCols(t *testing.T, file, table, cols string) string {
	t.Helper()
	url := os.Getenv("POLLFIT_PG_URL")
	if url == "" {
		url = startPostgres(t)
	}
	conn, ctx := connectPostgres(t, url)
	if _, err := conn.Exec(ctx, "DROP TABLE IF EXISTS "+table+"; CREATE TABLE "+table+" ("+cols+")"); err != nil {
		t.Fatalf("create: %v", err)
	}
	in, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, err := conn.PgConn().CopyFrom(ctx, in, "COPY "+table+" FROM STDIN (FORMAT csv, HEADER true)"); err != nil {
		t.Fatalf("load: %v", err)
	}
	return url
}

// connectPostgres connects to the server at url for the rest of the
// test, with a context that ends after two minutes.
func connectPostgres(t *testing.T, url string) (*pgx.Conn, context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn, ctx
}
