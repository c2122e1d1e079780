-- pollfit sketch v2 of payments: holdout=0.3 seed=1 by=method (clickhouse)
-- Export the result as CSV with a header: pollfit reads it as a sketch.
SELECT segment, part, kind, bin, age_s, weight, sum_s, mixed,
  0.3 AS holdout,
  1 AS seed,
  'method' AS segment_by
FROM (
  SELECT seg AS segment, part, kind, CAST(bin AS Int64) AS bin,
  CAST(MIN(age_us) AS Float64) / 1000000.0 AS age_s,
  COUNT(*) AS weight,
  SUM(CAST(age_us AS Float64) / 1000000.0) AS sum_s,
  CASE WHEN MIN(age_us) <> MAX(age_us) THEN 1 ELSE 0 END AS mixed
  FROM (
  SELECT CASE WHEN h < 644245095 THEN 'heldout' ELSE 'fit' END AS part,
    CASE st WHEN 1 THEN 'settled' WHEN 2 THEN 'failed' ELSE 'pending' END AS kind,
    CASE WHEN age_us < 1000 THEN 0 WHEN age_us >= 10000000000000000 THEN 130001
      ELSE least(greatest(CAST(FLOOR(LOG10(CAST(age_us AS Float64) / 1000.0) * 10000 + 1e-09) AS Int64) + 1, 1), 130000) END AS bin,
    age_us, seg
  FROM (
  SELECT st, age_us, c_ms, a_us, seg, ((((y * y) % 2147483647) * 48271 + y) % 2147483647) AS h FROM (
  SELECT st, age_us, c_ms, a_us, seg, ((h * 1103515245 + 0) % 2147483647) AS y FROM (
  SELECT st, age_us, c_ms, a_us, seg, ((((y * y) % 2147483647) * 48271 + y) % 2147483647) AS h FROM (
  SELECT st, age_us, c_ms, a_us, seg, ((h * 1103515245 + a_us) % 2147483647) AS y FROM (
  SELECT st, age_us, c_ms, a_us, seg, ((((y * y) % 2147483647) * 48271 + y) % 2147483647) AS h FROM (
  SELECT st, age_us, c_ms, a_us, seg, ((h * 1103515245 + c_ms) % 2147483647) AS y FROM (
  SELECT st, age_us, c_ms, a_us, seg, ((((y * y) % 2147483647) * 48271 + y) % 2147483647) AS h FROM (
  SELECT st, age_us, c_ms, a_us, seg, ((h * 1103515245 + st) % 2147483647) AS y FROM (
  SELECT CASE WHEN s_us IS NULL THEN 0 WHEN st = -1 THEN 1 ELSE st END AS st,
    COALESCE(s_us, o_us) - c_us AS age_us,
    ((((CAST(FLOOR(c_us / 1000.0) AS Int64)) % 2147483647) + 2147483647) % 2147483647) AS c_ms,
    ((COALESCE(s_us, o_us) - c_us) % 2147483647) AS a_us,
    CAST(1 AS Int64) AS h, seg
  FROM (
  SELECT c_us, s_us, st, seg FROM (
  SELECT c_us, s_us, st, seg,
    CASE WHEN bad_time = 1 THEN 1 WHEN st = -2 THEN 2
      WHEN c_us IS NULL OR (s_us IS NULL AND st IN (1, 2)) THEN 3
      WHEN s_us < c_us THEN 4 WHEN s_us - c_us > 3153600000000000 THEN 5
      ELSE 0 END AS bad
  FROM (
  SELECT toInt64(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(created_at), '')))) * 1000000 + toInt64OrZero(substring(concat(ifNull(extract(toString(created_at), ':[0-9][0-9][.,]([0-9]+)'), ''), '000000'), 1, 6)) AS c_us,
    toInt64(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(settled_at), '')))) * 1000000 + toInt64OrZero(substring(concat(ifNull(extract(toString(settled_at), ':[0-9][0-9][.,]([0-9]+)'), ''), '000000'), 1, 6)) AS s_us,
    CASE WHEN status IS NULL OR lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) = '' THEN -1
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('approved', 'captured', 'complete', 'completed', 'confirmed', 'done', 'final', 'finished', 'ok', 'paid', 'settled', 'succeed', 'succeeded', 'success', 'successful') THEN 1
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('aborted', 'canceled', 'cancelled', 'declined', 'error', 'errored', 'expired', 'fail', 'failed', 'failure', 'refused', 'rejected', 'timed out', 'timed_out', 'timedout', 'timeout', 'voided') THEN 2
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('authorized', 'created', 'in progress', 'in-progress', 'in_progress', 'initiated', 'new', 'open', 'pending', 'processing', 'queued', 'requires_action', 'running', 'started', 'submitted', 'waiting') THEN 0
      ELSE -2 END AS st,
    CASE WHEN NOT (created_at IS NULL OR toString(created_at) = '' OR ifNull(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(created_at), ''))), 0) > 0) OR NOT (settled_at IS NULL OR toString(settled_at) = '' OR ifNull(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(settled_at), ''))), 0) > 0) THEN 1 ELSE 0 END AS bad_time,
    ifNull(replaceRegexpAll(toString(method), '^[[:blank:]]+|[[:blank:]]+$', ''), '') AS seg
  FROM payments
) AS src
) AS checked WHERE bad = 0
) AS ok CROSS JOIN (
  SELECT MAX(greatest(c_us, COALESCE(s_us, c_us))) AS o_us FROM (
  SELECT c_us, s_us, st, seg FROM (
  SELECT c_us, s_us, st, seg,
    CASE WHEN bad_time = 1 THEN 1 WHEN st = -2 THEN 2
      WHEN c_us IS NULL OR (s_us IS NULL AND st IN (1, 2)) THEN 3
      WHEN s_us < c_us THEN 4 WHEN s_us - c_us > 3153600000000000 THEN 5
      ELSE 0 END AS bad
  FROM (
  SELECT toInt64(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(created_at), '')))) * 1000000 + toInt64OrZero(substring(concat(ifNull(extract(toString(created_at), ':[0-9][0-9][.,]([0-9]+)'), ''), '000000'), 1, 6)) AS c_us,
    toInt64(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(settled_at), '')))) * 1000000 + toInt64OrZero(substring(concat(ifNull(extract(toString(settled_at), ':[0-9][0-9][.,]([0-9]+)'), ''), '000000'), 1, 6)) AS s_us,
    CASE WHEN status IS NULL OR lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) = '' THEN -1
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('approved', 'captured', 'complete', 'completed', 'confirmed', 'done', 'final', 'finished', 'ok', 'paid', 'settled', 'succeed', 'succeeded', 'success', 'successful') THEN 1
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('aborted', 'canceled', 'cancelled', 'declined', 'error', 'errored', 'expired', 'fail', 'failed', 'failure', 'refused', 'rejected', 'timed out', 'timed_out', 'timedout', 'timeout', 'voided') THEN 2
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('authorized', 'created', 'in progress', 'in-progress', 'in_progress', 'initiated', 'new', 'open', 'pending', 'processing', 'queued', 'requires_action', 'running', 'started', 'submitted', 'waiting') THEN 0
      ELSE -2 END AS st,
    CASE WHEN NOT (created_at IS NULL OR toString(created_at) = '' OR ifNull(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(created_at), ''))), 0) > 0) OR NOT (settled_at IS NULL OR toString(settled_at) = '' OR ifNull(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(settled_at), ''))), 0) > 0) THEN 1 ELSE 0 END AS bad_time,
    ifNull(replaceRegexpAll(toString(method), '^[[:blank:]]+|[[:blank:]]+$', ''), '') AS seg
  FROM payments
) AS src
) AS checked WHERE bad = 0
) AS ok
) AS obs
  WHERE s_us IS NOT NULL OR (o_us >= c_us AND o_us - c_us <= 3153600000000000)
) AS items
) AS y1
) AS h1
) AS y2
) AS h2
) AS y3
) AS h3
) AS y4
) AS h4
) AS binned
  GROUP BY seg, part, kind, bin
  UNION ALL
  SELECT '' AS segment, reason AS part, 'dropped' AS kind, CAST(0 AS Int64) AS bin, CAST(0 AS Float64) AS age_s, n AS weight, CAST(0 AS Float64) AS sum_s, 0 AS mixed
  FROM (
  SELECT CASE WHEN bad = 1 THEN 'bad timestamp' WHEN bad = 2 THEN 'unknown status' WHEN bad = 3 THEN 'missing value' WHEN bad = 4 THEN 'settled before created' WHEN bad = 5 THEN 'age beyond 100 years' WHEN bad = 6 THEN 'signal before created' WHEN bad = 7 THEN 'created after observed-at' END AS reason, COUNT(*) AS n
  FROM (SELECT bad FROM (
  SELECT c_us, s_us, st, seg,
    CASE WHEN bad_time = 1 THEN 1 WHEN st = -2 THEN 2
      WHEN c_us IS NULL OR (s_us IS NULL AND st IN (1, 2)) THEN 3
      WHEN s_us < c_us THEN 4 WHEN s_us - c_us > 3153600000000000 THEN 5
      ELSE 0 END AS bad
  FROM (
  SELECT toInt64(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(created_at), '')))) * 1000000 + toInt64OrZero(substring(concat(ifNull(extract(toString(created_at), ':[0-9][0-9][.,]([0-9]+)'), ''), '000000'), 1, 6)) AS c_us,
    toInt64(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(settled_at), '')))) * 1000000 + toInt64OrZero(substring(concat(ifNull(extract(toString(settled_at), ':[0-9][0-9][.,]([0-9]+)'), ''), '000000'), 1, 6)) AS s_us,
    CASE WHEN status IS NULL OR lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) = '' THEN -1
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('approved', 'captured', 'complete', 'completed', 'confirmed', 'done', 'final', 'finished', 'ok', 'paid', 'settled', 'succeed', 'succeeded', 'success', 'successful') THEN 1
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('aborted', 'canceled', 'cancelled', 'declined', 'error', 'errored', 'expired', 'fail', 'failed', 'failure', 'refused', 'rejected', 'timed out', 'timed_out', 'timedout', 'timeout', 'voided') THEN 2
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('authorized', 'created', 'in progress', 'in-progress', 'in_progress', 'initiated', 'new', 'open', 'pending', 'processing', 'queued', 'requires_action', 'running', 'started', 'submitted', 'waiting') THEN 0
      ELSE -2 END AS st,
    CASE WHEN NOT (created_at IS NULL OR toString(created_at) = '' OR ifNull(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(created_at), ''))), 0) > 0) OR NOT (settled_at IS NULL OR toString(settled_at) = '' OR ifNull(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(settled_at), ''))), 0) > 0) THEN 1 ELSE 0 END AS bad_time,
    ifNull(replaceRegexpAll(toString(method), '^[[:blank:]]+|[[:blank:]]+$', ''), '') AS seg
  FROM payments
) AS src
) AS checked WHERE bad <> 0 UNION ALL SELECT bad FROM (
  SELECT CASE WHEN o_us < c_us THEN 7 ELSE 5 END AS bad
  FROM (
  SELECT c_us, s_us, st, seg FROM (
  SELECT c_us, s_us, st, seg,
    CASE WHEN bad_time = 1 THEN 1 WHEN st = -2 THEN 2
      WHEN c_us IS NULL OR (s_us IS NULL AND st IN (1, 2)) THEN 3
      WHEN s_us < c_us THEN 4 WHEN s_us - c_us > 3153600000000000 THEN 5
      ELSE 0 END AS bad
  FROM (
  SELECT toInt64(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(created_at), '')))) * 1000000 + toInt64OrZero(substring(concat(ifNull(extract(toString(created_at), ':[0-9][0-9][.,]([0-9]+)'), ''), '000000'), 1, 6)) AS c_us,
    toInt64(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(settled_at), '')))) * 1000000 + toInt64OrZero(substring(concat(ifNull(extract(toString(settled_at), ':[0-9][0-9][.,]([0-9]+)'), ''), '000000'), 1, 6)) AS s_us,
    CASE WHEN status IS NULL OR lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) = '' THEN -1
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('approved', 'captured', 'complete', 'completed', 'confirmed', 'done', 'final', 'finished', 'ok', 'paid', 'settled', 'succeed', 'succeeded', 'success', 'successful') THEN 1
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('aborted', 'canceled', 'cancelled', 'declined', 'error', 'errored', 'expired', 'fail', 'failed', 'failure', 'refused', 'rejected', 'timed out', 'timed_out', 'timedout', 'timeout', 'voided') THEN 2
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('authorized', 'created', 'in progress', 'in-progress', 'in_progress', 'initiated', 'new', 'open', 'pending', 'processing', 'queued', 'requires_action', 'running', 'started', 'submitted', 'waiting') THEN 0
      ELSE -2 END AS st,
    CASE WHEN NOT (created_at IS NULL OR toString(created_at) = '' OR ifNull(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(created_at), ''))), 0) > 0) OR NOT (settled_at IS NULL OR toString(settled_at) = '' OR ifNull(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(settled_at), ''))), 0) > 0) THEN 1 ELSE 0 END AS bad_time,
    ifNull(replaceRegexpAll(toString(method), '^[[:blank:]]+|[[:blank:]]+$', ''), '') AS seg
  FROM payments
) AS src
) AS checked WHERE bad = 0
) AS ok CROSS JOIN (
  SELECT MAX(greatest(c_us, COALESCE(s_us, c_us))) AS o_us FROM (
  SELECT c_us, s_us, st, seg FROM (
  SELECT c_us, s_us, st, seg,
    CASE WHEN bad_time = 1 THEN 1 WHEN st = -2 THEN 2
      WHEN c_us IS NULL OR (s_us IS NULL AND st IN (1, 2)) THEN 3
      WHEN s_us < c_us THEN 4 WHEN s_us - c_us > 3153600000000000 THEN 5
      ELSE 0 END AS bad
  FROM (
  SELECT toInt64(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(created_at), '')))) * 1000000 + toInt64OrZero(substring(concat(ifNull(extract(toString(created_at), ':[0-9][0-9][.,]([0-9]+)'), ''), '000000'), 1, 6)) AS c_us,
    toInt64(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(settled_at), '')))) * 1000000 + toInt64OrZero(substring(concat(ifNull(extract(toString(settled_at), ':[0-9][0-9][.,]([0-9]+)'), ''), '000000'), 1, 6)) AS s_us,
    CASE WHEN status IS NULL OR lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) = '' THEN -1
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('approved', 'captured', 'complete', 'completed', 'confirmed', 'done', 'final', 'finished', 'ok', 'paid', 'settled', 'succeed', 'succeeded', 'success', 'successful') THEN 1
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('aborted', 'canceled', 'cancelled', 'declined', 'error', 'errored', 'expired', 'fail', 'failed', 'failure', 'refused', 'rejected', 'timed out', 'timed_out', 'timedout', 'timeout', 'voided') THEN 2
      WHEN lower(replaceRegexpAll(status, '^[[:blank:]]+|[[:blank:]]+$', '')) IN ('authorized', 'created', 'in progress', 'in-progress', 'in_progress', 'initiated', 'new', 'open', 'pending', 'processing', 'queued', 'requires_action', 'running', 'started', 'submitted', 'waiting') THEN 0
      ELSE -2 END AS st,
    CASE WHEN NOT (created_at IS NULL OR toString(created_at) = '' OR ifNull(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(created_at), ''))), 0) > 0) OR NOT (settled_at IS NULL OR toString(settled_at) = '' OR ifNull(toUnixTimestamp(parseDateTimeBestEffortOrNull(nullIf(toString(settled_at), ''))), 0) > 0) THEN 1 ELSE 0 END AS bad_time,
    ifNull(replaceRegexpAll(toString(method), '^[[:blank:]]+|[[:blank:]]+$', ''), '') AS seg
  FROM payments
) AS src
) AS checked WHERE bad = 0
) AS ok
) AS obs
  WHERE s_us IS NULL AND NOT (o_us >= c_us AND o_us - c_us <= 3153600000000000)
) AS late) AS d
  GROUP BY bad
) AS dropped
) AS bins
ORDER BY segment, part, kind, bin
