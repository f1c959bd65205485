-- Fragments (SQLite): text written once here, put in place of {{NAME}} in
-- every statement of this dialect at build time (see cmake/sqlembed.c).

-- NOW: the database clock in epoch milliseconds.  julianday('now') is fixed
-- for the whole statement, so every comparison in one statement sees the
-- same instant.
-- fragment: NOW
CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)

-- CLAIM_FREE: the task is unclaimed or its claim has expired.
-- fragment: CLAIM_FREE
claim_until IS NULL OR claim_until <= {{NOW}}

-- SQLITE_CLAIM_WALK: task_candidates' walk of queue ?1 (lq_task_claim from
-- the left: due, free, neither the task nor its queue paused), in claim
-- order.
-- fragment: SQLITE_CLAIM_WALK
FROM lq_task INDEXED BY lq_task_claim
 WHERE queue = ?1
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}})
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)
 ORDER BY priority DESC, run_at, id

-- SQLITE_DUE_WALK: the claimable due tasks of queue ?1 on lq_task_due; a
-- count of them, up to the batch size, bounds the walk as in
-- task_candidates, so it never reads on through tasks not due yet.
-- fragment: SQLITE_DUE_WALK
FROM lq_task d INDEXED BY lq_task_due
 WHERE d.queue = ?1 AND d.run_at <= {{NOW}}
   AND d.paused = 0
   AND (d.claim_until IS NULL OR d.claim_until <= {{NOW}})

-- SQLITE_CLAIM_PLAIN: the claim's own check of each row it changes: a
-- one-off task, still due, free and not paused, not an expired claim on
-- its last attempt (that one is buried by the transactional path).
-- fragment: SQLITE_CLAIM_PLAIN
every_ms IS NULL AND cron IS NULL
   AND NOT (claim_owner IS NOT NULL AND attempts >= max_attempts)
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}})

-- SQLITE_CLAIMED_COLS: TASK_COLS of a claimed row, then claimed = 1.
-- fragment: SQLITE_CLAIMED_COLS
id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
          claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
          created_at, 0, NULL, {{NOW}}, priority, timeout_ms, 1
