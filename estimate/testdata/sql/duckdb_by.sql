-- pollfit sketch v2 of payments: holdout=0.3 seed=1 by=method (duckdb)
-- Export the result as CSV with a header; pollfit reads it as a sketch.
WITH
src AS (
  SELECT epoch_us(created_at) AS c_us,
    epoch_us(settled_at) AS s_us,
    CASE WHEN status IS NULL OR LOWER(TRIM(status)) = '' THEN -1
      WHEN LOWER(TRIM(status)) IN ('approved', 'captured', 'complete', 'completed', 'confirmed', 'done', 'final', 'finished', 'ok', 'paid', 'settled', 'succeed', 'succeeded', 'success', 'successful') THEN 1
      WHEN LOWER(TRIM(status)) IN ('aborted', 'canceled', 'cancelled', 'declined', 'error', 'errored', 'expired', 'fail', 'failed', 'failure', 'refused', 'rejected', 'timed out', 'timed_out', 'timedout', 'timeout', 'voided') THEN 2
      WHEN LOWER(TRIM(status)) IN ('authorized', 'created', 'in progress', 'in-progress', 'in_progress', 'initiated', 'new', 'open', 'pending', 'processing', 'queued', 'requires_action', 'running', 'started', 'submitted', 'waiting') THEN 0
      ELSE -2 END AS st,
    COALESCE(TRIM(CAST(method AS VARCHAR)), '') AS seg
  FROM payments
),
ok AS (
  SELECT c_us, s_us, st, seg FROM src
  WHERE c_us IS NOT NULL AND st <> -2
    AND ((s_us IS NULL AND st IN (-1, 0)) OR (s_us >= c_us AND s_us - c_us <= 3153600000000000))
),
obs AS (
  SELECT MAX(GREATEST(c_us, COALESCE(s_us, c_us))) AS o_us FROM ok
),
items AS (
  SELECT CASE WHEN s_us IS NULL THEN 0 WHEN st = -1 THEN 1 ELSE st END AS st,
    COALESCE(s_us, o_us) - c_us AS age_us,
    ((((CAST(FLOOR(c_us / 1000.0) AS BIGINT)) % 2147483647) + 2147483647) % 2147483647) AS c_ms,
    ((COALESCE(s_us, o_us) - c_us) % 2147483647) AS a_us,
    CAST(1 AS BIGINT) AS h, seg
  FROM ok CROSS JOIN obs
  WHERE s_us IS NOT NULL OR (o_us >= c_us AND o_us - c_us <= 3153600000000000)
),
y1 AS (
  SELECT st, age_us, c_ms, a_us, seg, ((h * 1103515245 + st) % 2147483647) AS y FROM items
),
h1 AS (
  SELECT st, age_us, c_ms, a_us, seg, ((((y * y) % 2147483647) * 48271 + y) % 2147483647) AS h FROM y1
),
y2 AS (
  SELECT st, age_us, c_ms, a_us, seg, ((h * 1103515245 + c_ms) % 2147483647) AS y FROM h1
),
h2 AS (
  SELECT st, age_us, c_ms, a_us, seg, ((((y * y) % 2147483647) * 48271 + y) % 2147483647) AS h FROM y2
),
y3 AS (
  SELECT st, age_us, c_ms, a_us, seg, ((h * 1103515245 + a_us) % 2147483647) AS y FROM h2
),
h3 AS (
  SELECT st, age_us, c_ms, a_us, seg, ((((y * y) % 2147483647) * 48271 + y) % 2147483647) AS h FROM y3
),
y4 AS (
  SELECT st, age_us, c_ms, a_us, seg, ((h * 1103515245 + 0) % 2147483647) AS y FROM h3
),
h4 AS (
  SELECT st, age_us, c_ms, a_us, seg, ((((y * y) % 2147483647) * 48271 + y) % 2147483647) AS h FROM y4
),
binned AS (
  SELECT CASE WHEN h < 644245095 THEN 'heldout' ELSE 'fit' END AS part,
    CASE st WHEN 1 THEN 'settled' WHEN 2 THEN 'failed' ELSE 'pending' END AS kind,
    CASE WHEN age_us < 1000 THEN 0 WHEN age_us >= 10000000000000000 THEN 130001
      ELSE LEAST(GREATEST(CAST(FLOOR(LOG10(CAST(age_us AS DOUBLE) / 1000.0) * 10000 + 1e-09) AS BIGINT) + 1, 1), 130000) END AS bin,
    age_us, seg
  FROM h4
)
SELECT seg AS segment, part, kind, bin,
  CAST(MIN(age_us) AS DOUBLE) / 1000000.0 AS age_s,
  COUNT(*) AS weight,
  SUM(CAST(age_us AS DOUBLE) / 1000000.0) AS sum_s,
  CASE WHEN MIN(age_us) <> MAX(age_us) THEN 1 ELSE 0 END AS mixed,
  0.3 AS holdout,
  1 AS seed,
  'method' AS segment_by
FROM binned
GROUP BY seg, part, kind, bin
ORDER BY seg, part, kind, bin
