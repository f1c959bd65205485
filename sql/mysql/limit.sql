-- Flow control (MySQL/MariaDB): concurrency caps and rate limits, lq_limit.
-- The claim filter is LIMIT_OPEN in fragments.sql; these are the decisions
-- a claim of a limited task takes (READ COMMITTED: the statements after
-- limit_lock see the claims committed while it waited).

-- name: limit_set
INSERT INTO lq_limit (name, concurrency, rate_n, rate_period_ms, tat, updated_at)
VALUES (?1, ?2, ?3, ?4, 0, {{NOW}})
ON DUPLICATE KEY UPDATE
       concurrency = VALUES(concurrency), rate_n = VALUES(rate_n),
       rate_period_ms = VALUES(rate_period_ms), tat = 0, updated_at = VALUES(updated_at);

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
 WHERE name = ?1 OR name = CONCAT('queue:', ?2)
 ORDER BY name
   FOR UPDATE;

-- name: limit_take_key
UPDATE lq_limit l SET l.tat = {{LIMIT_TAT_NEXT}}, l.updated_at = {{NOW}}
 WHERE l.name = ?1 AND NOT ({{LIMIT_SHUT_KEY}});

-- name: limit_take_queue
UPDATE lq_limit l SET l.tat = {{LIMIT_TAT_NEXT}}, l.updated_at = {{NOW}}
 WHERE l.name = CONCAT('queue:', ?1) AND NOT ({{LIMIT_SHUT_QUEUE}});

-- name: limit_refund
UPDATE lq_limit SET tat = tat - rate_period_ms WHERE name = ?1 AND rate_n IS NOT NULL;
