-- pollfit sketch v3 of asks, a poller log of one row per ask: holdout=0.3 seed=1 (spark)
-- Export the result as CSV with a header: pollfit reads it as a sketch.
WITH
src AS (
  SELECT COALESCE(trim(BOTH concat(' ', chr(9)) FROM CAST(id AS STRING)), '') AS id,
    unix_micros(created_at) AS c_us,
    unix_micros(asked_at) AS a_us,
    CASE WHEN status IS NULL OR LOWER(trim(BOTH concat(' ', chr(9)) FROM status)) = '' THEN -1
      WHEN LOWER(trim(BOTH concat(' ', chr(9)) FROM status)) IN ('approved', 'captured', 'complete', 'completed', 'confirmed', 'done', 'final', 'finished', 'ok', 'paid', 'settled', 'succeed', 'succeeded', 'success', 'successful') THEN 1
      WHEN LOWER(trim(BOTH concat(' ', chr(9)) FROM status)) IN ('aborted', 'canceled', 'cancelled', 'declined', 'error', 'errored', 'expired', 'fail', 'failed', 'failure', 'refused', 'rejected', 'timed out', 'timed_out', 'timedout', 'timeout', 'voided') THEN 2
      WHEN LOWER(trim(BOTH concat(' ', chr(9)) FROM status)) IN ('authorized', 'created', 'in progress', 'in-progress', 'in_progress', 'initiated', 'new', 'open', 'pending', 'processing', 'queued', 'requires_action', 'running', 'started', 'submitted', 'waiting') THEN 0
      ELSE -2 END AS st,
    0 AS c_bad,
    0 AS a_bad
  FROM asks
),
checked AS (
  SELECT id, c_us, a_us, st,
    CASE WHEN c_bad = 1 THEN 1 WHEN c_us IS NULL OR id = '' THEN 3
      WHEN a_bad = 1 THEN 1 WHEN a_us IS NULL THEN 3
      WHEN a_us < c_us THEN 4 WHEN a_us - c_us > 3153600000000000 THEN 5
      WHEN st < 0 THEN 2 ELSE 0 END AS bad
  FROM src
),
ok AS (
  SELECT id, c_us, a_us, st FROM checked WHERE bad = 0
),
grouped AS (
  SELECT id, MIN(c_us) AS c0_us, MAX(c_us) AS c1_us,
    MAX(CASE WHEN st = 0 THEN a_us END) AS lp_us,
    MIN(CASE WHEN st <> 0 THEN a_us END) AS ff_us,
    MAX(a_us) AS la_us, CAST(COUNT(*) AS BIGINT) AS n
  FROM ok
  GROUP BY id
),
dropped AS (
  SELECT CASE WHEN bad = 1 THEN 'bad timestamp' WHEN bad = 2 THEN 'unknown status' WHEN bad = 3 THEN 'missing value' WHEN bad = 4 THEN 'settled before created' WHEN bad = 5 THEN 'age beyond 100 years' WHEN bad = 8 THEN 'two creation times' WHEN bad = 9 THEN 'pending after final' END AS reason, SUM(n) AS n
  FROM (SELECT bad, CAST(1 AS BIGINT) AS n FROM checked WHERE bad <> 0
    UNION ALL SELECT CASE WHEN c0_us <> c1_us THEN 8 ELSE 9 END AS bad, n FROM grouped
    WHERE c0_us <> c1_us OR lp_us > ff_us) AS d
  GROUP BY bad
),
ends AS (
  SELECT c0_us AS c_us, CASE WHEN ff_us IS NULL THEN la_us - c0_us WHEN lp_us IS NULL THEN 0 ELSE lp_us - c0_us END AS lo_us,
    CASE WHEN ff_us IS NULL THEN 0 ELSE ff_us - c0_us END AS hi_us, ff_us
  FROM grouped
  WHERE c0_us = c1_us AND CASE WHEN lp_us > ff_us THEN 1 ELSE 0 END = 0
),
items AS (
  SELECT CASE WHEN ff_us IS NULL THEN 0 WHEN lo_us = hi_us THEN 1 ELSE 3 END AS st,
    lo_us, hi_us,
    MOD(MOD(CAST(FLOOR(c_us / 1000.0) AS BIGINT), 2147483647) + 2147483647, 2147483647) AS c_ms,
    MOD(lo_us, 2147483647) AS l_mod,
    MOD(hi_us, 2147483647) AS r_mod,
    CAST(1 AS BIGINT) AS h
  FROM ends
),
y1 AS (
  SELECT st, lo_us, hi_us, c_ms, l_mod, r_mod, MOD(h * 1103515245 + 3, 2147483647) AS y FROM items
),
h1 AS (
  SELECT st, lo_us, hi_us, c_ms, l_mod, r_mod, MOD(MOD(y * y, 2147483647) * 48271 + y, 2147483647) AS h FROM y1
),
y2 AS (
  SELECT st, lo_us, hi_us, c_ms, l_mod, r_mod, MOD(h * 1103515245 + c_ms, 2147483647) AS y FROM h1
),
h2 AS (
  SELECT st, lo_us, hi_us, c_ms, l_mod, r_mod, MOD(MOD(y * y, 2147483647) * 48271 + y, 2147483647) AS h FROM y2
),
y3 AS (
  SELECT st, lo_us, hi_us, c_ms, l_mod, r_mod, MOD(h * 1103515245 + l_mod, 2147483647) AS y FROM h2
),
h3 AS (
  SELECT st, lo_us, hi_us, c_ms, l_mod, r_mod, MOD(MOD(y * y, 2147483647) * 48271 + y, 2147483647) AS h FROM y3
),
y4 AS (
  SELECT st, lo_us, hi_us, c_ms, l_mod, r_mod, MOD(h * 1103515245 + r_mod, 2147483647) AS y FROM h3
),
h4 AS (
  SELECT st, lo_us, hi_us, c_ms, l_mod, r_mod, MOD(MOD(y * y, 2147483647) * 48271 + y, 2147483647) AS h FROM y4
),
y5 AS (
  SELECT st, lo_us, hi_us, c_ms, l_mod, r_mod, MOD(h * 1103515245 + 0, 2147483647) AS y FROM h4
),
h5 AS (
  SELECT st, lo_us, hi_us, c_ms, l_mod, r_mod, MOD(MOD(y * y, 2147483647) * 48271 + y, 2147483647) AS h FROM y5
),
binned AS (
  SELECT CASE WHEN h < 644245095 THEN 'heldout' ELSE 'fit' END AS part,
    CASE st WHEN 1 THEN 'settled' WHEN 0 THEN 'pending' ELSE 'interval' END AS kind,
    CASE WHEN lo_us < 1000 THEN 0 WHEN lo_us >= 10000000000000000 THEN 130001
      ELSE LEAST(GREATEST(CAST(FLOOR(LOG10(CAST(lo_us AS DOUBLE) / 1000.0) * 10000 + 1e-09) AS BIGINT) + 1, 1), 130000) END AS bin,
    CASE WHEN st = 3 THEN CASE WHEN hi_us < 1000 THEN 0 WHEN hi_us >= 10000000000000000 THEN 130001
      ELSE LEAST(GREATEST(CAST(FLOOR(LOG10(CAST(hi_us AS DOUBLE) / 1000.0) * 10000 + 1e-09) AS BIGINT) + 1, 1), 130000) END ELSE 0 END AS hi_bin,
    lo_us, CASE WHEN st = 3 THEN hi_us ELSE 0 END AS r_us
  FROM h5
),
bins AS (
  SELECT part, kind, CAST(bin AS BIGINT) AS bin,
  CASE WHEN kind = 'interval' THEN CAST(0 AS DOUBLE) ELSE CAST(MIN(lo_us) AS DOUBLE) / 1000000.0 END AS age_s,
  CAST(COUNT(*) AS BIGINT) AS weight,
  SUM(CAST(lo_us AS DOUBLE) / 1000000.0) AS sum_s,
  CASE WHEN kind <> 'interval' AND MIN(lo_us) <> MAX(lo_us) THEN 1 ELSE 0 END AS mixed,
  CAST(hi_bin AS BIGINT) AS hi_bin,
  SUM(CAST(r_us AS DOUBLE) / 1000000.0) AS sum_hi_s
  FROM binned
  GROUP BY part, kind, bin, hi_bin
  UNION ALL
  SELECT reason AS part, 'dropped' AS kind, CAST(0 AS BIGINT) AS bin, CAST(0 AS DOUBLE) AS age_s, CAST(n AS BIGINT) AS weight, CAST(0 AS DOUBLE) AS sum_s, 0 AS mixed,
  CAST(0 AS BIGINT) AS hi_bin, CAST(0 AS DOUBLE) AS sum_hi_s
  FROM dropped
)
SELECT part, kind, bin, age_s, weight, sum_s, mixed, hi_bin, sum_hi_s,
  0.3 AS holdout,
  1 AS seed
FROM bins
ORDER BY part, kind, bin, hi_bin
