package sqltest

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
)

// pollerLog writes a generated poller's log of one row per ask to a CSV
// file in dir: n items created over an hour, lognormal settle ages
// (median 6 s), asked at jittered gaps of 1, 2 and 5 s, then every 15 s
// up to 2 minutes (never final past it: pending at the last ask), times
// to the microsecond with a Z, rows shuffled; status words in any case,
// padded, pending and final and failed; an item final at its first ask,
// one final at its creation, one seen pending and final at the same
// instant (settled there); and one bad row of each kind the reader and
// the query must both count. It returns the file and the bad rows by
// reason.
func pollerLog(t *testing.T, dir string, n int) (string, map[string]float64) {
	t.Helper()
	r := rand.New(rand.NewPCG(30, 11))
	t0 := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	gaps := []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 15 * time.Second}
	stamp := func(t time.Time) string { return t.Format("2006-01-02T15:04:05.000000Z") }
	var rows [][]string
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("pay_%d", i)
		created := t0.Add(time.Duration(r.Int64N(int64(time.Hour))) / time.Microsecond * time.Microsecond)
		age := time.Duration(6e9 * math.Exp(1.1*r.NormFloat64()))
		if i%50 == 0 {
			age = 300 * time.Millisecond // final at the first ask: (0, R]
		}
		final := []string{"settled", " Paid ", "SUCCEEDED", "declined", "\tfailed"}
		pending := []string{"pending", "Processing", " requires_action"}
		ask := time.Duration(0)
		for k := 0; ; k++ {
			ask += gaps[min(k, len(gaps)-1)] + time.Duration(r.Int64N(400_000))*time.Microsecond
			if ask > 2*time.Minute {
				break
			}
			st := pending[r.IntN(len(pending))]
			if age <= ask {
				st = final[r.IntN(len(final))]
			}
			rows = append(rows, []string{id, stamp(created), stamp(created.Add(ask)), st})
			if age <= ask {
				break
			}
		}
	}
	c := stamp(t0)
	rows = append(rows,
		[]string{"at_zero", c, c, "settled"},                           // (0, 0]: settled at 0
		[]string{"same", c, stamp(t0.Add(3 * time.Second)), "pending"}, // pending and final at 3 s:
		[]string{"same", c, stamp(t0.Add(3 * time.Second)), "paid"},    // settled at 3 s
		[]string{"pay_1", stamp(t0.Add(-time.Hour)), "", "pending"},    // missing value
		[]string{"", c, stamp(t0.Add(time.Second)), "pending"},         // missing value
		[]string{"pay_2", "", stamp(t0.Add(time.Second)), "pending"},   // missing value
		[]string{"pay_3", c, stamp(t0.Add(-time.Second)), "pending"},   // settled before created
		[]string{"pay_4", c, stamp(t0.Add(time.Second)), "weird"},      // unknown status
		[]string{"pay_5", c, stamp(t0.Add(time.Second)), ""},           // unknown status
	)
	bad := map[string]float64{"missing value": 3, "settled before created": 1, "unknown status": 2}
	r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"id", "created_at", "asked_at", "status"})
	w.WriteAll(rows)
	file := filepath.Join(dir, "asks.csv")
	if err := os.WriteFile(file, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return file, bad
}

// ownPollerSketch is pollfit's sketch of a poller log, bad rows
// skipped, and what it skipped.
func ownPollerSketch(t *testing.T, file string) (*estimate.Sketch, map[string]float64) {
	t.Helper()
	s, err := estimate.NewSketch(holdout, seed)
	if err != nil {
		t.Fatal(err)
	}
	s.Sample = 0
	var addErr error
	st, err := logs.EachPoller([]string{file}, logs.PollerOptions{Options: logs.Options{SkipBad: true}}, func(iv estimate.Interval) {
		if err := s.AddInterval(iv); err != nil && addErr == nil {
			addErr = err
		}
	})
	if err != nil || addErr != nil {
		t.Fatal(err, addErr)
	}
	skipped := map[string]float64{}
	for k, v := range st.Skipped {
		skipped[k] = float64(v)
	}
	return s, skipped
}

// pollerQuery is pollfit's query of a poller log over table.
func pollerQuery(t *testing.T, dialect, table string) string {
	t.Helper()
	q, err := estimate.SketchSQL(estimate.SQLOptions{Dialect: dialect, Table: table, AskedCol: "asked_at", Holdout: holdout, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(q)
}

// samePollerSketch checks an engine's sketch of a poller log against
// pollfit's, line by line as their files list them, the bins and the
// interval part: every field equal, numbers other than whole ones to
// 1e-9 relative (sums of ages, in another order); and the dropped rows'
// counts against the reader's skipped and the rows the log was made
// with.
func samePollerSketch(t *testing.T, engine string, own, got *estimate.Sketch, skipped, bad map[string]float64) {
	t.Helper()
	if !got.HasIntervals() {
		t.Fatalf("%s: the sketch has no interval part", engine)
	}
	a, b := sketchLines(t, own), sketchLines(t, got)
	if len(a) != len(b) {
		t.Fatalf("%s: %d lines, pollfit %d", engine, len(b), len(a))
	}
	for i := range a {
		if !sameFields(a[i], b[i]) {
			t.Fatalf("%s: line %d: %s, pollfit %s", engine, i+3, strings.Join(b[i], ","), strings.Join(a[i], ","))
		}
	}
	t.Logf("%s: %d lines the same, %d pairs of bins in the interval part (fit), dropped %v", engine, len(a), len(got.Fit.Intervals()), got.Dropped)
	if !maps.Equal(skipped, bad) || !maps.Equal(got.Dropped, bad) {
		t.Errorf("%s: dropped %v, pollfit skipped %v, the log has %v", engine, got.Dropped, skipped, bad)
	}
}

func sameFields(x, y []string) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		fx, ex := strconv.ParseFloat(x[i], 64)
		fy, ey := strconv.ParseFloat(y[i], 64)
		whole := ex == nil && fx == math.Trunc(fx)
		switch {
		case ex != nil || ey != nil || whole:
			if x[i] != y[i] {
				return false
			}
		case math.Abs(fx-fy) > 1e-9*math.Abs(fx):
			return false
		}
	}
	return true
}

// DuckDB's sketch of a poller log of one row per ask, grouped by id in
// the engine, is pollfit's own read of the log into a sketch, bins and
// interval part cell for cell, with the same rows dropped by reason.
func TestDuckDBPollerSketch(t *testing.T) {
	dir := t.TempDir()
	file, bad := pollerLog(t, dir, 3000)
	cols := `'id': 'VARCHAR', 'created_at': 'TIMESTAMPTZ', 'asked_at': 'TIMESTAMPTZ', 'status': 'VARCHAR'`
	csv := duckDBLoadExport(t, dir, file, cols, pollerQuery(t, "duckdb", "asks"))
	own, skipped := ownPollerSketch(t, file)
	samePollerSketch(t, "duckdb", own, readExport(t, csv), skipped, bad)
}

// PostgreSQL's sketch of the same poller log, loaded by COPY, is
// pollfit's own, as DuckDB's is.
func TestPostgresPollerSketch(t *testing.T) {
	dir := t.TempDir()
	file, bad := pollerLog(t, dir, 3000)
	url := loadPostgresCols(t, file, "pollfit_asks", "id text, created_at timestamptz, asked_at timestamptz, status text")
	conn, ctx := connectPostgres(t, url)
	var out bytes.Buffer
	if _, err := conn.PgConn().CopyTo(ctx, &out, "COPY ("+pollerQuery(t, "postgres", "pollfit_asks")+") TO STDOUT (FORMAT csv, HEADER true)"); err != nil {
		t.Fatalf("query: %v", err)
	}
	own, skipped := ownPollerSketch(t, file)
	samePollerSketch(t, "postgres", own, readExport(t, out.Bytes()), skipped, bad)
}

// An item whose asks contradict each other stops pollfit's reader; the
// query drops an item of two creation times, counting its rows, and
// reports one seen pending after final, which pollfit refuses on
// reading the export, as the reader refuses the log.
func TestDuckDBPollerContradictions(t *testing.T) {
	dir := t.TempDir()
	cols := `'id': 'VARCHAR', 'created_at': 'TIMESTAMPTZ', 'asked_at': 'TIMESTAMPTZ', 'status': 'VARCHAR'`
	write := func(name, rows string) string {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte("id,created_at,asked_at,status\n"+rows), 0o666); err != nil {
			t.Fatal(err)
		}
		return file
	}
	const ok = "a,2026-11-01T10:00:00Z,2026-11-01T10:00:01Z,pending\na,2026-11-01T10:00:00Z,2026-11-01T10:00:03Z,paid\n"
	two := write("two.csv", ok+"b,2026-11-01T10:00:00Z,2026-11-01T10:00:01Z,pending\nb,2026-11-01T10:00:02Z,2026-11-01T10:00:04Z,pending\nb,2026-11-01T10:00:00Z,2026-11-01T10:00:05Z,paid\n")
	if _, err := logs.EachPoller([]string{two}, logs.PollerOptions{}, func(estimate.Interval) {}); err == nil || !strings.Contains(err.Error(), "one item has one creation time") {
		t.Errorf("pollfit's reader: %v, want the item's two creation times", err)
	}
	got := readExport(t, duckDBLoadExport(t, dir, two, cols, pollerQuery(t, "duckdb", "asks")))
	if want := map[string]float64{"two creation times": 3}; !maps.Equal(got.Dropped, want) {
		t.Errorf("dropped %v, want %v", got.Dropped, want)
	}
	if n := got.Fit.Items + got.HeldOut.Items; n != 1 {
		t.Errorf("%g items, want 1 (a, in (1 s, 3 s])", n)
	}
	after := write("after.csv", ok+"c,2026-11-01T10:00:00Z,2026-11-01T10:00:02Z,paid\nc,2026-11-01T10:00:00Z,2026-11-01T10:00:04Z,pending\n")
	if _, err := logs.EachPoller([]string{after}, logs.PollerOptions{Options: logs.Options{SkipBad: true}}, func(estimate.Interval) {}); err == nil || !strings.Contains(err.Error(), "saw it pending after") {
		t.Errorf("pollfit's reader: %v, want the item seen pending after final", err)
	}
	csv := duckDBLoadExport(t, dir, after, cols, pollerQuery(t, "duckdb", "asks"))
	_, err := estimate.ReadSketch(bytes.NewReader(csv), "export.csv")
	if err == nil || !strings.Contains(err.Error(), "items seen pending by an ask after one saw them final (2 rows)") {
		t.Errorf("reading the export: %v, want the item seen pending after final", err)
	}
}

// pollfit sketch --from a PostgreSQL table with the columns id and
// asked_at takes it for a poller log, as the readers take a CSV file
// with them, and sketches it on the server: pollfit's own read of the
// log, line for line; --asked-col names the column.
func TestSketchFromPostgresPoller(t *testing.T) {
	dir := t.TempDir()
	file, bad := pollerLog(t, dir, 2000)
	url := loadPostgresCols(t, file, "pollfit_from_asks", "id text, created_at timestamptz, asked_at timestamptz, status text")
	bin := buildPollfit(t, dir)
	own, skipped := ownPollerSketch(t, file)
	for i, extra := range [][]string{nil, {"--asked-col", "asked_at"}} {
		out := filepath.Join(dir, fmt.Sprintf("from%d.sketch.csv", i))
		args := append([]string{"sketch", "--from", url, "--table", "pollfit_from_asks", "--holdout", fmt.Sprint(holdout), "--seed", fmt.Sprint(seed), "-o", out}, extra...)
		b, err := exec.Command(bin, args...).CombinedOutput()
		if want := "the query left out 6 bad rows"; err == nil || !strings.Contains(string(b), want) {
			t.Errorf("%q without --skip-bad: %v, %s; want an error with %q", extra, err, b, want)
		}
		if b, err := exec.Command(bin, append(args, "--skip-bad", "-q")...).CombinedOutput(); err != nil {
			t.Fatalf("%q: %v\n%s", extra, err, b)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		got, err := estimate.ReadSketch(bytes.NewReader(data), out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte("# pollfit sketch v3 ")) {
			t.Errorf("%q: the file starts %.40q, want version 3", extra, data)
		}
		got.Dropped = bad // the file keeps no dropped rows: they were checked above
		samePollerSketch(t, "postgres (sketch --from)", own, got, skipped, bad)
	}
}
