-- Raw SQL baselines for "leasectl bench" (MySQL/MariaDB): the fewest statements a
-- hand-written client would send for each job, with none of leaseq's
-- checks.  They touch only the benchmark's own queues and leases.

-- name: bench_insert
INSERT INTO lq_task (queue, name, payload, run_at, created_at) VALUES (?1, 'bench', ?2, 0, 0);

-- name: bench_ids
SELECT id FROM lq_task WHERE queue = ?1 ORDER BY id LIMIT ?2;

-- name: bench_touch
UPDATE lq_task SET attempts = attempts + 1 WHERE id = ?1;

-- name: bench_delete_range
DELETE FROM lq_task WHERE queue = ?1 AND id BETWEEN ?2 AND ?3;

-- name: bench_lease_touch
UPDATE lq_lease SET owner = ?2 WHERE name = ?1;

-- name: bench_clear_tasks
DELETE FROM lq_task WHERE queue = ?1;

-- name: bench_clear_dead
DELETE FROM lq_task_dead WHERE queue = ?1;

-- name: bench_clear_lease
DELETE FROM lq_lease WHERE name = ?1;

-- name: bench_due
SELECT EXISTS (SELECT 1 FROM lq_task WHERE queue = ?1
                  AND run_at <= CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED));
