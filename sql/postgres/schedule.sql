-- Steering recurring tasks (PostgreSQL): policies, edit, run-now, resume,
-- cancel-previous and the dead-man check.  NOW is {{NOW}} in fragments.sql.

-- name: task_steer_set
UPDATE lq_task SET overlap = $2::bigint, catch_up = $3::bigint, alert_after_ms = $4::bigint WHERE id = $1::bigint;

-- name: task_steer_get
SELECT overlap, catch_up, next_at FROM lq_task WHERE id = $1::bigint;

-- name: task_edit_schedule
-- The new schedule takes over from the occurrence the editor saw (run_at
-- = the second parameter), so a claim of that occurrence and the edit exclude each other.  An
-- occurrence under a live at-least-once claim keeps running: its ack then
-- moves run_at to next_at, the new schedule's first occurrence.
UPDATE lq_task
   SET every_ms = $3::bigint, cron = $4::text, tz = $5::text,
       next_at = CASE WHEN claim_owner IS NOT NULL AND claim_until > {{NOW}} THEN $6::bigint ELSE NULL END,
       run_at = CASE WHEN claim_owner IS NOT NULL AND claim_until > {{NOW}} THEN run_at ELSE $6::bigint END,
       attempts = CASE WHEN claim_owner IS NOT NULL AND claim_until > {{NOW}} THEN attempts ELSE 0 END,
       claim_owner = CASE WHEN claim_until > {{NOW}} THEN claim_owner ELSE NULL END,
       claim_until = CASE WHEN claim_owner IS NOT NULL AND claim_until > {{NOW}} THEN claim_until ELSE NULL END,
       preempt_at = NULL
 WHERE id = $1::bigint AND run_at = $2::bigint AND (every_ms IS NOT NULL OR cron IS NOT NULL);

-- name: task_run_extra
-- One extra occurrence now: the regular one waits in next_at and the next
-- move of run_at goes back to it.  Only while nothing is due or running.
UPDATE lq_task
   SET next_at = run_at, run_at = {{NOW}}
 WHERE id = $1::bigint AND (every_ms IS NOT NULL OR cron IS NOT NULL)
   AND paused = 0 AND run_at > {{NOW}} AND next_at IS NULL;

-- name: task_resume_at
UPDATE lq_task SET paused = 0, run_at = $3::bigint WHERE id = $1::bigint AND run_at = $2::bigint AND paused = 1;

-- name: task_set_preempt
UPDATE lq_task SET preempt_at = $3::bigint WHERE id = $1::bigint AND claim_owner = $2::text;

-- name: task_preempt
-- cancel-previous: the successor of the claimed occurrence is due, so the
-- claim is revoked (its ack is refused) and run_at moves to the successor.
UPDATE lq_task
   SET run_at = COALESCE(next_at, preempt_at), claim_owner = NULL, claim_until = NULL,
       attempts = 0, next_at = NULL, preempt_at = NULL, last_error = $3::text
 WHERE id = $1::bigint AND claim_owner = $2::text AND preempt_at <= {{NOW}};

-- name: task_preempt_mark
-- The revoked claim is remembered as a cancel's is, for as long as the
-- holder's claim could have run on (its TTL from now), so that its ack and
-- fail say "cancelled" (LQ_REVOKED) rather than "lost".
INSERT INTO lq_task_cancel (task_id, claim_owner, claim_until, cancelled_at, reason)
VALUES ($1::bigint, $2::text, {{NOW}} + $3::bigint, {{NOW}}, $4::text)
ON CONFLICT (task_id, claim_owner) DO UPDATE
   SET claim_until = EXCLUDED.claim_until, cancelled_at = EXCLUDED.cancelled_at, reason = EXCLUDED.reason;

-- name: task_mark_success
UPDATE lq_task SET last_success_at = {{NOW}} WHERE id = $1::bigint;

-- name: schedule_list
SELECT {{SCHEDULE_COLS}}
  FROM lq_task
 WHERE (every_ms IS NOT NULL OR cron IS NOT NULL)
   AND ($1::bigint IS NULL OR id = $1::bigint)
 ORDER BY id;

-- name: schedule_alerts
-- schedule_list of the schedules with a dead-man bound, by lq_task_alert
-- (no scan of the task table: /metrics reads it at every scrape).
SELECT {{SCHEDULE_COLS}}
  FROM lq_task
 WHERE alert_after_ms IS NOT NULL
 ORDER BY alert_after_ms, id;
