-- Raw baselines of "leasectl bench" (PostgreSQL): each job written the
-- fastest honest way through libpq, on leaseq's own tables, one prepared
-- statement per round trip in autocommit.  The clock is clock_timestamp() in
-- epoch milliseconds, taken once per statement in a CTE (a volatile call in
-- the WHERE clause could not bound the index scan).

-- name: claim
-- ($1 queue) -> the claimed task
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
DELETE FROM lq_task
 WHERE id = (SELECT id FROM lq_task
              WHERE queue = $1::text AND run_at <= (SELECT n FROM clk)
              ORDER BY run_at, id LIMIT 1
                FOR UPDATE SKIP LOCKED)
RETURNING id, name, payload, run_at;

-- name: claim_batch
-- ($1 queue, $2 how many) -> the claimed tasks
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
DELETE FROM lq_task
 WHERE id = ANY (ARRAY (SELECT id FROM lq_task
                         WHERE queue = $1::text AND run_at <= (SELECT n FROM clk)
                         ORDER BY run_at, id LIMIT $2::bigint
                           FOR UPDATE SKIP LOCKED))
RETURNING id, name, payload, run_at;

-- name: claim_ack_claim
-- ($1 queue, $2 owner, $3 claim ttl ms) -> the claimed task
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
UPDATE lq_task
   SET claim_owner = $2::text, claim_until = (SELECT n FROM clk) + $3::bigint, attempts = attempts + 1
 WHERE id = (SELECT id FROM lq_task
              WHERE queue = $1::text AND run_at <= (SELECT n FROM clk)
                AND (claim_until IS NULL OR claim_until <= (SELECT n FROM clk))
              ORDER BY run_at, id LIMIT 1
                FOR UPDATE SKIP LOCKED)
RETURNING id, name, payload, run_at;

-- name: claim_ack_ack
-- ($1 id, $2 owner)
DELETE FROM lq_task WHERE id = $1::bigint AND claim_owner = $2::text;

-- name: enqueue
-- ($1 queue, $2 payload) -> id; run_at and created_at default to now
INSERT INTO lq_task (queue, name, payload) VALUES ($1::text, 'bench', $2::bytea) RETURNING id;

-- name: lease_take
-- ($1 name, $2 owner, $3 ttl ms) -> token when taken, no row when held
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
INSERT INTO lq_lease AS l (name, owner, token, acquired_at, expires_at)
SELECT $1::text, $2::text, 1, n, n + $3::bigint FROM clk
ON CONFLICT (name) DO UPDATE
   SET owner = EXCLUDED.owner, token = l.token + 1,
       acquired_at = EXCLUDED.acquired_at, expires_at = EXCLUDED.expires_at
 WHERE l.expires_at <= EXCLUDED.acquired_at
RETURNING token;

-- name: lease_release
-- ($1 name, $2 owner, $3 token)
UPDATE lq_lease
   SET owner = NULL, expires_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint
 WHERE name = $1::text AND owner = $2::text AND token = $3::bigint;

-- name: tick_due
-- ($1 queue) -> a row when a task is due.  ORDER BY keeps it on the
-- (queue, run_at, id) index: with a bare LIMIT 1 a generic plan may scan the table.
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
SELECT run_at FROM lq_task
 WHERE queue = $1::text AND run_at <= (SELECT n FROM clk)
 ORDER BY run_at LIMIT 1;

-- name: recurring
-- ($1 queue) -> the occurrence claimed; run_at moves one interval past now
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
UPDATE lq_task
   SET run_at = (SELECT n FROM clk) + every_ms
 WHERE id = (SELECT id FROM lq_task
              WHERE queue = $1::text AND run_at <= (SELECT n FROM clk)
              ORDER BY run_at, id LIMIT 1
                FOR UPDATE SKIP LOCKED)
RETURNING id, name, payload, run_at;

-- name: fill
-- ($1 queue, $2 payload, $3 rows, $4 kind: 0 due, 1 every second row due in
-- a year, 2 all in a year, $5 every_ms or NULL), in id order
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
INSERT INTO lq_task (queue, name, payload, run_at, every_ms, created_at)
SELECT $1::text, 'bench', $2::bytea,
       n + CASE WHEN $4::int = 2 OR ($4::int = 1 AND g % 2 = 1) THEN 31536000000 ELSE 0 END,
       $5::bigint, n
  FROM clk, generate_series(1, $3::int) AS g
 ORDER BY g;

-- name: clear_tasks
-- ($1 LIKE pattern)
DELETE FROM lq_task WHERE queue LIKE $1::text;

-- name: clear_dead
DELETE FROM lq_task_dead WHERE queue LIKE $1::text;

-- name: clear_leases
DELETE FROM lq_lease WHERE name LIKE $1::text;
