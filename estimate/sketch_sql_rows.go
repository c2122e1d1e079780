package estimate

import (
	"fmt"
	"strings"
)

// DroppedKind is the kind of a SQL sketch's rows that count the rows
// the query left out: the reason is in the row's part column and the
// count in its weight (see WriteSketch).
const DroppedKind = "dropped"

// sqlReasons are the reasons a sketch query leaves a row out, by code,
// in the words of the log readers' Stats.Skipped (package logs).
var sqlReasons = []string{
	1: "bad timestamp",
	2: "unknown status",
	3: "missing value",
	4: "settled before created",
	5: "age beyond 100 years",
	6: "signal before created",
	7: "created after observed-at",
}

// rows writes the CTEs src (a row's times in microseconds, its status
// code and bad_time, whether a timestamp is infinite or unreadable: not
// "inf", which ClickHouse reads as the number), checked (why the reader
// would reject the row, 0 when it would not), ok (the rows it accepts,
// but for the observed-at time), obs (the observed-at time), late (the
// pending rows that time rejects) and dropped (the count of each reason).
func (q *sqlQuery) rows(b *strings.Builder, status string) {
	d, sig, seg := q.d, "", ""
	cols := []string{q.created, q.settled}
	if q.signal != "" {
		sig = ", g_us"
		cols = append(cols, q.signal)
		seg = ",\n    " + d.epochUS(q.signal) + " AS g_us"
	}
	if q.by != "" {
		seg += ",\n    " + d.segText(q.by) + " AS seg"
	}
	fmt.Fprintf(b, "src AS (\n  SELECT %s AS c_us,\n    %s AS s_us,\n    %s AS st,\n    %s AS bad_time%s\n  FROM %s\n),\n",
		d.epochUS(q.created), d.epochUS(q.settled), status, d.infinite(cols), seg, q.from)
	fmt.Fprintf(b, "checked AS (\n  SELECT c_us, s_us, st%s%s,\n    CASE WHEN bad_time = 1 THEN 1 WHEN st = -2 THEN 2\n"+
		"      WHEN c_us IS NULL OR (s_us IS NULL AND st IN (1, 2)) THEN 3\n"+
		"      WHEN s_us < c_us THEN 4 WHEN s_us - c_us > %d THEN 5%s\n      ELSE 0 END AS bad\n  FROM src\n),\n",
		sig, q.seg(), maxAgeUS, q.signalChecks())
	fmt.Fprintf(b, "ok AS (\n  SELECT c_us, s_us, st%s%s FROM checked WHERE bad = 0\n),\n", sig, q.seg())
	fmt.Fprintf(b, "obs AS (\n  SELECT %s\n),\n", q.observed())
	fmt.Fprintf(b, "late AS (\n  SELECT CASE WHEN o_us < c_us THEN 7 ELSE 5 END AS bad\n  FROM ok CROSS JOIN obs\n"+
		"  WHERE s_us IS NULL AND NOT (o_us >= c_us AND o_us - c_us <= %d)\n),\n", maxAgeUS)
	var why strings.Builder
	for code, r := range sqlReasons[1:] {
		fmt.Fprintf(&why, " WHEN bad = %d THEN '%s'", code+1, r)
	}
	fmt.Fprintf(b, "dropped AS (\n  SELECT CASE%s END AS reason, COUNT(*) AS n\n"+
		"  FROM (SELECT bad FROM checked WHERE bad <> 0 UNION ALL SELECT bad FROM late) AS d\n  GROUP BY bad\n),\n", why.String())
}

// signalChecks are checked's cases for the signal column.
func (q *sqlQuery) signalChecks() string {
	if q.signal == "" {
		return ""
	}
	return fmt.Sprintf("\n      WHEN g_us < c_us THEN 6 WHEN g_us - c_us > %d THEN 5", maxAgeUS)
}

// observed is the observed-at time: the option's, or the latest
// timestamp of the rows kept, as the reader takes it.
func (q *sqlQuery) observed() string {
	if !q.opt.ObservedAt.IsZero() {
		return q.d.int64Lit(q.opt.ObservedAt.UnixMicro()) + " AS o_us"
	}
	latest := q.d.max("c_us", "COALESCE(s_us, c_us)")
	if q.signal != "" {
		latest = q.d.max("c_us", "COALESCE(s_us, c_us)", "COALESCE(g_us, c_us)")
	}
	return "MAX(" + latest + ") AS o_us FROM ok"
}

// binned writes the CTE binned: each row's part, kind, bin and age.
func (q *sqlQuery) binned(b *strings.Builder) {
	fmt.Fprintf(b, "binned AS (\n  SELECT CASE WHEN h < %d THEN 'heldout' ELSE 'fit' END AS part,\n"+
		"    CASE st WHEN 1 THEN 'settled' WHEN 2 THEN 'failed' ELSE 'pending' END AS kind,\n"+
		"    %s AS bin,\n    age_us%s\n  FROM h4\n),\n",
		sqlThreshold(q.opt.Holdout), q.bin("age_us"), q.seg())
}

// bin is the sketch bin of an age in whole microseconds (see sketchBin).
func (q *sqlQuery) bin(ageUS string) string {
	d := q.d
	lg := fmt.Sprintf("CAST(FLOOR(%s * %d + %g) AS %s) + 1", d.log10(fmt.Sprintf("CAST(%s AS %s) / 1000.0", ageUS, d.double)), sketchPerDecade, sketchNudge, d.bigint)
	return fmt.Sprintf("CASE WHEN %s < 1000 THEN 0 WHEN %s >= %d THEN %d\n      ELSE %s END",
		ageUS, ageUS, int64(sketchMax*1e6), nSketchBins-1, d.min(d.max(lg, "1"), fmt.Sprint(sketchBins)))
}

// final writes the CTE bins, the bins with the dropped rows' counts
// after them, and the SELECT of its rows with the split.
func (q *sqlQuery) final(b *strings.Builder) {
	d := q.d
	first, none, last, group := "", "", "", "part, kind, bin"
	if q.by != "" {
		first, none, group = "seg AS segment, ", "'' AS segment, ", "seg, "+group
		last = fmt.Sprintf(",\n  '%s' AS segment_by", identName(q.opt.By))
	}
	fmt.Fprintf(b, "bins AS (\n  SELECT %spart, kind, CAST(bin AS %s) AS bin,\n  CAST(MIN(age_us) AS %s) / 1000000.0 AS age_s,\n  COUNT(*) AS weight,\n"+
		"  SUM(CAST(age_us AS %s) / 1000000.0) AS sum_s,\n  CASE WHEN MIN(age_us) <> MAX(age_us) THEN 1 ELSE 0 END AS mixed\n"+
		"  FROM binned\n  GROUP BY %s\n  UNION ALL\n"+
		"  SELECT %sreason AS part, '%s' AS kind, CAST(0 AS %s) AS bin, CAST(0 AS %s) AS age_s, n AS weight, CAST(0 AS %s) AS sum_s, 0 AS mixed\n"+
		"  FROM dropped\n)\n",
		first, d.bigint, d.double, d.double, group, none, DroppedKind, d.bigint, d.double, d.double)
	cols := strings.Replace(group, "seg, ", "segment, ", 1)
	fmt.Fprintf(b, "SELECT %s, age_s, weight, sum_s, mixed,\n  %s AS holdout,\n  %d AS seed%s\nFROM bins\nORDER BY %s\n",
		cols, num(q.opt.Holdout), q.opt.Seed, last, cols)
}
