-- Cancelling tasks (MySQL/MariaDB).  The cancel is one transaction: read
-- the task FOR UPDATE (a racing ack or claim waits for it), remember a live
-- claim, delete the task, write its "cancelled" run.  lq_task_cancel keeps
-- revoked claims so that the worker holding one hears "cancelled" at its
-- next heartbeat, ack or fail, instead of "lost".

-- name: task_cancel_get
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0, NULL, {{NOW}}, priority, timeout_ms,
       concurrency_key, 0
  FROM lq_task WHERE id = ?1
   FOR UPDATE;

-- name: task_cancel_mark
INSERT IGNORE INTO lq_task_cancel (task_id, claim_owner, claim_until, cancelled_at, reason)
VALUES (?1, ?2, ?3, {{NOW}}, ?4);

-- name: task_cancel_sweep
-- A revoked claim past its end would be "lost" anyway.
DELETE FROM lq_task_cancel WHERE claim_until <= {{NOW}};

-- name: task_cancel_check
SELECT reason FROM lq_task_cancel WHERE task_id = ?1 AND claim_owner = ?2;
