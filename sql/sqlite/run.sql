-- Run history and counters (SQLite).  NOW is the database clock, {{NOW}} in fragments.sql.
-- RUN_COLS: id, task_id, run_at, queue, name, worker, attempt, started_at,
-- ended_at, outcome, error, NOW.
-- Not in this dialect (see lib/backend/sql_names.h):
-- absent: run_count a trigger counts each run (no LQ_CAP_RUN_COUNT_APART)
-- absent: run_count_many the same trigger
-- absent: task_ack_run no LQ_CAP_ONE_STATEMENT_ACK: task_ack, then run_insert

-- name: run_insert
-- One finished run; ended_at is the database clock.  The lq_run_counted
-- trigger counts it in lq_counter within the same statement.
INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, {{NOW}}, ?8, ?9);

-- name: run_insert_many
-- Up to 64 runs that their claims settled already (at-most-once), written
-- together: ?1 the worker, then 8 parameters per run (task_id, run_at,
-- queue, name, attempt, started_at, ago, outcome; ?2..?9 the first run,
-- ?10..?17 the second, ...); unused places are NULL and skipped.  ended_at
-- is the database clock less ago, the milliseconds since the run ended
-- (measured by the worker), and never before started_at.  Rows go in in
-- the order given; the lq_run_counted trigger counts each.
INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome)
SELECT tid, ra, q, nm, ?1, att, sa, MAX(sa, {{NOW}} - ago), oc
  FROM ({{RUN_ROWS}}) AS v
 WHERE tid IS NOT NULL
 ORDER BY k;

-- name: run_list
-- Newest ended_at first, ties by id: the order a reader expects even where
-- rows were written out of that order (the kept-back at-most-once rows go
-- in later, their ended_at back-dated to when the run ended).  A backward
-- walk of lq_run_ended that stops at the window's start or after LIMIT
-- rows: a narrow window or a small limit never reads the whole history.
SELECT id, task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error, {{NOW}}
  FROM lq_run
 WHERE ended_at >= {{NOW}} - ?3
   AND (?1 IS NULL OR queue = ?1)
   AND (?2 IS NULL OR name = ?2)
 ORDER BY ended_at DESC, id DESC
 LIMIT ?4;

-- name: run_list_task
-- In run_list's order (newest ended_at first, ties by id), walking
-- lq_run_task (task_id, ended_at, id) backwards.
SELECT id, task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error, {{NOW}}
  FROM lq_run
 WHERE task_id = ?1 AND ended_at >= {{NOW}} - ?2
 ORDER BY ended_at DESC, id DESC
 LIMIT ?3;

-- name: run_settled
-- Whether a claim's settle committed (its history row is written in the
-- same transaction): a walk of lq_run_task's few rows of the task.
SELECT 1 FROM lq_run
 WHERE task_id = ?1 AND attempt = ?2 AND started_at = ?3 AND worker = ?4
 LIMIT 1;

-- name: run_count_since
-- A range of lq_run_ended: reads the window's rows, not the whole history.
SELECT outcome, count(*) FROM lq_run
 WHERE ended_at >= {{NOW}} - ?1 AND (?2 IS NULL OR queue = ?2)
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
