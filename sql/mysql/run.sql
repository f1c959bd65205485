-- Run history and counters (MySQL/MariaDB).  NOW is CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED).
-- RUN_COLS: id, task_id, run_at, queue, name, worker, attempt, started_at,
-- ended_at, outcome, error, NOW.

-- name: run_insert
-- One finished run; ended_at is the database clock.  The lq_run_counted
-- trigger counts it in lq_counter within the same statement.
INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED), ?8, ?9);

-- name: run_insert_after
-- run_insert of a run the claim settled already (at-most-once).  The same
-- statement here: InnoDB flushes its log at every commit or by a global
-- setting only (innodb_flush_log_at_trx_commit), never per transaction.
INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED), ?8, ?9);

-- name: task_ack_run
-- The at-least-once ack and its history row: one round trip, one
-- transaction, in the procedure of migration 0007.  -> (acked 0|1)
CALL lq_task_ack_run(?1, ?2, ?3, ?4);

-- name: run_list
-- Newest first.  The first run that ended inside the window, found on
-- lq_run_ended, bounds the walk down the primary key (ids grow with
-- ended_at), so a narrow window never scans the whole history.
SELECT id, task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error, CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)
  FROM lq_run
 WHERE id >= COALESCE((SELECT id FROM lq_run WHERE ended_at >= CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED) - ?3
                        ORDER BY ended_at, id LIMIT 1), 9223372036854775807)
   AND ended_at >= CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED) - ?3
   AND (?1 IS NULL OR queue = ?1)
   AND (?2 IS NULL OR name = ?2)
 ORDER BY id DESC
 LIMIT ?4;

-- name: run_list_task
SELECT id, task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error, CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)
  FROM lq_run
 WHERE task_id = ?1 AND ended_at >= CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED) - ?2
 ORDER BY id DESC
 LIMIT ?3;

-- name: run_count_since
-- A range of lq_run_ended: reads the window's rows, not the whole history.
SELECT outcome, count(*) FROM lq_run
 WHERE ended_at >= CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED) - ?1 AND (?2 IS NULL OR queue = ?2)
 GROUP BY outcome;

-- name: counter_list
-- Every run counter, summed over its shards, and the lease counters from
-- the lease rows: each take bumps a lease's fencing token (tokens are never
-- reset), and so does a break; lost and broken are counted in the row.
SELECT metric, queue, name, CAST(SUM(n) AS SIGNED) FROM lq_counter GROUP BY metric, queue, name
UNION ALL
SELECT 'lease_taken', '', '', CAST(COALESCE(SUM(token - broken), 0) AS SIGNED) FROM lq_lease
UNION ALL
SELECT 'lease_lost', '', '', CAST(COALESCE(SUM(lost), 0) AS SIGNED) FROM lq_lease
UNION ALL
SELECT 'lease_broken', '', '', CAST(COALESCE(SUM(broken), 0) AS SIGNED) FROM lq_lease
 ORDER BY 2, 3, 1;
