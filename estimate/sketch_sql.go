package estimate

import (
	"fmt"
	"strings"
	"time"

	"github.com/pollfit/pollfit/internal/opterr"
)

// SQLOptions say what SketchSQL queries. Names are checked and quoted
// for the dialect (see SketchSQL).
type SQLOptions struct {
	// Dialect is one of SQLDialects: duckdb, postgres, bigquery, spark,
	// clickhouse or snowflake.
	Dialect string
	// Table is the table to sketch, a name or dotted schema.table; Query
	// is a SELECT to sketch the rows of instead (give one of the two).
	Table, Query string
	// CreatedCol and SettledCol are timestamp columns (default
	// created_at and settled_at); a null settled_at is pending.
	CreatedCol, SettledCol string
	// StatusCol is the status column (default status); NoStatus says the
	// table has none.
	StatusCol string
	NoStatus  bool
	// SignalCol is a signal timestamp column ("" for none): the query
	// then counts its timestamps in the default observed-at time and
	// leaves out rows whose signal comes before their creation, as the
	// reader does with a signal_at column.
	SignalCol string
	// FinalStatus and PendingStatus are status words added to the
	// defaults, as in logs.Options.
	FinalStatus, PendingStatus []string
	// ObservedAt censors the pending rows without a settled_at; zero
	// means the latest created_at, settled_at or SignalCol timestamp of
	// the rows kept, as the reader takes it.
	ObservedAt time.Time
	// Holdout and Seed are the split, as for NewSketch.
	Holdout float64
	Seed    uint64
	// By is a column to group by ("" for none): the query then groups
	// by its value too, cast to text and trimmed of spaces and tabs (null
	// as ""), and returns it as the column segment, with the column's
	// name in segment_by (its parts without their quotes): a segmented
	// sketch, as pollfit sketch --by makes.
	By string
	// AskedCol, when given, says the table is a poller's log of one row
	// per ask, as logs.PollerOptions reads one: the ask time column, with
	// IDCol the item id column (default id), CreatedCol and StatusCol
	// (see SketchSQL). SettledCol, SignalCol, NoStatus, ObservedAt and By
	// do not apply to it and must be left unset.
	AskedCol, IDCol string
}

// SketchSQL returns one SELECT over a table of a log whose result,
// exported as CSV with a header, is the table's sketch, which ReadSketch
// reads: the same bins, split and censoring as pollfit's own sketch of
// the rows read with the default options (see the package doc).
//
// Rows the reader would reject (an unknown status word, a settled_at
// before the created_at, a final status without a settled_at, an age
// beyond MaxAge, a null created_at, an infinite timestamp) are left out
// of the bins and counted, by the reader's reason, in rows of kind
// dropped (see WriteSketch), which ReadSketch keeps in Sketch.Dropped.
//
// With AskedCol the table is a poller's log of one row per ask, grouped
// by id in the engine, and the result the sketch with an interval part
// that AddInterval makes of the items logs.EachPoller reads: two more
// columns, hi_bin and sum_hi_s, and rows of kind interval.
//
// Every name is an identifier or up to three dotted parts, each plain
// ([A-Za-z_][A-Za-z0-9_]*, written as given) or in double quotes or
// backticks (written in the dialect's quotes); Query is one SELECT. No
// name, word or query may hold a semicolon or a backslash, so the query
// is one statement in every engine and psql.
func SketchSQL(opt SQLOptions) (string, error) {
	d, err := lookupDialect(opt.Dialect)
	if err != nil {
		return "", err
	}
	if err := opterr.Holdout(opt.Holdout); err != nil {
		return "", fmt.Errorf("sql: %w", err)
	}
	q := &sqlQuery{d: d, opt: opt}
	if err := q.names(); err != nil {
		return "", err
	}
	from := q.from
	if d.inline { // the user's query stays out of the CTEs' rewriting
		q.from = fromMark
	}
	st, err := q.status()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if q.asked != "" {
		q.pollerQuery(&b, st)
	} else {
		q.head(&b)
		q.rows(&b, st)
		q.items(&b)
		for r, x := range []string{"st", "c_ms", "a_us", "0"} {
			q.round(&b, r+1, x)
		}
		q.binned(&b)
		q.final(&b)
	}
	out := b.String()
	if d.inline {
		out = strings.ReplaceAll(inlineCTEs(out), fromMark, from)
	}
	if i := strings.IndexAny(out, sqlUnsafe); i >= 0 {
		return "", fmt.Errorf("sql: internal error: the query holds %q at byte %d", out[i], i+1)
	}
	return out, nil
}

// fromMark stands for the relation the query reads while its CTEs are
// written in place (see inlineCTEs).
const fromMark = "pollfit_from_mark"

// SQLFrom is what the sketch query of opt reads its rows from, as its
// FROM clause writes it: the table's name, or the query in parentheses
// with an alias.
func SQLFrom(opt SQLOptions) (string, error) {
	d, err := lookupDialect(opt.Dialect)
	if err != nil {
		return "", err
	}
	q := &sqlQuery{d: d, opt: opt}
	if err := q.names(); err != nil {
		return "", err
	}
	return q.from, nil
}

// sqlQuery writes the parts of a sketch query.
type sqlQuery struct {
	d   sqlDialect
	opt SQLOptions
	// The names as the query writes them: from is the table or the
	// query in parentheses; signal and by are "" when not given, asked
	// and id but in a poller log's query.
	from, created, settled, statusCol, signal, by, asked, id string
}

// names checks the table or query and the column names, and writes
// them for the dialect.
func (q *sqlQuery) names() error {
	o := &q.opt
	table, query := strings.TrimSpace(o.Table), strings.TrimSpace(o.Query)
	settledDef, idDef := "settled_at", ""
	if o.IDCol != "" && o.AskedCol == "" {
		return fmt.Errorf("sql: %w", opterr.Optionf("IDCol", fmt.Sprintf("%q", o.IDCol), "an id column is for a poller log: give AskedCol too"))
	}
	if o.AskedCol != "" {
		if err := checkPollerOptions(o); err != nil {
			return err
		}
		settledDef, idDef = "", "id"
	}
	switch {
	case table == "" && query == "":
		return fmt.Errorf("sql: %w", opterr.Optionf("Table", nil, "no table: give Table NAME (or Query 'SELECT …')"))
	case table != "" && query != "":
		return fmt.Errorf("sql: %w", opterr.Optionf("Table", nil, "give Table or Query, not both"))
	case strings.HasPrefix(table, "("):
		return fmt.Errorf("sql: %w", opterr.Optionf("Table", fmt.Sprintf("%.40q…", table), "a subquery goes in Query (without the parentheses)"))
	case query != "":
		if err := checkQuery(query); err != nil {
			return err
		}
		q.from = "(\n" + query + "\n) AS pollfit_rows"
	}
	for _, c := range []struct {
		field, name, def string
		out              *string
	}{
		{"Table", table, "", &q.from}, {"CreatedCol", o.CreatedCol, "created_at", &q.created},
		{"SettledCol", o.SettledCol, settledDef, &q.settled}, {"StatusCol", o.StatusCol, "status", &q.statusCol},
		{"SignalCol", o.SignalCol, "", &q.signal}, {"By", o.By, "", &q.by},
		{"AskedCol", o.AskedCol, "", &q.asked}, {"IDCol", o.IDCol, idDef, &q.id},
	} {
		name := c.name
		if name == "" {
			name = c.def
		}
		if name == "" {
			continue
		}
		id, err := q.d.ident(c.field, name)
		if err != nil {
			return err
		}
		*c.out = id
	}
	return nil
}

// head writes the query's first lines: what it sketches, and how.
func (q *sqlQuery) head(b *strings.Builder) {
	what, by := q.from, ""
	if q.opt.Query != "" {
		what = "a query"
	}
	if q.by != "" {
		by = " by=" + byField(identName(q.opt.By))
	}
	fmt.Fprintf(b, "-- pollfit sketch v%d of %s: holdout=%s seed=%d%s (%s)\n", SketchVersion, what, num(q.opt.Holdout), q.opt.Seed, by, q.opt.Dialect)
	b.WriteString("-- Export the result as CSV with a header: pollfit reads it as a sketch.\n")
	b.WriteString("WITH\n")
}

// seg is ", seg" when the query is grouped, for the column lists.
func (q *sqlQuery) seg() string {
	if q.by == "" {
		return ""
	}
	return ", seg"
}

// status is the expression of a row's status code: 0 pending, 1
// settled, 2 failed (Status's values), −1 for no status, −2 for a word
// the reader does not know.
func (q *sqlQuery) status() (string, error) {
	if q.opt.NoStatus {
		return "-1", nil
	}
	col := q.statusCol
	words := NewStatusWords(q.opt.FinalStatus, q.opt.PendingStatus).ByStatus()
	var b strings.Builder
	fmt.Fprintf(&b, "CASE WHEN %s IS NULL OR %s = '' THEN -1", col, q.d.text(col))
	for _, s := range []Status{Settled, Failed, Pending} {
		list, err := sqlStrings(words[s])
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n      WHEN %s IN (%s) THEN %d", q.d.text(col), list, s)
	}
	b.WriteString("\n      ELSE -2 END")
	return b.String(), nil
}

// maxAgeUS is MaxAge in microseconds.
const maxAgeUS = int64(MaxAge / time.Microsecond)

// items writes the CTE items: each row's status code, age in
// microseconds, and the hash's fields: creation time in milliseconds
// and age mod P, and the seed mod P as the hash's start.
func (q *sqlQuery) items(b *strings.Builder) {
	d := q.d
	p := fmt.Sprint(hashP)
	cms := d.mod(d.mod(fmt.Sprintf("CAST(FLOOR(c_us / 1000.0) AS %s)", d.bigint), p)+" + "+p, p)
	fmt.Fprintf(b, "items AS (\n  SELECT CASE WHEN s_us IS NULL THEN 0 WHEN st = -1 THEN 1 ELSE st END AS st,\n"+
		"    COALESCE(s_us, o_us) - c_us AS age_us,\n    %s AS c_ms,\n    %s AS a_us,\n    %s AS h%s\n"+
		"  FROM ok CROSS JOIN obs\n  WHERE s_us IS NOT NULL OR (o_us >= c_us AND o_us - c_us <= %d)\n),\n",
		cms, d.mod("COALESCE(s_us, o_us) - c_us", p), d.int64Lit(int64(q.opt.Seed%hashP)), q.seg(), maxAgeUS)
}

// sqlCols are the columns the hash's rounds carry along.
const sqlCols = "st, age_us, c_ms, a_us"

// round writes hash round r, mixing x into h, as two CTEs: yr the field
// step, hr the squaring step (see hashRound).
func (q *sqlQuery) round(b *strings.Builder, r int, x string) {
	q.roundOf(b, r, x, sqlCols+q.seg())
}

// roundOf is round carrying the columns cols along.
func (q *sqlQuery) roundOf(b *strings.Builder, r int, x, cols string) {
	d, p := q.d, fmt.Sprint(hashP)
	prev := fmt.Sprintf("h%d", r-1)
	if r == 1 {
		prev = "items"
	}
	fmt.Fprintf(b, "y%d AS (\n  SELECT %s, %s AS y FROM %s\n),\n", r, cols, d.mod(fmt.Sprintf("h * %d + %s", hashM, x), p), prev)
	fmt.Fprintf(b, "h%d AS (\n  SELECT %s, %s AS h FROM y%d\n),\n", r, cols, d.mod(fmt.Sprintf("%s * %d + y", d.mod("y * y", p), hashK), p), r)
}

// sqlThreshold is the hold-out threshold T, 0 when nothing is held out.
func sqlThreshold(share float64) uint64 {
	if share <= 0 {
		return 0
	}
	return holdThreshold(share)
}
