-- Cancelling tasks (SQLite).  The cancel is one BEGIN IMMEDIATE
-- transaction: read the task, remember a live claim, delete the task,
-- write its "cancelled" run.  lq_task_cancel keeps revoked claims so that
-- the worker holding one hears "cancelled" at its next heartbeat, ack or
-- fail, instead of "lost".

-- name: task_cancel_get
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0, NULL, {{NOW}}, priority, timeout_ms,
       concurrency_key, part, 0
  FROM lq_task WHERE id = ?1;

-- name: task_cancel_mark
INSERT INTO lq_task_cancel (task_id, claim_owner, claim_until, cancelled_at, reason)
VALUES (?1, ?2, ?3, {{NOW}}, ?4)
ON CONFLICT DO NOTHING;

-- name: task_cancel_sweep
-- A revoked claim past its end would be "lost" anyway.
DELETE FROM lq_task_cancel WHERE claim_until <= {{NOW}};

-- name: task_cancel_check
SELECT reason FROM lq_task_cancel WHERE task_id = ?1 AND claim_owner = ?2;

-- At-most-once runs that can be cancelled (lq_task_running, migration 12):
-- the claim that deleted the task writes the row in its transaction; the
-- heartbeat renews it, the run's end and a cancel delete it.

-- absent: task_claim_one_delete_run the claim's transaction marks the run (task_running_insert)

-- name: task_running_insert
INSERT INTO lq_task_running (task_id, claim_owner, claim_until, queue, name, run_at, attempts, started_at)
VALUES (?1, ?2, {{NOW}} + ?3, ?4, ?5, ?6, ?7, ?8)
ON CONFLICT (task_id) DO UPDATE
   SET claim_owner = excluded.claim_owner, claim_until = excluded.claim_until,
       queue = excluded.queue, name = excluded.name, run_at = excluded.run_at,
       attempts = excluded.attempts, started_at = excluded.started_at;

-- name: task_running_beat
-- Not conditional on claim_until: only this run's owner renews its row,
-- and a late beat before the sweep merely keeps the run cancellable.
UPDATE lq_task_running SET claim_until = {{NOW}} + ?3
 WHERE task_id = ?1 AND claim_owner = ?2;

-- name: task_running_end
DELETE FROM lq_task_running WHERE task_id = ?1 AND claim_owner = ?2;

-- name: task_running_get
SELECT claim_owner, claim_until, queue, name, run_at, attempts, started_at, {{NOW}}
  FROM lq_task_running WHERE task_id = ?1;

-- name: task_running_sweep
-- A crashed worker's run: past its end nobody can stop it any more.
DELETE FROM lq_task_running WHERE claim_until <= {{NOW}};

-- name: task_running_list
-- The live runs (claim_until ahead of the database clock; a crashed
-- worker's row past it is swept by the next claim or cancel), of queue ?1
-- (NULL: every queue) or of task ?2 (0: every task), by start.
SELECT task_id, claim_owner, claim_until, queue, name, run_at, attempts, started_at, {{NOW}}
  FROM lq_task_running
 WHERE claim_until > {{NOW}}
   AND (?1 IS NULL OR queue = ?1)
   AND (?2 = 0 OR task_id = ?2)
 ORDER BY started_at, task_id;
