-- pollfit sketch v2 of payments: holdout=0.3 seed=1 by=method (postgres)
-- Export the result as CSV with a header: pollfit reads it as a sketch.
WITH
src AS (
  SELECT CASE WHEN isfinite(created_at) THEN CAST(EXTRACT(EPOCH FROM created_at) * 1000000 AS BIGINT) END AS c_us,
    CASE WHEN isfinite(settled_at) THEN CAST(EXTRACT(EPOCH FROM settled_at) * 1000000 AS BIGINT) END AS s_us,
    CASE WHEN status IS NULL OR LOWER(BTRIM(status, ' ' || CHR(9))) = '' THEN -1
      WHEN LOWER(BTRIM(status, ' ' || CHR(9))) IN ('approved', 'captured', 'complete', 'completed', 'confirmed', 'done', 'final', 'finished', 'ok', 'paid', 'settled', 'succeed', 'succeeded', 'success', 'successful') THEN 1
      WHEN LOWER(BTRIM(status, ' ' || CHR(9))) IN ('aborted', 'canceled', 'cancelled', 'declined', 'error', 'errored', 'expired', 'fail', 'failed', 'failure', 'refused', 'rejected', 'timed out', 'timed_out', 'timedout', 'timeout', 'voided') THEN 2
      WHEN LOWER(BTRIM(status, ' ' || CHR(9))) IN ('authorized', 'created', 'in progress', 'in-progress', 'in_progress', 'initiated', 'new', 'open', 'pending', 'processing', 'queued', 'requires_action', 'running', 'started', 'submitted', 'waiting') THEN 0
      ELSE -2 END AS st,
    CASE WHEN NOT isfinite(created_at) OR NOT isfinite(settled_at) THEN 1 ELSE 0 END AS bad_time,
    COALESCE(BTRIM(CAST(method AS TEXT), ' ' || CHR(9)), '') AS seg
  FROM payments
),
checked AS (
  SELECT c_us, s_us, st, seg,
    CASE WHEN bad_time = 1 THEN 1 WHEN st = -2 THEN 2
      WHEN c_us IS NULL OR (s_us IS NULL AND st IN (1, 2)) THEN 3
      WHEN s_us < c_us THEN 4 WHEN s_us - c_us > 3153600000000000 THEN 5
      ELSE 0 END AS bad
  FROM src
),
ok AS (
  SELECT c_us, s_us, st, seg FROM checked WHERE bad = 0
),
obs AS (
  SELECT MAX(GREATEST(c_us, COALESCE(s_us, c_us))) AS o_us FROM ok
),
late AS (
  SELECT CASE WHEN o_us < c_us THEN 7 ELSE 5 END AS bad
  FROM ok CROSS JOIN obs
  WHERE s_us IS NULL AND NOT (o_us >= c_us AND o_us - c_us <= 3153600000000000)
),
dropped AS (
  SELECT CASE WHEN bad = 1 THEN 'bad timestamp' WHEN bad = 2 THEN 'unknown status' WHEN bad = 3 THEN 'missing value' WHEN bad = 4 THEN 'settled before created' WHEN bad = 5 THEN 'age beyond 100 years' WHEN bad = 6 THEN 'signal before created' WHEN bad = 7 THEN 'created after observed-at' END AS reason, COUNT(*) AS n
  FROM (SELECT bad FROM checked WHERE bad <> 0 UNION ALL SELECT bad FROM late) AS d
  GROUP BY bad
),
items AS (
  SELECT CASE WHEN s_us IS NULL THEN 0 WHEN st = -1 THEN 1 ELSE st END AS st,
    COALESCE(s_us, o_us) - c_us AS age_us,
    MOD(MOD(CAST(FLOOR(c_us / 1000.0) AS BIGINT), 2147483647) + 2147483647, 2147483647) AS c_ms,
    MOD(COALESCE(s_us, o_us) - c_us, 2147483647) AS a_us,
    CAST(1 AS BIGINT) AS h, seg
  FROM ok CROSS JOIN obs
  WHERE s_us IS NOT NULL OR (o_us >= c_us AND o_us - c_us <= 3153600000000000)
),
y1 AS (
  SELECT st, age_us, c_ms, a_us, seg, MOD(h * 1103515245 + st, 2147483647) AS y FROM items
),
h1 AS (
  SELECT st, age_us, c_ms, a_us, seg, MOD(MOD(y * y, 2147483647) * 48271 + y, 2147483647) AS h FROM y1
),
y2 AS (
  SELECT st, age_us, c_ms, a_us, seg, MOD(h * 1103515245 + c_ms, 2147483647) AS y FROM h1
),
h2 AS (
  SELECT st, age_us, c_ms, a_us, seg, MOD(MOD(y * y, 2147483647) * 48271 + y, 2147483647) AS h FROM y2
),
y3 AS (
  SELECT st, age_us, c_ms, a_us, seg, MOD(h * 1103515245 + a_us, 2147483647) AS y FROM h2
),
h3 AS (
  SELECT st, age_us, c_ms, a_us, seg, MOD(MOD(y * y, 2147483647) * 48271 + y, 2147483647) AS h FROM y3
),
y4 AS (
  SELECT st, age_us, c_ms, a_us, seg, MOD(h * 1103515245 + 0, 2147483647) AS y FROM h3
),
h4 AS (
  SELECT st, age_us, c_ms, a_us, seg, MOD(MOD(y * y, 2147483647) * 48271 + y, 2147483647) AS h FROM y4
),
binned AS (
  SELECT CASE WHEN h < 644245095 THEN 'heldout' ELSE 'fit' END AS part,
    CASE st WHEN 1 THEN 'settled' WHEN 2 THEN 'failed' ELSE 'pending' END AS kind,
    CASE WHEN age_us < 1000 THEN 0 WHEN age_us >= 10000000000000000 THEN 130001
      ELSE LEAST(GREATEST(CAST(FLOOR(LOG10(CAST(age_us AS DOUBLE PRECISION) / 1000.0) * 10000 + 1e-09) AS BIGINT) + 1, 1), 130000) END AS bin,
    age_us, seg
  FROM h4
),
bins AS (
  SELECT seg AS segment, part, kind, CAST(bin AS BIGINT) AS bin,
  CAST(MIN(age_us) AS DOUBLE PRECISION) / 1000000.0 AS age_s,
  COUNT(*) AS weight,
  SUM(CAST(age_us AS DOUBLE PRECISION) / 1000000.0) AS sum_s,
  CASE WHEN MIN(age_us) <> MAX(age_us) THEN 1 ELSE 0 END AS mixed
  FROM binned
  GROUP BY seg, part, kind, bin
  UNION ALL
  SELECT '' AS segment, reason AS part, 'dropped' AS kind, CAST(0 AS BIGINT) AS bin, CAST(0 AS DOUBLE PRECISION) AS age_s, n AS weight, CAST(0 AS DOUBLE PRECISION) AS sum_s, 0 AS mixed
  FROM dropped
)
SELECT segment, part, kind, bin, age_s, weight, sum_s, mixed,
  0.3 AS holdout,
  1 AS seed,
  'method' AS segment_by
FROM bins
ORDER BY segment, part, kind, bin
