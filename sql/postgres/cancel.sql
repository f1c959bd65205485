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
       concurrency_key, part, 0::bigint
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

-- At-most-once runs that can be cancelled (lq_task_running, migration 13):
-- the claim that deleted the task writes the row in its transaction; the
-- heartbeat renews it, the run's end and a cancel delete it.

-- name: task_running_insert
INSERT INTO lq_task_running (task_id, claim_owner, claim_until, queue, name, run_at, attempts, started_at)
VALUES ($1::bigint, $2::text, {{NOW}} + $3::bigint, $4::text, $5::text, $6::bigint, $7::integer, $8::bigint)
ON CONFLICT (task_id) DO UPDATE
   SET claim_owner = excluded.claim_owner, claim_until = excluded.claim_until,
       queue = excluded.queue, name = excluded.name, run_at = excluded.run_at,
       attempts = excluded.attempts, started_at = excluded.started_at;

-- name: task_running_beat
-- Not conditional on claim_until: only this run's owner renews its row,
-- and a late beat before the sweep merely keeps the run cancellable.
UPDATE lq_task_running SET claim_until = {{NOW}} + $3::bigint
 WHERE task_id = $1::bigint AND claim_owner = $2::text;

-- name: task_running_end
DELETE FROM lq_task_running WHERE task_id = $1::bigint AND claim_owner = $2::text;

-- name: task_running_get
SELECT claim_owner, claim_until, queue, name, run_at, attempts::bigint, started_at, {{NOW}}
  FROM lq_task_running WHERE task_id = $1::bigint
   FOR UPDATE;

-- name: task_running_sweep
-- A crashed worker's run: past its end nobody can stop it any more.
DELETE FROM lq_task_running WHERE claim_until <= {{NOW}};

-- name: task_running_list
-- The live runs (claim_until ahead of the database clock; a crashed
-- worker's row past it is swept by the next claim or cancel), of queue $1
-- (NULL: every queue) or of task $2 (0: every task), by start.
WITH {{CLK}}
SELECT task_id, claim_owner, claim_until, queue, name, run_at, attempts::bigint, started_at,
       (SELECT n FROM clk)
  FROM lq_task_running
 WHERE claim_until > (SELECT n FROM clk)
   AND ($1::text IS NULL OR queue = $1::text)
   AND ($2::bigint = 0 OR task_id = $2::bigint)
 ORDER BY started_at, task_id;

-- name: task_claim_one_delete_run
-- task_claim_one_delete that also marks the run of the task it deletes, in
-- the same statement: ($1 queue, $2 owner, $3 claim_ttl).
WITH RECURSIVE {{CLK}},
{{CLAIM_TOP}},
{{CLAIM_ONE_GONE}},
ran AS (
  INSERT INTO lq_task_running (task_id, claim_owner, claim_until, queue, name, run_at, attempts, started_at)
  SELECT g.id, $2::text, (SELECT n FROM clk) + $3::bigint, g.queue, g.name, g.run_at, g.attempts,
         (SELECT n FROM clk)
    FROM gone g
  ON CONFLICT (task_id) DO UPDATE
     SET claim_owner = excluded.claim_owner, claim_until = excluded.claim_until,
         queue = excluded.queue, name = excluded.name, run_at = excluded.run_at,
         attempts = excluded.attempts, started_at = excluded.started_at)
{{CLAIM_ONE_ROWS}};
