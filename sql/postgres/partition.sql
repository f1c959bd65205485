-- Fair share across partitions (PostgreSQL).  A queue that uses partitions
-- has a row per partition in lq_partition; the claim serves the least
-- recently served one (lower "served" stamp) among those whose head has the
-- top due priority.  '' is the partition of the tasks given none.
-- absent: partition_lock_all a batch reads its heads with FOR UPDATE SKIP LOCKED in the claim statement
-- absent: task_candidates_fair_one one task is claimed by one statement (task_claim_fair_one_*)
-- absent: task_candidates_fair_below task_candidates_fair finds the top due priority itself
-- absent: task_candidates_fair_after a handle's turn is one statement (task_claim_fair_turn_*)
-- absent: task_candidates_fair_upto as above
-- absent: task_candidates_fair_after_at as above
-- absent: task_candidates_fair_upto_at as above
-- absent: task_candidates_fair_next_at as above
-- absent: task_candidates_fair_next a lateral range per partition skips locked tasks (task_claim_fair_*)
-- absent: task_candidates_fair_turn a handle's batch is one statement (task_claim_fair_turn_batch_*)

-- name: partition_touch
-- The rows of partition $2 and of the tasks without one (''), in one
-- statement: a task of $2 needs both.  A new partition is served 0:
-- before those served already.  In name order ('' first), as
-- partition_touch_many, partition_serve and the claims take the rows; a
-- batch add of one partition sends this one too.
INSERT INTO lq_partition (queue, name, served) VALUES ($1::text, '', 0), ($1::text, $2::text, 0)
ON CONFLICT (queue, name) DO NOTHING;

-- name: partition_touch_many
-- partition_touch of up to 16 partitions of queue $1 at once ($2..$17,
-- unused places NULL; a batch add's), in name order, as partition_serve
-- and the claims lock the rows.
INSERT INTO lq_partition (queue, name, served)
SELECT $1::text, v.nm, 0
  FROM (VALUES (''),
               ($2::text),
               ($3::text),
               ($4::text),
               ($5::text),
               ($6::text),
               ($7::text),
               ($8::text),
               ($9::text),
               ($10::text),
               ($11::text),
               ($12::text),
               ($13::text),
               ($14::text),
               ($15::text),
               ($16::text),
               ($17::text)) AS v (nm)
 WHERE v.nm IS NOT NULL
 ORDER BY v.nm
ON CONFLICT (queue, name) DO NOTHING;

-- name: partition_any
SELECT EXISTS (SELECT 1 FROM lq_partition WHERE queue = $1::text)::int;

-- name: partition_serve
-- The stamps of up to 16 partitions a claim served ($2, $3 the first
-- partition and its stamp, $4, $5 the second...; unused places NULL), in
-- one statement, in the order given (name order: two claimers lock the
-- rows in the same order); served only rises.  An upsert: a partition
-- forgotten while one of its tasks was added comes back with its first
-- claim.
INSERT INTO lq_partition (queue, name, served)
SELECT $1::text, v.nm, v.st
  FROM (VALUES ($2::text, $3::bigint),
               ($4::text, $5::bigint),
               ($6::text, $7::bigint),
               ($8::text, $9::bigint),
               ($10::text, $11::bigint),
               ($12::text, $13::bigint),
               ($14::text, $15::bigint),
               ($16::text, $17::bigint),
               ($18::text, $19::bigint),
               ($20::text, $21::bigint),
               ($22::text, $23::bigint),
               ($24::text, $25::bigint),
               ($26::text, $27::bigint),
               ($28::text, $29::bigint),
               ($30::text, $31::bigint),
               ($32::text, $33::bigint)) AS v (nm, st)
 WHERE v.nm IS NOT NULL
ON CONFLICT (queue, name) DO UPDATE SET served = GREATEST(lq_partition.served, excluded.served);

-- name: partition_forget
DELETE FROM lq_partition p
 WHERE p.queue = $1::text
   AND NOT EXISTS (SELECT 1 FROM lq_task t WHERE t.queue = $1::text AND t.part = p.name);

-- name: task_part_get
SELECT part FROM lq_task WHERE id = $1::bigint;

-- name: task_candidates_fair
-- top: the top priority among the due tasks (FAIR_TOP, from the latest
-- due one up).  Then per partition, least recently served
-- first (lq_partition_served), the head of its due tasks of that priority:
-- one range of lq_task_part each, locked and skipped if another claimer
-- holds it, so a claim costs O(log n) per partition it looks at, and the
-- nested loop stops after $2 heads.
WITH RECURSIVE {{CLK}},
{{FAIR_TOP}}
SELECT t.id, t.queue, t.name, t.payload, t.run_at, t.attempts, t.max_attempts, t.unique_key,
       t.claim_owner, t.claim_until, t.every_ms, t.cron, t.tz, t.missed, t.paused, t.last_error,
       t.created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), t.priority, t.timeout_ms, t.concurrency_key, t.part,
       {{PART_LIMITED_T}}, p.name,
       (SELECT COALESCE(max(s.served), 0) FROM lq_partition s WHERE s.queue = $1::text)
  FROM lq_partition p
 CROSS JOIN top
 CROSS JOIN LATERAL (SELECT * FROM lq_task x
                      WHERE x.queue = $1::text AND x.part = p.name AND x.priority = top.priority
                        AND {{PART_DUE_X}}
                      ORDER BY x.run_at, x.id LIMIT 1
                        FOR UPDATE SKIP LOCKED) t
 WHERE p.queue = $1::text
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $1::text AND lq_queue.paused = 1)
 ORDER BY p.served, p.name
 LIMIT $2::bigint;

-- name: task_fair_due_any
-- Whether task_candidates_fair would find a head but for the locks: when
-- it found none, racing claimers hold every due task of the top priority
-- (the claim is lost to them, not a reason for the plain order) or no
-- partition has one.  Read without a lock.
WITH RECURSIVE {{CLK}},
{{FAIR_TOP}}
SELECT (EXISTS (SELECT 1 FROM lq_partition p
                  JOIN lq_task x ON x.queue = $1::text AND x.part = p.name
                 WHERE p.queue = $1::text
                   AND x.priority = (SELECT priority FROM top)
                   AND {{PART_DUE_X}})
        AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $1::text AND lq_queue.paused = 1))::int;

-- name: task_claim_fair_delete
-- The fair claim of up to $2 due one-off tasks at-most-once in one round
-- trip, one task a partition (a round; the library runs rounds until the
-- batch is full), as task_claim_batch_delete claims in plain order.
-- heads: the heads of the least recently served partitions (FAIR_HEADS),
-- locked (skipping what another claimer holds); gone deletes the plain
-- one-off ones, and the partitions served get stamps after the
-- highest one in their turn's order, written in name order (two claimers
-- lock lq_partition rows in the same order).  Rows come back in turn
-- order; claimed = 0 as in task_claim_batch_delete.
WITH RECURSIVE {{CLK}},
{{FAIR_HEADS}},
{{FAIR_GONE_DELETE}},
{{FAIR_SERVED}}
{{FAIR_ROWS}};

-- name: task_claim_fair_update
-- task_claim_fair_delete at-least-once, for owner $3 with a claim lease of
-- $4 ms, as task_claim_batch_update.
WITH RECURSIVE {{CLK}},
{{FAIR_HEADS}},
gone AS (
  UPDATE lq_task t
     SET claim_owner = $3::text, claim_until = (SELECT n FROM clk) + $4::bigint,
         attempts = t.attempts + 1
  {{FAIR_GONE_WHERE}}
  RETURNING t.*),
{{FAIR_SERVED}}
{{FAIR_ROWS}};

-- name: task_claim_fair_one_delete
-- task_claim_fair_delete of one task ($1 queue), with constant LIMITs
-- (FAIR_HEAD): a plan PostgreSQL keeps generic.
WITH RECURSIVE {{CLK}},
{{FAIR_HEAD}},
{{FAIR_GONE_DELETE}},
{{FAIR_SERVED}}
{{FAIR_ROWS}};

-- name: task_claim_fair_one_update
-- task_claim_fair_update of one task ($1 queue, $2 owner, $3 claim lease
-- ms), as task_claim_fair_one_delete.
WITH RECURSIVE {{CLK}},
{{FAIR_HEAD}},
gone AS (
  {{CLAIM_FOR_OWNER}}
  {{FAIR_GONE_WHERE}}
  RETURNING t.*),
{{FAIR_SERVED}}
{{FAIR_ROWS}};

-- name: task_claim_fair_turn_delete
-- task_claim_fair_one_delete for a handle that keeps its own turn ($1
-- queue, $2 the partition it served last): the head of the next partition
-- in name order (FAIR_HEAD_TURN), and no stamp written, so that claimers
-- at the same moment neither pick the same least recently served
-- partition nor queue on its row.
WITH RECURSIVE {{CLK}},
{{FAIR_HEAD_TURN}},
{{FAIR_GONE_DELETE}}
{{FAIR_ROWS}};

-- name: task_claim_fair_turn_delete_top
-- task_claim_fair_turn_delete from priority $3, the priority of the task
-- the handle's last claim of queue $1 took a moment ago, instead of
-- FAIR_TOP's reads (FAIR_TOP_KNOWN), as task_claim_one_delete_top.  No row
-- when a higher priority has come or $3 has no head to take: the library
-- then sends task_claim_fair_turn_delete.
WITH RECURSIVE {{CLK}},
{{FAIR_TOP_KNOWN}},
{{FAIR_TURN_HEADS}},
{{FAIR_GONE_DELETE}}
{{FAIR_ROWS}};

-- name: task_claim_fair_turn_update
-- task_claim_fair_turn_delete at-least-once ($3 owner, $4 claim lease ms).
WITH RECURSIVE {{CLK}},
{{FAIR_HEAD_TURN}},
gone AS (
  UPDATE lq_task t
     SET claim_owner = $3::text, claim_until = (SELECT n FROM clk) + $4::bigint,
         attempts = t.attempts + 1
  {{FAIR_GONE_WHERE}}
  RETURNING t.*)
{{FAIR_ROWS}};

-- name: task_claim_fair_turn_batch_delete
-- task_claim_fair_delete for a handle that keeps its own turn ($3 the
-- partition it served last): its rounds of heads start after $3 in name
-- order (FAIR_HEADS_TURN), and no stamp is written: batches at the same
-- moment do not queue on the partition rows to stamp them.
WITH RECURSIVE {{CLK}},
{{FAIR_HEADS_TURN}},
{{FAIR_GONE_DELETE}}
{{FAIR_ROWS}};

-- name: task_claim_fair_turn_batch_update
-- task_claim_fair_turn_batch_delete at-least-once ($4 owner, $5 claim
-- lease ms).
WITH RECURSIVE {{CLK}},
{{FAIR_HEADS_TURN}},
gone AS (
  UPDATE lq_task t
     SET claim_owner = $4::text, claim_until = (SELECT n FROM clk) + $5::bigint,
         attempts = t.attempts + 1
  {{FAIR_GONE_WHERE}}
  RETURNING t.*)
{{FAIR_ROWS}};
