-- Run history and counters (SQLite).  NOW is written out as CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER).
-- RUN_COLS: id, task_id, run_at, queue, name, worker, attempt, started_at,
-- ended_at, outcome, error, NOW.

-- name: run_insert
-- One finished run; ended_at is the database clock.  The lq_run_counted
-- trigger counts it in lq_counter within the same statement.
INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER), ?8, ?9);

-- name: run_insert_after
-- run_insert of a run the claim settled already (at-most-once).  The
-- backend commits it with synchronous=NORMAL (on its own connections set to
-- FULL): no fsync of its own; the next FULL commit, the worker's next claim,
-- makes it durable with its own.
INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER), ?8, ?9);

-- name: run_list
-- Newest first.  The first run that ended inside the window, found on
-- lq_run_ended, bounds the walk down the primary key (ids grow with
-- ended_at), so a narrow window never scans the whole history.
SELECT id, task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error, CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)
  FROM lq_run
 WHERE id >= COALESCE((SELECT id FROM lq_run WHERE ended_at >= CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) - ?3
                        ORDER BY ended_at, id LIMIT 1), 9223372036854775807)
   AND ended_at >= CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) - ?3
   AND (?1 IS NULL OR queue = ?1)
   AND (?2 IS NULL OR name = ?2)
 ORDER BY id DESC
 LIMIT ?4;

-- name: run_list_task
SELECT id, task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error, CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)
  FROM lq_run
 WHERE task_id = ?1 AND ended_at >= CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) - ?2
 ORDER BY id DESC
 LIMIT ?3;

-- name: run_count_since
-- A range of lq_run_ended: reads the window's rows, not the whole history.
SELECT outcome, count(*) FROM lq_run
 WHERE ended_at >= CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) - ?1 AND (?2 IS NULL OR queue = ?2)
 GROUP BY outcome;

-- name: counter_list
-- Every run counter, summed over its shards, and the lease counters from
-- the lease rows: each take bumps a lease's fencing token (tokens are never
-- reset), and so does a break; lost and broken are counted in the row.
SELECT metric, queue, name, SUM(n) FROM lq_counter GROUP BY metric, queue, name
UNION ALL
SELECT 'lease_taken', '', '', COALESCE(SUM(token - broken), 0) FROM lq_lease
UNION ALL
SELECT 'lease_lost', '', '', COALESCE(SUM(lost), 0) FROM lq_lease
UNION ALL
SELECT 'lease_broken', '', '', COALESCE(SUM(broken), 0) FROM lq_lease
 ORDER BY 2, 3, 1;
