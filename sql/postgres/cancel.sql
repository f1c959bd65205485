-- Cancelling tasks (PostgreSQL).  The cancel is one transaction: read the
-- task FOR UPDATE (a racing ack or claim waits for it, then finds it gone),
-- remember a live claim, delete the task, write its "cancelled" run.
-- lq_task_cancel keeps revoked claims so that the worker holding one hears
-- "cancelled" at its next heartbeat, ack or fail, instead of "lost".

-- name: task_cancel_get
WITH {{CLK}}
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), priority, timeout_ms,
       concurrency_key, 0::bigint
  FROM lq_task WHERE id = $1::bigint
   FOR UPDATE OF lq_task;

-- name: task_cancel_mark
INSERT INTO lq_task_cancel (task_id, claim_owner, claim_until, cancelled_at, reason)
VALUES ($1::bigint, $2::text, $3::bigint, {{NOW}}, $4::text)
ON CONFLICT DO NOTHING;

-- name: task_cancel_sweep
-- A revoked claim past its end would be "lost" anyway.
DELETE FROM lq_task_cancel WHERE claim_until <= {{NOW}};

-- name: task_cancel_check
SELECT reason FROM lq_task_cancel WHERE task_id = $1::bigint AND claim_owner = $2::text;
