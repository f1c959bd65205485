-- Steering recurring tasks (MySQL/MariaDB): policies, edit, run-now, resume,
-- cancel-previous and the dead-man check.  NOW is {{NOW}} in fragments.sql.
-- MySQL assigns SET columns left to right: a column is read before it is
-- reassigned.

-- name: task_steer_set
UPDATE lq_task SET overlap = ?2, catch_up = ?3, alert_after_ms = ?4 WHERE id = ?1;

-- name: task_steer_get
SELECT overlap, catch_up, next_at FROM lq_task WHERE id = ?1;

-- name: task_edit_schedule
-- The new schedule takes over from the occurrence the editor saw (run_at
-- = ?2), so a claim of that occurrence and the edit exclude each other.  An
-- occurrence under a live at-least-once claim keeps running: its ack then
-- moves run_at to next_at, the new schedule's first occurrence.
UPDATE lq_task
   SET every_ms = ?3, cron = ?4, tz = ?5,
       next_at = CASE WHEN claim_owner IS NOT NULL AND claim_until > {{NOW}} THEN ?6 ELSE NULL END,
       run_at = CASE WHEN claim_owner IS NOT NULL AND claim_until > {{NOW}} THEN run_at ELSE ?6 END,
       attempts = CASE WHEN claim_owner IS NOT NULL AND claim_until > {{NOW}} THEN attempts ELSE 0 END,
       claim_owner = CASE WHEN claim_until > {{NOW}} THEN claim_owner ELSE NULL END,
       claim_until = CASE WHEN claim_owner IS NOT NULL AND claim_until > {{NOW}} THEN claim_until ELSE NULL END,
       preempt_at = NULL
 WHERE id = ?1 AND run_at = ?2 AND (every_ms IS NOT NULL OR cron IS NOT NULL);

-- name: task_run_extra
-- One extra occurrence now: the regular one waits in next_at and the next
-- move of run_at goes back to it.  Only while nothing is due or running.
UPDATE lq_task
   SET next_at = run_at, run_at = {{NOW}}
 WHERE id = ?1 AND (every_ms IS NOT NULL OR cron IS NOT NULL)
   AND paused = 0 AND run_at > {{NOW}} AND next_at IS NULL;

-- name: task_resume_at
UPDATE lq_task SET paused = 0, run_at = ?3 WHERE id = ?1 AND run_at = ?2 AND paused = 1;

-- name: task_set_preempt
UPDATE lq_task SET preempt_at = ?3 WHERE id = ?1 AND claim_owner = ?2;

-- name: task_preempt
-- cancel-previous: the successor of the claimed occurrence is due, so the
-- claim is revoked (its ack is refused) and run_at moves to the successor.
UPDATE lq_task
   SET run_at = COALESCE(next_at, preempt_at), claim_owner = NULL, claim_until = NULL,
       attempts = 0, next_at = NULL, preempt_at = NULL, last_error = ?3
 WHERE id = ?1 AND claim_owner = ?2 AND preempt_at <= {{NOW}};

-- name: task_preempt_mark
-- The revoked claim is remembered as a cancel's is, for as long as the
-- holder's claim could have run on (its TTL from now), so that its ack and
-- fail say "cancelled" (LQ_REVOKED) rather than "lost".
INSERT INTO lq_task_cancel (task_id, claim_owner, claim_until, cancelled_at, reason)
VALUES (?1, ?2, {{NOW}} + ?3, {{NOW}}, ?4)
ON DUPLICATE KEY UPDATE
       claim_until = VALUES(claim_until), cancelled_at = VALUES(cancelled_at), reason = VALUES(reason);

-- name: task_mark_success
UPDATE lq_task SET last_success_at = {{NOW}} WHERE id = ?1;

-- name: schedule_list
SELECT {{SCHEDULE_COLS}}
  FROM lq_task
 WHERE (every_ms IS NOT NULL OR cron IS NOT NULL)
   AND (?1 IS NULL OR id = ?1)
 ORDER BY id;

-- name: schedule_alerts
-- schedule_list of the schedules with a dead-man bound, by lq_task_alert
-- (no scan of the task table: /metrics reads it at every scrape).
SELECT {{SCHEDULE_COLS}}
  FROM lq_task
 WHERE alert_after_ms IS NOT NULL
 ORDER BY alert_after_ms, id;
