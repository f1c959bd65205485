-- Snooze, progress and results (PostgreSQL).  NOW is (SELECT n FROM clk),
-- see fragments.sql.  Each guard tests a column the winner of a race
-- changes (READ COMMITTED re-checks it against the winner's row).

-- name: task_progress_set
-- Conditional on the claim, like a heartbeat: refused (0 rows) once it
-- expired or was taken.
WITH {{CLK}}
UPDATE lq_task
   SET progress = $3::integer, progress_msg = $4::text, progress_at = (SELECT n FROM clk),
       progress_owner = $2::text
 WHERE id = $1::bigint AND claim_owner = $2::text
   AND claim_until > (SELECT n FROM clk);

-- name: task_progress_get
-- Only the progress of the claim that holds the task now: an earlier
-- attempt's or occurrence's is not this run's.
SELECT CASE WHEN progress_owner = claim_owner THEN progress END,
       CASE WHEN progress_owner = claim_owner THEN progress_msg END,
       CASE WHEN progress_owner = claim_owner THEN progress_at END,
       {{NOW}}
  FROM lq_task WHERE id = $1::bigint;

-- name: task_snooze_claim
-- Hand an at-least-once claim back to run again at NOW + $3, the attempt
-- not counted (as task_release_claim does, with a delay).
UPDATE lq_task
   SET claim_owner = NULL, claim_until = NULL,
       attempts = GREATEST(attempts - 1, 0),
       run_at = {{NOW}} + $3::bigint
 WHERE id = $1::bigint AND claim_owner = $2::text;

-- name: task_snooze_occurrence
-- An at-most-once occurrence again at NOW + $3, unless the next one comes
-- first (the claim moved run_at to it: $2): never two runs for one.
UPDATE lq_task
   SET run_at = LEAST(run_at, {{NOW}} + $3::bigint)
 WHERE id = $1::bigint AND run_at = $2::bigint;

-- name: run_set_result
-- The result of the run just written in this transaction (run_settled's key).
UPDATE lq_run SET result = $5::bytea
 WHERE task_id = $1::bigint AND attempt = $2::bigint AND started_at = $3::bigint AND worker = $4::text;

-- name: run_result
-- The newest stored result of a task, on lq_run_task (task_id, ended_at, id).
SELECT result FROM lq_run
 WHERE task_id = $1::bigint AND result IS NOT NULL
 ORDER BY ended_at DESC, id DESC
 LIMIT 1;
