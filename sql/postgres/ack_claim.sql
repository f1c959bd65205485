-- Ack one task and claim the next in one statement (PostgreSQL): what an
-- at-least-once worker sends per task.  See lib/ack_claim.c.

-- name: task_ack_claim_one_update
-- task_ack_run of task $1 (claim owner $2, worker $3, started_at $4) and
-- task_claim_one_update of queue $5 for owner $6 with a claim lease of $7 ms,
-- in one statement: one round trip and one transaction.  The ack, its
-- history row and its count are written only if the claim of $1 was still
-- $2's; the claim happens either way.  Every part sees the statement's one
-- snapshot, so the acked row would still look claimable to cand once its
-- claim expired: cand leaves $1 out (the same row must not be written twice
-- in one statement).  The candidate filter is task_claim_one_update's, from
-- the same fragments: a filter added there belongs here too.
-- -> TASK_COLS, claimed (1 claimed, 0 a candidate left to the transactional
-- path, -1 no candidate: the other columns are NULL), acked (0|1) on every row.
WITH {{CLK}},
acked AS (DELETE FROM lq_task WHERE id = $1::bigint AND claim_owner = $2::text
      RETURNING id, run_at, queue, name, attempts),
run AS (INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome)
      SELECT id, run_at, queue, name, $3::text, attempts, $4::bigint, (SELECT n FROM clk), 'done' FROM acked
      RETURNING id, queue, name),
counted AS (INSERT INTO lq_counter (metric, queue, name, shard, n)
      SELECT 'run_done', queue, name, id % 8, 1 FROM run
      ON CONFLICT (metric, queue, name, shard) DO UPDATE SET n = lq_counter.n + 1),
cand AS (
  SELECT id, (every_ms IS NULL AND cron IS NULL
              AND NOT (claim_owner IS NOT NULL AND attempts >= max_attempts)) AS plain
    FROM lq_task
   WHERE queue = $5::text
     AND id <> $1::bigint
     AND run_at <= (SELECT n FROM clk)
     AND paused = 0
     AND ({{CLAIM_FREE}})
     AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $5::text AND lq_queue.paused = 1)
     AND (SELECT d.run_at FROM lq_task d
           WHERE d.queue = $5::text AND d.run_at <= (SELECT n FROM clk)
             AND d.paused = 0
             AND ({{CLAIM_FREE_D}})
           ORDER BY d.run_at DESC LIMIT 1) IS NOT NULL
   ORDER BY priority DESC, run_at, id
   LIMIT 1
     FOR UPDATE SKIP LOCKED),
took AS (
  UPDATE lq_task t
     SET claim_owner = $6::text, claim_until = (SELECT n FROM clk) + $7::bigint,
         attempts = t.attempts + 1
   WHERE t.id = (SELECT id FROM cand WHERE plain)
     AND t.every_ms IS NULL AND t.cron IS NULL
     AND t.run_at <= (SELECT n FROM clk)
     AND t.paused = 0
     AND ({{CLAIM_FREE_T}})
  RETURNING t.*)
SELECT g.id, g.queue, g.name, g.payload, g.run_at, g.attempts, g.max_attempts, g.unique_key,
       g.claim_owner, g.claim_until, g.every_ms, g.cron, g.tz, g.missed, g.paused, g.last_error,
       g.created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), g.priority, g.timeout_ms,
       CASE WHEN g.id IS NOT NULL THEN 1 WHEN cand.id IS NOT NULL THEN 0 ELSE -1 END,
       (SELECT count(*) FROM run)::bigint
  FROM (SELECT 1) AS one
  LEFT JOIN (cand LEFT JOIN took g ON g.id = cand.id) ON true;
