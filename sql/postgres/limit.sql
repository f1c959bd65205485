-- Flow control (PostgreSQL): concurrency caps and rate limits, lq_limit.
-- The claim filter is LIMIT_OPEN in fragments.sql; these are the decisions
-- a claim of a limited task takes (READ COMMITTED: the statements after
-- limit_lock see the claims committed while it waited).

-- name: limit_set
WITH {{CLK}}
INSERT INTO lq_limit (name, concurrency, rate_n, rate_period_ms, tat, updated_at)
SELECT $1::text, $2::integer, $3::integer, $4::bigint, 0, n FROM clk
ON CONFLICT (name) DO UPDATE
   SET concurrency = EXCLUDED.concurrency, rate_n = EXCLUDED.rate_n,
       rate_period_ms = EXCLUDED.rate_period_ms, tat = 0, updated_at = EXCLUDED.updated_at;

-- name: limit_get
WITH {{CLK}}
SELECT {{LIMIT_COLS}}
  FROM lq_limit l WHERE l.name = $1::text;

-- name: limit_list
WITH {{CLK}}
SELECT {{LIMIT_COLS}}
  FROM lq_limit l ORDER BY l.name;

-- name: limit_delete
DELETE FROM lq_limit WHERE name = $1::text;

-- name: limit_lock
SELECT name, (concurrency IS NOT NULL)::integer FROM lq_limit
 WHERE name = $1::text OR name = 'queue:' || $2::text
 ORDER BY name
   FOR UPDATE;

-- name: limit_take_key
WITH {{CLK}}
UPDATE lq_limit l SET tat = {{LIMIT_TAT_NEXT}}, updated_at = (SELECT n FROM clk)
 WHERE l.name = $1::text AND NOT ({{LIMIT_SHUT_KEY}});

-- name: limit_take_queue
WITH {{CLK}}
UPDATE lq_limit l SET tat = {{LIMIT_TAT_NEXT}}, updated_at = (SELECT n FROM clk)
 WHERE l.name = 'queue:' || $1::text AND NOT ({{LIMIT_SHUT_QUEUE}});

-- name: limit_refund
UPDATE lq_limit SET tat = tat - rate_period_ms WHERE name = $1::text AND rate_n IS NOT NULL;
