-- Run history and counters (PostgreSQL).  NOW is (SELECT n FROM clk), see
-- schema.sql.  RUN_COLS: id, task_id, run_at, queue, name, worker, attempt,
-- started_at, ended_at, outcome, error, NOW.

-- name: run_insert
-- One finished run; ended_at is the database clock.  Counted in lq_counter
-- by the same statement (one shard of eight, by the run's id, so that
-- concurrent writers seldom wait on one counter row).
WITH i AS (
  INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error)
  VALUES ($1::bigint, $2::bigint, $3::text, $4::text, $5::text, $6::bigint, $7::bigint,
          (extract(epoch FROM clock_timestamp()) * 1000)::bigint, $8::text, $9::text)
  RETURNING id, queue, name, outcome)
INSERT INTO lq_counter (metric, queue, name, shard, n)
SELECT 'run_' || outcome, queue, name, id % 8, 1 FROM i
ON CONFLICT (metric, queue, name, shard) DO UPDATE SET n = lq_counter.n + 1;

-- name: run_insert_after
-- run_insert of a run the claim settled already (at-most-once), committed
-- without waiting for the WAL flush (or a synchronous standby): the
-- worker's next claim does not wait for it either way, and a server crash
-- in the next moment loses the row as a worker crash before it would.
WITH lazy AS (SELECT set_config('synchronous_commit', 'off', true)),
i AS (
  INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error)
  VALUES ($1::bigint, $2::bigint, $3::text, $4::text, $5::text, $6::bigint, $7::bigint,
          (extract(epoch FROM clock_timestamp()) * 1000)::bigint, $8::text, $9::text)
  RETURNING id, queue, name, outcome)
INSERT INTO lq_counter (metric, queue, name, shard, n)
SELECT 'run_' || outcome, queue, name, id % 8, 1 FROM i, lazy
ON CONFLICT (metric, queue, name, shard) DO UPDATE SET n = lq_counter.n + 1;

-- name: task_ack_run
-- The at-least-once ack, its history row and its count in one statement
-- (one round trip, one transaction): the row is written only if the claim
-- was still ours and the task is gone.  -> (acked 0|1)
WITH d AS (DELETE FROM lq_task WHERE id = $1::bigint AND claim_owner = $2::text
           RETURNING id, run_at, queue, name, attempts),
     i AS (INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome)
           SELECT id, run_at, queue, name, $3::text, attempts, $4::bigint,
                  (extract(epoch FROM clock_timestamp()) * 1000)::bigint, 'done' FROM d
           RETURNING id, queue, name),
     c AS (INSERT INTO lq_counter (metric, queue, name, shard, n)
           SELECT 'run_done', queue, name, id % 8, 1 FROM i
           ON CONFLICT (metric, queue, name, shard) DO UPDATE SET n = lq_counter.n + 1)
SELECT count(*)::bigint FROM i;

-- name: run_list
-- Newest first.  The first run that ended inside the window, found on
-- lq_run_ended, bounds the walk down the primary key (ids grow with
-- ended_at), so a narrow window never scans the whole history.
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
SELECT id, task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error,
       (SELECT n FROM clk)
  FROM lq_run
 WHERE id >= COALESCE((SELECT id FROM lq_run WHERE ended_at >= (SELECT n FROM clk) - $3::bigint
                        ORDER BY ended_at, id LIMIT 1), 9223372036854775807)
   AND ended_at >= (SELECT n FROM clk) - $3::bigint
   AND ($1::text IS NULL OR queue = $1::text)
   AND ($2::text IS NULL OR name = $2::text)
 ORDER BY id DESC
 LIMIT $4::bigint;

-- name: run_list_task
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
SELECT id, task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome, error,
       (SELECT n FROM clk)
  FROM lq_run
 WHERE task_id = $1::bigint AND ended_at >= (SELECT n FROM clk) - $2::bigint
 ORDER BY id DESC
 LIMIT $3::bigint;

-- name: run_count_since
-- A range of lq_run_ended: reads the window's rows, not the whole history.
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
SELECT outcome, count(*)::bigint FROM lq_run
 WHERE ended_at >= (SELECT n FROM clk) - $1::bigint AND ($2::text IS NULL OR queue = $2::text)
 GROUP BY outcome;

-- name: counter_list
-- Every run counter, summed over its shards, and the lease counters from
-- the lease rows: each take bumps a lease's fencing token (tokens are never
-- reset), and so does a break; lost and broken are counted in the row.
SELECT metric, queue, name, SUM(n)::bigint FROM lq_counter GROUP BY metric, queue, name
UNION ALL
SELECT 'lease_taken', '', '', (COALESCE(SUM(token - broken), 0))::bigint FROM lq_lease
UNION ALL
SELECT 'lease_lost', '', '', (COALESCE(SUM(lost), 0))::bigint FROM lq_lease
UNION ALL
SELECT 'lease_broken', '', '', (COALESCE(SUM(broken), 0))::bigint FROM lq_lease
 ORDER BY 2, 3, 1;
