-- Flow control (SQLite): concurrency caps and rate limits, lq_limit.  The
-- claim filter is LIMIT_OPEN in fragments.sql; these are the decisions a
-- claim of a limited task takes (SQLite serialises writers: the claim's
-- BEGIN IMMEDIATE is the lock).

-- name: limit_set
INSERT INTO lq_limit (name, concurrency, rate_n, rate_period_ms, tat, updated_at)
VALUES (?1, ?2, ?3, ?4, 0, {{NOW}})
ON CONFLICT (name) DO UPDATE
   SET concurrency = excluded.concurrency, rate_n = excluded.rate_n,
       rate_period_ms = excluded.rate_period_ms, tat = 0, updated_at = excluded.updated_at;

-- name: limit_get
SELECT {{LIMIT_COLS}}
  FROM lq_limit l WHERE l.name = ?1;

-- name: limit_list
SELECT {{LIMIT_COLS}}
  FROM lq_limit l ORDER BY l.name;

-- name: limit_delete
DELETE FROM lq_limit WHERE name = ?1;

-- name: limit_lock
SELECT name, concurrency IS NOT NULL FROM lq_limit
 WHERE name = ?1 OR name = 'queue:' || ?2
 ORDER BY name;

-- name: limit_take_key
UPDATE lq_limit AS l SET tat = {{LIMIT_TAT_NEXT}}, updated_at = {{NOW}}
 WHERE l.name = ?1 AND NOT ({{LIMIT_SHUT_KEY}});

-- name: limit_take_queue
UPDATE lq_limit AS l SET tat = {{LIMIT_TAT_NEXT}}, updated_at = {{NOW}}
 WHERE l.name = 'queue:' || ?1 AND NOT ({{LIMIT_SHUT_QUEUE}});

-- name: limit_refund
UPDATE lq_limit SET tat = tat - rate_period_ms WHERE name = ?1 AND rate_n IS NOT NULL;
