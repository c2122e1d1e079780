package estimate

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// SQLOptions say what SketchSQL queries. Names go into the query as
// given: quote them as the engine needs.
type SQLOptions struct {
	// Dialect is one of SQLDialects: duckdb, postgres, bigquery, spark,
	// clickhouse or snowflake.
	Dialect string
	// Table is the table (or a parenthesised subquery) to sketch.
	Table string
	// CreatedCol and SettledCol are timestamp columns (default
	// created_at and settled_at); a null settled_at is pending.
	CreatedCol, SettledCol string
	// StatusCol is the status column (default status); NoStatus says the
	// table has none.
	StatusCol string
	NoStatus  bool
	// FinalStatus and PendingStatus are status words added to the
	// defaults, as in logs.Options.
	FinalStatus, PendingStatus []string
	// ObservedAt censors the pending rows without a settled_at; zero
	// means the latest created_at or settled_at of the rows kept. (The
	// reader counts a signal_at column's timestamps too: give ObservedAt
	// when the table has one, to censor alike.)
	ObservedAt time.Time
	// Holdout and Seed are the split, as for NewSketch.
	Holdout float64
	Seed    uint64
	// By is a column to segment by ("" for none): the query then groups
	// by its value too, cast to text and trimmed (null as ""), and
	// returns it as the column segment, with the column's name in
	// segment_by (the name as given, without one level of enclosing
	// double quotes or backticks): a segmented sketch, as pollfit sketch
	// --by makes.
	By string
}

// SketchSQL returns one SELECT over a table of a log whose result,
// exported as CSV with a header, is the table's sketch, which ReadSketch
// reads: the same bins, split and censoring as pollfit's own sketch of
// the rows read with the default options (see the package doc). Rows the
// reader would reject (an unknown status word, a settled_at before the
// created_at, a final status without a settled_at, an age beyond
// MaxAge, a null created_at) are left out, as --skip-bad skips them.
func SketchSQL(opt SQLOptions) (string, error) {
	d, err := lookupDialect(opt.Dialect)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(opt.Table) == "" {
		return "", errors.New("sql: no table")
	}
	if _, err := NewSketch(opt.Holdout, opt.Seed); err != nil {
		return "", fmt.Errorf("sql: %v", err)
	}
	q := &sqlQuery{d: d, opt: opt}
	for _, c := range []struct {
		col *string
		def string
	}{
		{&q.opt.CreatedCol, "created_at"}, {&q.opt.SettledCol, "settled_at"}, {&q.opt.StatusCol, "status"},
	} {
		if *c.col == "" {
			*c.col = c.def
		}
	}
	st, err := q.status()
	if err != nil {
		return "", err
	}
	by := ""
	if opt.By != "" {
		if by, err = sqlByName(opt.By); err != nil {
			return "", err
		}
		by = " by=" + byField(by)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "-- pollfit sketch v%d of %s: holdout=%s seed=%d%s (%s)\n", SketchVersion, strings.Join(strings.Fields(opt.Table), " "), num(opt.Holdout), opt.Seed, by, opt.Dialect)
	b.WriteString("-- Export the result as CSV with a header; pollfit reads it as a sketch.\n")
	b.WriteString("WITH\n")
	q.rows(&b, st)
	q.items(&b)
	for r, x := range []string{"st", "c_ms", "a_us", "0"} {
		q.round(&b, r+1, x)
	}
	q.binned(&b)
	q.final(&b)
	return b.String(), nil
}

// sqlQuery writes the parts of a sketch query.
type sqlQuery struct {
	d   sqlDialect
	opt SQLOptions
}

// sqlByName is the segment column's name as segment_by records it.
func sqlByName(col string) (string, error) {
	name := col
	if n := len(name); n >= 2 && (name[0] == '"' && name[n-1] == '"' || name[0] == '`' && name[n-1] == '`') {
		name = name[1 : n-1]
	}
	if strings.ContainsAny(name, `'\`) || strings.TrimSpace(name) == "" {
		return "", fmt.Errorf("sql: --by %q: want a column name without quotes or backslashes", col)
	}
	return name, nil
}

// seg is ", seg" when the query is segmented, for the column lists.
func (q *sqlQuery) seg() string {
	if q.opt.By == "" {
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
	col := q.opt.StatusCol
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

// rows writes the CTEs src (a row's times in microseconds and its status
// code), ok (the rows the reader accepts, but for the observed-at time)
// and obs (the observed-at time).
func (q *sqlQuery) rows(b *strings.Builder, status string) {
	d, o := q.d, q.opt
	seg := ""
	if o.By != "" {
		seg = ",\n    " + d.segText(o.By) + " AS seg"
	}
	fmt.Fprintf(b, "src AS (\n  SELECT %s AS c_us,\n    %s AS s_us,\n    %s AS st%s\n  FROM %s\n),\n",
		d.epochUS(o.CreatedCol), d.epochUS(o.SettledCol), status, seg, o.Table)
	fmt.Fprintf(b, "ok AS (\n  SELECT c_us, s_us, st%s FROM src\n  WHERE c_us IS NOT NULL AND st <> -2\n"+
		"    AND ((s_us IS NULL AND st IN (-1, 0)) OR (s_us >= c_us AND s_us - c_us <= %d))\n),\n", q.seg(), maxAgeUS)
	obs := "MAX(GREATEST(c_us, COALESCE(s_us, c_us))) AS o_us FROM ok"
	if !o.ObservedAt.IsZero() {
		obs = fmt.Sprintf("%s AS o_us", d.int64Lit(o.ObservedAt.UnixMicro()))
	}
	fmt.Fprintf(b, "obs AS (\n  SELECT %s\n),\n", obs)
}

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
	d, p := q.d, fmt.Sprint(hashP)
	prev := fmt.Sprintf("h%d", r-1)
	if r == 1 {
		prev = "items"
	}
	cols := sqlCols + q.seg()
	fmt.Fprintf(b, "y%d AS (\n  SELECT %s, %s AS y FROM %s\n),\n", r, cols, d.mod(fmt.Sprintf("h * %d + %s", hashM, x), p), prev)
	fmt.Fprintf(b, "h%d AS (\n  SELECT %s, %s AS h FROM y%d\n),\n", r, cols, d.mod(fmt.Sprintf("%s * %d + y", d.mod("y * y", p), hashK), p), r)
}

// binned writes the CTE binned: each row's part, kind, bin and age.
func (q *sqlQuery) binned(b *strings.Builder) {
	d := q.d
	lg := fmt.Sprintf("CAST(FLOOR(%s * %d + %g) AS %s) + 1", d.log10(fmt.Sprintf("CAST(age_us AS %s) / 1000.0", d.double)), sketchPerDecade, sketchNudge, d.bigint)
	fmt.Fprintf(b, "binned AS (\n  SELECT CASE WHEN h < %d THEN 'heldout' ELSE 'fit' END AS part,\n"+
		"    CASE st WHEN 1 THEN 'settled' WHEN 2 THEN 'failed' ELSE 'pending' END AS kind,\n"+
		"    CASE WHEN age_us < 1000 THEN 0 WHEN age_us >= %d THEN %d\n      ELSE LEAST(GREATEST(%s, 1), %d) END AS bin,\n"+
		"    age_us%s\n  FROM h4\n)\n",
		sqlThreshold(q.opt.Holdout), int64(sketchMax*1e6), nSketchBins-1, lg, sketchBins, q.seg())
}

// sqlThreshold is the hold-out threshold T, 0 when nothing is held out.
func sqlThreshold(share float64) uint64 {
	if share <= 0 {
		return 0
	}
	return holdThreshold(share)
}

// final writes the SELECT of the bins.
func (q *sqlQuery) final(b *strings.Builder) {
	d := q.d
	first, last, group := "", "", "part, kind, bin"
	if q.opt.By != "" {
		name, _ := sqlByName(q.opt.By) // checked by SketchSQL
		first, last, group = "seg AS segment, ", fmt.Sprintf(",\n  '%s' AS segment_by", name), "seg, "+group
	}
	fmt.Fprintf(b, "SELECT %spart, kind, bin,\n  CAST(MIN(age_us) AS %s) / 1000000.0 AS age_s,\n  COUNT(*) AS weight,\n"+
		"  SUM(CAST(age_us AS %s) / 1000000.0) AS sum_s,\n  CASE WHEN MIN(age_us) <> MAX(age_us) THEN 1 ELSE 0 END AS mixed,\n"+
		"  %s AS holdout,\n  %d AS seed%s\nFROM binned\nGROUP BY %s\nORDER BY %s\n",
		first, d.double, d.double, num(q.opt.Holdout), q.opt.Seed, last, group, group)
}
