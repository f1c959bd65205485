-- Snooze, progress and results (SQLite).  NOW is {{NOW}} in fragments.sql.

-- name: task_progress_set
-- Conditional on the claim, like a heartbeat: refused (0 rows) once it
-- expired or was taken.
UPDATE lq_task
   SET progress = ?3, progress_msg = ?4, progress_at = {{NOW}}, progress_owner = ?2
 WHERE id = ?1 AND claim_owner = ?2
   AND claim_until > {{NOW}};

-- name: task_progress_get
-- Only the progress of the claim that holds the task now: an earlier
-- attempt's or occurrence's is not this run's.
SELECT CASE WHEN progress_owner = claim_owner THEN progress END,
       CASE WHEN progress_owner = claim_owner THEN progress_msg END,
       CASE WHEN progress_owner = claim_owner THEN progress_at END,
       {{NOW}}
  FROM lq_task WHERE id = ?1;

-- name: task_snooze_claim
-- Hand an at-least-once claim back to run again at NOW + ?3, the attempt
-- not counted (as task_release_claim does, with a delay).
UPDATE lq_task
   SET claim_owner = NULL, claim_until = NULL,
       attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END,
       run_at = {{NOW}} + ?3
 WHERE id = ?1 AND claim_owner = ?2;

-- name: task_snooze_occurrence
-- An at-most-once occurrence again at NOW + ?3, unless the next one comes
-- first (the claim moved run_at to it: ?2): never two runs for one.
UPDATE lq_task
   SET run_at = MIN(run_at, {{NOW}} + ?3)
 WHERE id = ?1 AND run_at = ?2;

-- name: run_set_result
-- The result of the run just written in this transaction (run_settled's key).
UPDATE lq_run SET result = ?5
 WHERE task_id = ?1 AND attempt = ?2 AND started_at = ?3 AND worker = ?4;

-- name: run_result
-- The newest stored result of a task, on lq_run_task (task_id, ended_at, id).
SELECT result FROM lq_run
 WHERE task_id = ?1 AND result IS NOT NULL
 ORDER BY ended_at DESC, id DESC
 LIMIT 1;
