-- Raw SQL baselines for "leasectl bench" (PostgreSQL): the fewest statements
-- a hand-written client would send for each job, with none of leaseq's
-- checks.  They touch only the benchmark's own queues and leases.

-- name: bench_insert
INSERT INTO lq_task (queue, name, payload, run_at, created_at) VALUES ($1::text, 'bench', $2::bytea, 0, 0);

-- name: bench_ids
SELECT id FROM lq_task WHERE queue = $1::text ORDER BY id LIMIT $2::bigint;

-- name: bench_touch
UPDATE lq_task SET attempts = attempts + 1 WHERE id = $1::bigint;

-- name: bench_delete_range
DELETE FROM lq_task WHERE queue = $1::text AND id BETWEEN $2::bigint AND $3::bigint;

-- name: bench_lease_touch
UPDATE lq_lease SET owner = $2::text WHERE name = $1::text;

-- name: bench_clear_tasks
DELETE FROM lq_task WHERE queue = $1::text;

-- name: bench_clear_dead
DELETE FROM lq_task_dead WHERE queue = $1::text;

-- name: bench_clear_lease
DELETE FROM lq_lease WHERE name = $1::text;

-- name: bench_due
-- The clock in a CTE: a plain clock_timestamp() is volatile, so it could
-- not bound the index scan.
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
SELECT EXISTS (SELECT 1 FROM lq_task WHERE queue = $1::text AND run_at <= (SELECT n FROM clk));
