package estimate

import (
	"fmt"
	"strings"

	"github.com/pollfit/pollfit/internal/opterr"
)

// The sketch query of a poller's log of one row per ask (SQLOptions.
// AskedCol): the engine checks each row as logs.EachPoller does, groups
// the rows it keeps by id, and makes each item what AddInterval makes of
// its interval (L, R]: L the age of its last pending ask (0 when its
// first ask saw it final), R the age of its first final ask; an item
// never seen final is pending at its last ask, and one whose L equals R
// settled at that age. The result has the columns of sqlPollerHeader:
// the bins' rows, as the log query's, with hi_bin and sum_hi_s 0, and
// the interval part's rows of kind interval, one a pair of bins (bin and
// hi_bin) with sum_s and sum_hi_s the sums of the ends.
//
// An item whose rows give two creation times has all its rows dropped,
// counted as "two creation times" (logs.EachPoller stops there, or with
// SkipBad keeps the rows agreeing with the first it read, an order a
// table does not have); one seen pending after an ask saw it final is
// counted as "pending after final", which ReadSketch refuses as the
// reader does.

// The reasons a poller log's query drops an item's rows (see sqlReasons).
const (
	reasonTwoCreated   = 8
	reasonPendingFinal = 9
)

// pollerReasons are the reasons a poller log's query drops the rows of
// an item, by code.
var pollerReasons = map[int]string{
	reasonTwoCreated:   "two creation times",
	reasonPendingFinal: "pending after final",
}

// IntervalKind is the kind of a SQL sketch's interval rows.
const IntervalKind = "interval"

// checkPollerOptions refuses the options a poller log's query does not
// take.
func checkPollerOptions(o *SQLOptions) error {
	for _, c := range []struct {
		field string
		value any
		set   bool
	}{
		{"SettledCol", fmt.Sprintf("%q", o.SettledCol), o.SettledCol != ""}, {"SignalCol", fmt.Sprintf("%q", o.SignalCol), o.SignalCol != ""},
		{"NoStatus", o.NoStatus, o.NoStatus}, {"ObservedAt", o.ObservedAt, !o.ObservedAt.IsZero()}, {"By", fmt.Sprintf("%q", o.By), o.By != ""},
	} {
		if c.set {
			return fmt.Errorf("sql: %w", opterr.Optionf(c.field, c.value, "a poller log (AskedCol given) takes none: its items are pending at their last ask, unsegmented, and need a status"))
		}
	}
	return nil
}

// pollerQuery writes the whole query of a poller log.
func (q *sqlQuery) pollerQuery(b *strings.Builder, status string) {
	fmt.Fprintf(b, "-- pollfit sketch v%d of %s, a poller log of one row per ask: holdout=%s seed=%d (%s)\n",
		SketchIntervalVersion, q.whatName(), num(q.opt.Holdout), q.opt.Seed, q.opt.Dialect)
	b.WriteString("-- Export the result as CSV with a header: pollfit reads it as a sketch.\nWITH\n")
	q.askRows(b, status)
	q.askItems(b)
	for r, x := range []string{"3", "c_ms", "l_mod", "r_mod", "0"} {
		q.roundOf(b, r+1, x, "st, lo_us, hi_us, c_ms, l_mod, r_mod")
	}
	q.askBinned(b)
	q.askFinal(b)
}

// whatName is what the query sketches, for its first line.
func (q *sqlQuery) whatName() string {
	if q.opt.Query != "" {
		return "a query"
	}
	return q.from
}

// askRows writes the CTEs src, checked (why logs.EachPoller would refuse
// the row, in its order of checks: created_at, id, asked_at, their
// order and distance, status), ok, grouped (each item's creation times,
// last pending ask, first final ask, last ask and rows) and dropped.
func (q *sqlQuery) askRows(b *strings.Builder, status string) {
	d := q.d
	fmt.Fprintf(b, "src AS (\n  SELECT %s AS id,\n    %s AS c_us,\n    %s AS a_us,\n    %s AS st,\n"+
		"    %s AS c_bad,\n    %s AS a_bad\n  FROM %s\n),\n",
		d.segText(q.id), d.epochUS(q.created), d.epochUS(q.asked), status, d.infinite([]string{q.created}), d.infinite([]string{q.asked}), q.from)
	fmt.Fprintf(b, "checked AS (\n  SELECT id, c_us, a_us, st,\n    CASE WHEN c_bad = 1 THEN 1 WHEN c_us IS NULL OR id = '' THEN 3\n"+
		"      WHEN a_bad = 1 THEN 1 WHEN a_us IS NULL THEN 3\n      WHEN a_us < c_us THEN 4 WHEN a_us - c_us > %d THEN 5\n"+
		"      WHEN st < 0 THEN 2 ELSE 0 END AS bad\n  FROM src\n),\n", maxAgeUS)
	b.WriteString("ok AS (\n  SELECT id, c_us, a_us, st FROM checked WHERE bad = 0\n),\n")
	fmt.Fprintf(b, "grouped AS (\n  SELECT id, MIN(c_us) AS c0_us, MAX(c_us) AS c1_us,\n"+
		"    MAX(CASE WHEN st = 0 THEN a_us END) AS lp_us,\n    MIN(CASE WHEN st <> 0 THEN a_us END) AS ff_us,\n"+
		"    MAX(a_us) AS la_us, CAST(COUNT(*) AS %s) AS n\n  FROM ok\n  GROUP BY id\n),\n", d.bigint)
	var why strings.Builder
	for code, r := range sqlReasons[1:] {
		if code+1 != 6 && code+1 != 7 { // no signal, no observed-at
			fmt.Fprintf(&why, " WHEN bad = %d THEN '%s'", code+1, r)
		}
	}
	for _, code := range []int{reasonTwoCreated, reasonPendingFinal} {
		fmt.Fprintf(&why, " WHEN bad = %d THEN '%s'", code, pollerReasons[code])
	}
	fmt.Fprintf(b, "dropped AS (\n  SELECT CASE%s END AS reason, SUM(n) AS n\n"+
		"  FROM (SELECT bad, %s AS n FROM checked WHERE bad <> 0\n"+
		"    UNION ALL SELECT CASE WHEN c0_us <> c1_us THEN %d ELSE %d END AS bad, n FROM grouped\n"+
		"    WHERE c0_us <> c1_us OR lp_us > ff_us) AS d\n  GROUP BY bad\n),\n",
		why.String(), d.int64Lit(1), reasonTwoCreated, reasonPendingFinal)
}

// askItems writes the CTE items: each consistent item's kind (0
// pending, 1 settled at an exact age, 3 an interval), its ends in
// microseconds (a pending item's upper end as 0), and the hash's fields.
func (q *sqlQuery) askItems(b *strings.Builder) {
	d := q.d
	p := fmt.Sprint(hashP)
	cms := d.mod(d.mod(fmt.Sprintf("CAST(FLOOR(c_us / 1000.0) AS %s)", d.bigint), p)+" + "+p, p)
	fmt.Fprintf(b, "ends AS (\n  SELECT c0_us AS c_us, CASE WHEN ff_us IS NULL THEN la_us - c0_us WHEN lp_us IS NULL THEN 0 ELSE lp_us - c0_us END AS lo_us,\n"+
		"    CASE WHEN ff_us IS NULL THEN 0 ELSE ff_us - c0_us END AS hi_us, ff_us\n"+
		"  FROM grouped\n  WHERE c0_us = c1_us AND CASE WHEN lp_us > ff_us THEN 1 ELSE 0 END = 0\n),\n")
	fmt.Fprintf(b, "items AS (\n  SELECT CASE WHEN ff_us IS NULL THEN 0 WHEN lo_us = hi_us THEN 1 ELSE 3 END AS st,\n"+
		"    lo_us, hi_us,\n    %s AS c_ms,\n    %s AS l_mod,\n    %s AS r_mod,\n    %s AS h\n  FROM ends\n),\n",
		cms, d.mod("lo_us", p), d.mod("hi_us", p), d.int64Lit(int64(q.opt.Seed%hashP)))
}

// askBinned writes the CTE binned: each item's part, kind and the bins
// of its ends.
func (q *sqlQuery) askBinned(b *strings.Builder) {
	fmt.Fprintf(b, "binned AS (\n  SELECT CASE WHEN h < %d THEN 'heldout' ELSE 'fit' END AS part,\n"+
		"    CASE st WHEN 1 THEN 'settled' WHEN 0 THEN 'pending' ELSE '%s' END AS kind,\n"+
		"    %s AS bin,\n    CASE WHEN st = 3 THEN %s ELSE 0 END AS hi_bin,\n"+
		"    lo_us, CASE WHEN st = 3 THEN hi_us ELSE 0 END AS r_us\n  FROM h5\n),\n",
		sqlThreshold(q.opt.Holdout), IntervalKind, q.bin("lo_us"), q.bin("hi_us"))
}

// askFinal writes the CTE bins, the bins and the interval part with the
// dropped rows' counts after them, and the SELECT of its rows with the
// split.
func (q *sqlQuery) askFinal(b *strings.Builder) {
	d := q.d
	fmt.Fprintf(b, "bins AS (\n  SELECT part, kind, CAST(bin AS %[1]s) AS bin,\n"+
		"  CASE WHEN kind = '%[3]s' THEN CAST(0 AS %[2]s) ELSE CAST(MIN(lo_us) AS %[2]s) / 1000000.0 END AS age_s,\n  CAST(COUNT(*) AS %[1]s) AS weight,\n"+
		"  SUM(CAST(lo_us AS %[2]s) / 1000000.0) AS sum_s,\n"+
		"  CASE WHEN kind <> '%[3]s' AND MIN(lo_us) <> MAX(lo_us) THEN 1 ELSE 0 END AS mixed,\n"+
		"  CAST(hi_bin AS %[1]s) AS hi_bin,\n  SUM(CAST(r_us AS %[2]s) / 1000000.0) AS sum_hi_s\n"+
		"  FROM binned\n  GROUP BY part, kind, bin, hi_bin\n  UNION ALL\n"+
		"  SELECT reason AS part, '%[4]s' AS kind, CAST(0 AS %[1]s) AS bin, CAST(0 AS %[2]s) AS age_s, CAST(n AS %[1]s) AS weight, CAST(0 AS %[2]s) AS sum_s, 0 AS mixed,\n"+
		"  CAST(0 AS %[1]s) AS hi_bin, CAST(0 AS %[2]s) AS sum_hi_s\n  FROM dropped\n)\n",
		d.bigint, d.double, IntervalKind, DroppedKind)
	fmt.Fprintf(b, "SELECT part, kind, bin, age_s, weight, sum_s, mixed, hi_bin, sum_hi_s,\n  %s AS holdout,\n  %d AS seed\nFROM bins\nORDER BY part, kind, bin, hi_bin\n",
		num(q.opt.Holdout), q.opt.Seed)
}
