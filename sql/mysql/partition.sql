-- Fair share across partitions (MySQL/MariaDB).  A queue that uses
-- partitions has a row per partition in lq_partition; the claim serves the
-- least recently served one (lower "served" stamp) among those whose head
-- has the top due priority.  '' is the partition of the tasks given none.
-- absent: task_claim_fair_delete no LQ_CAP_CLAIM_RETURNING: task_candidates_fair, then task_claim_*
-- absent: task_claim_fair_update no LQ_CAP_CLAIM_RETURNING, as above
-- absent: task_claim_fair_one_delete no LQ_CAP_CLAIM_RETURNING, as above
-- absent: task_claim_fair_one_update no LQ_CAP_CLAIM_RETURNING, as above
-- absent: task_claim_fair_turn_delete no LQ_CAP_CLAIM_RETURNING: task_candidates_fair_after / _upto
-- absent: task_claim_fair_turn_delete_top as above
-- absent: task_claim_fair_turn_update as above
-- absent: task_claim_fair_turn_batch_delete no LQ_CAP_CLAIM_RETURNING: task_candidates_fair
-- absent: task_claim_fair_turn_batch_update as above

-- name: partition_touch
-- The rows of partition ?2 and of the tasks without one (''), in one
-- statement: a task of ?2 needs both.  A new partition is served 0:
-- before those served already.  In name order ('' first), as
-- partition_touch_many, partition_serve and the claims take the rows; a
-- batch add of one partition sends this one too.
INSERT IGNORE INTO lq_partition (queue, name, served) VALUES (?1, '', 0), (?1, ?2, 0);

-- name: partition_touch_many
-- partition_touch of up to 16 partitions of queue ?1 at once (?2..?17,
-- unused places NULL; a batch add's), in name order, as partition_serve
-- and the claims lock the rows.  Not in place of partition_touch for a
-- single add or a batch of one partition: MariaDB materializes the
-- derived table, 48-60 us of server time a statement against 10 for
-- partition_touch's two-row VALUES.
INSERT IGNORE INTO lq_partition (queue, name, served)
SELECT ?1, v.nm, 0
  FROM ({{PART_TOUCH_ROWS}}) AS v
 WHERE v.nm IS NOT NULL
 ORDER BY v.nm;

-- name: partition_any
SELECT EXISTS (SELECT 1 FROM lq_partition WHERE queue = ?1);

-- name: partition_serve
-- The stamps of up to 16 partitions a claim served (?2, ?3 the first
-- partition and its stamp, ?4, ?5 the second...; unused places NULL), in
-- one statement, in the order given (name order: two claimers lock the
-- rows in the same order); served only rises.  An upsert: a partition
-- forgotten while one of its tasks was added comes back with its first
-- claim.
INSERT INTO lq_partition (queue, name, served)
SELECT ?1, v.nm, v.st
  FROM ({{PART_SERVE_ROWS}}) AS v
 WHERE v.nm IS NOT NULL
ON DUPLICATE KEY UPDATE served = GREATEST(lq_partition.served, VALUES(served));

-- name: partition_lock_all
-- A fair claim of several tasks waits here for the one before it: every
-- partition row of queue ?1 locked, in name order as partition_serve locks
-- them.  Its heads are read without locks (task_candidates_fair), so two
-- batches at once read the same heads, and the second found every one
-- locked by the first and went round again (a fifth of the plain batch's
-- rate at four claimers).  Waiting, it reads the heads the first one left.
SELECT name FROM lq_partition WHERE queue = ?1 ORDER BY name FOR UPDATE;

-- name: partition_forget
DELETE FROM lq_partition
 WHERE queue = ?1
   AND NOT EXISTS (SELECT 1 FROM lq_task t FORCE INDEX (lq_task_part)
                    WHERE t.queue = ?1 AND t.part = lq_partition.name);

-- name: task_part_get
SELECT part FROM lq_task WHERE id = ?1;

-- FAIR_TOP_D: the top due priority's probe of task_candidates_fair and
-- its variants (alias d), without its ORDER BY and LIMIT: a variant adds a
-- bound on the priority before them.
-- fragment: FAIR_TOP_D
SELECT d.priority FROM lq_task d FORCE INDEX (lq_task_claim)
 WHERE d.queue = ?1 AND {{PART_DUE_D}} AND {{CLAIMABLE_DUE}}

-- FAIR_HEAD_COLS: the columns of a one-task fair read of task t in
-- partition p: TASK_COLS, LIMITED, the partition, the highest stamp.
-- fragment: FAIR_HEAD_COLS
SELECT t.id, t.queue, t.name, t.payload, t.run_at, t.attempts, t.max_attempts, t.unique_key,
       t.claim_owner, t.claim_until, t.every_ms, t.cron, t.tz, t.missed, t.paused, t.last_error,
       t.created_at, 0, NULL, {{NOW}}, t.priority, t.timeout_ms, t.concurrency_key, t.part,
       {{PART_LIMITED_T}}, p.name,
       (SELECT COALESCE(MAX(s.served), 0) FROM lq_partition s WHERE s.queue = ?1)

-- FAIR_TURN_SELECT: task_candidates_fair_after and _upto but for the
-- test that anything is due, the range of partitions, its order, LIMIT and
-- lock (the stamp column is 0).
-- fragment: FAIR_TURN_SELECT
SELECT t.id, t.queue, t.name, t.payload, t.run_at, t.attempts, t.max_attempts, t.unique_key,
       t.claim_owner, t.claim_until, t.every_ms, t.cron, t.tz, t.missed, t.paused, t.last_error,
       t.created_at, 0, NULL, {{NOW}}, t.priority, t.timeout_ms, t.concurrency_key, t.part,
       {{PART_LIMITED_T}}, p.name, 0
  FROM lq_partition p FORCE INDEX (PRIMARY)
  JOIN lq_task t ON t.id = ({{PART_HEAD_P}})
 WHERE p.queue = ?1
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)

-- FAIR_TURN_AT: FAIR_TURN_SELECT of priority ?2 alone (its CTE top), while
-- no task of a higher priority is in the queue.
-- fragment: FAIR_TURN_AT
WITH top AS (SELECT ?2 AS priority)
{{FAIR_TURN_SELECT}}
   AND NOT EXISTS (SELECT 1 FROM lq_task h FORCE INDEX (lq_task_claim) WHERE h.queue = ?1 AND h.priority > ?2)

-- FAIR_ROUNDS: task_candidates_fair after its CTE top (below), but for
-- its LIMIT and lock.
-- fragment: FAIR_ROUNDS
{{FAIR_ROUNDS_H}}
 ORDER BY h.rn, h.served, h.name

-- FAIR_ROUNDS_H: FAIR_ROUNDS but for its ORDER BY.
-- fragment: FAIR_ROUNDS_H
h (name, served, id, run_at, rn) AS (
  SELECT p.name, p.served, k.id, k.run_at, 1
    FROM lq_partition p
    JOIN lq_task k ON k.id = ({{PART_HEAD_P}})
   WHERE p.queue = ?1 AND {{CLAIMABLE_DUE}}
  UNION ALL
  SELECT h.name, h.served, k.id, k.run_at, h.rn + 1
    FROM h
    JOIN lq_task k ON k.id = (SELECT x.id FROM lq_task x FORCE INDEX (lq_task_part)
                               WHERE x.queue = ?1 AND x.part = h.name
                                 AND x.priority = (SELECT priority FROM top)
                                 AND x.run_at >= h.run_at AND (x.run_at > h.run_at OR x.id > h.id)
                                 AND {{PART_DUE_X}}
                               ORDER BY x.run_at, x.id LIMIT 1)
   WHERE h.rn < (SELECT (?2 + COUNT(*) - 1) DIV GREATEST(COUNT(*), 1) FROM lq_partition c WHERE c.queue = ?1))
SELECT t.id, t.queue, t.name, t.payload, t.run_at, t.attempts, t.max_attempts, t.unique_key,
       t.claim_owner, t.claim_until, t.every_ms, t.cron, t.tz, t.missed, t.paused, t.last_error,
       t.created_at, 0, NULL, {{NOW}}, t.priority, t.timeout_ms, t.concurrency_key, t.part,
       {{PART_LIMITED_T}}, h.name,
       (SELECT COALESCE(MAX(s.served), 0) FROM lq_partition s WHERE s.queue = ?1)
  FROM h
  JOIN lq_task t ON t.id = h.id
 WHERE NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)

-- name: task_candidates_fair
-- top: the top priority among the due tasks (lq_task_claim from the left,
-- read once, without a lock).  h: per partition, the first due tasks of
-- that priority in (run_at, id) order, one lq_task_part seek
-- each: the head, then (a batch, the recursive part) the next after it,
-- up to ?2 / partitions (rounded up) a partition, so a batch needs few
-- rounds.  They come in turns: every partition's first by least recently
-- served, then every one's second...  h is read without a lock (MariaDB
-- takes none in a derived table, and as one its lq_partition rows are not
-- locked either), and its tasks are then locked, skipping those another
-- claimer holds, so racing claimers take the next tasks instead of all
-- waiting on one and losing it.  On a server without SKIP LOCKED the
-- backend drops the last line, as for task_candidates_at.  When the
-- CLAIMABLE_DUE probe finds nothing, neither top nor h is read: top's walk
-- of lq_task_claim would otherwise read on through every task not due yet.
WITH RECURSIVE top AS ({{FAIR_TOP_D}} ORDER BY d.priority DESC LIMIT 1),
{{FAIR_ROUNDS}}
 LIMIT ?2
 FOR UPDATE SKIP LOCKED;

-- name: task_candidates_fair_below
-- task_candidates_fair with ?3, a bound on the priority (found by stepping
-- down with task_priority_step): top's walk of lq_task_claim starts there.
-- From the left it read every task of a higher priority not due yet
-- (100 000 of them: 26 ms a fair batch of 100).
WITH RECURSIVE top AS ({{FAIR_TOP_D}} AND d.priority <= ?3 ORDER BY d.priority DESC LIMIT 1),
{{FAIR_ROUNDS}}
 LIMIT ?2
 FOR UPDATE SKIP LOCKED;

-- name: task_candidates_fair_one
-- task_candidates_fair's first row, for a claim of one task.  That one
-- read every partition's head and sorted them; this walks lq_partition in
-- served order (lq_partition_served, no sort) and probes the head of each
-- until one has a due task of the top priority, so it stops at the first
-- partition that has one.  The partition's row is locked with its head,
-- skipping those other claimers hold: a racing claimer passes on to the
-- next partition, and the stamp that follows writes a row this
-- transaction holds already.  ?2 bounds the top priority as in
-- task_candidates_fair_below (the highest there is, for none).
WITH top AS ({{FAIR_TOP_D}} AND d.priority <= ?2 ORDER BY d.priority DESC LIMIT 1)
{{FAIR_HEAD_COLS}}
  FROM lq_partition p FORCE INDEX (lq_partition_served)
  JOIN lq_task t ON t.id = ({{PART_HEAD_P}})
 WHERE p.queue = ?1 AND {{CLAIMABLE_DUE}}
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)
 ORDER BY p.served, p.name
 LIMIT 1
 FOR UPDATE SKIP LOCKED;

-- name: task_candidates_fair_next
-- A one-task fair claim's read when task_candidates_fair_after, _upto or
-- _one found no head it could lock (?2 the priority bound, ?3 the
-- partition the handle served last, '' for none): the second due task of
-- the top priority of the first partition after ?3 in name order, then
-- round, that no other claimer holds.  Those reads lock each partition's
-- row with its head, so a partition whose head a claim held was skipped
-- whole, and with more claimers than partitions the others came back
-- empty (16 claimers, 10 partitions: 0.27-0.37 of the raw claim's rate,
-- 3.7 statements a claim).  The partitions are read as a derived table
-- (DISTINCT: not merged into the locking read), so only the task is
-- locked, in the partitions' order, and the read stops at the first.
WITH top AS ({{FAIR_TOP_D}} AND d.priority <= ?2 ORDER BY d.priority DESC LIMIT 1)
{{FAIR_HEAD_COLS}}
  FROM (SELECT DISTINCT c.name FROM lq_partition c WHERE c.queue = ?1) p
  JOIN lq_task t ON t.id = (SELECT x.id FROM lq_task x FORCE INDEX (lq_task_part)
                             WHERE x.queue = ?1 AND x.part = p.name
                               AND x.priority = (SELECT priority FROM top)
                               AND {{PART_DUE_X}}
                             ORDER BY x.run_at, x.id LIMIT 1 OFFSET 1)
 WHERE {{CLAIMABLE_DUE}}
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)
 ORDER BY p.name <= ?3, p.name
 LIMIT 1
 FOR UPDATE SKIP LOCKED;

-- name: task_candidates_fair_next_at
-- task_candidates_fair_next of priority ?2 alone, as
-- task_candidates_fair_after_at: where the handle's turn found every head
-- held by other claimers, the next tasks without the walk and the probe.
WITH top AS (SELECT ?2 AS priority)
{{FAIR_HEAD_COLS}}
  FROM (SELECT DISTINCT c.name FROM lq_partition c WHERE c.queue = ?1) p
  JOIN lq_task t ON t.id = (SELECT x.id FROM lq_task x FORCE INDEX (lq_task_part)
                             WHERE x.queue = ?1 AND x.part = p.name
                               AND x.priority = ?2
                               AND {{PART_DUE_X}}
                             ORDER BY x.run_at, x.id LIMIT 1 OFFSET 1)
 WHERE NOT EXISTS (SELECT 1 FROM lq_task h FORCE INDEX (lq_task_claim) WHERE h.queue = ?1 AND h.priority > ?2)
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)
 ORDER BY p.name <= ?3, p.name
 LIMIT 1
 FOR UPDATE SKIP LOCKED;

-- name: task_fair_due_any
-- Whether task_candidates_fair would find a head but for the locks: when
-- it found none, racing claimers hold every head (the claim is lost to
-- them, not a reason for the plain order) or no partition has a due task
-- of the top priority.  Read without a lock, one range of lq_task_part a
-- partition until one has a due task, and none when the CLAIMABLE_DUE
-- probe finds no due task at all.
SELECT {{CLAIMABLE_DUE}} AND EXISTS (
         SELECT 1 FROM lq_partition p
           JOIN lq_task x FORCE INDEX (lq_task_part) ON x.queue = ?1 AND x.part = p.name
          WHERE p.queue = ?1
            AND x.priority = (SELECT d.priority FROM lq_task d FORCE INDEX (lq_task_claim)
                               WHERE d.queue = ?1 AND {{PART_DUE_D}}
                               ORDER BY d.priority DESC LIMIT 1)
            AND {{PART_DUE_X}})
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1);

-- name: task_candidates_fair_after
-- task_candidates_fair_one for a handle that keeps its own turn (?3 the
-- partition it served last): the partitions after ?3 in name order (the
-- primary key, no sort), each head probed until one is due, its row and
-- the partition's locked, skipping those other claimers hold.  No stamp
-- is read or written after it.
WITH top AS ({{FAIR_TOP_D}} AND d.priority <= ?2 ORDER BY d.priority DESC LIMIT 1)
{{FAIR_TURN_SELECT}}
   AND {{CLAIMABLE_DUE}}
   AND p.name > ?3
 ORDER BY p.name
 LIMIT 1
 FOR UPDATE SKIP LOCKED;

-- name: task_candidates_fair_upto
-- task_candidates_fair_after from the first partition up to ?3 itself:
-- the turn goes round when no partition after ?3 has a head.
WITH top AS ({{FAIR_TOP_D}} AND d.priority <= ?2 ORDER BY d.priority DESC LIMIT 1)
{{FAIR_TURN_SELECT}}
   AND {{CLAIMABLE_DUE}}
   AND p.name <= ?3
 ORDER BY p.name
 LIMIT 1
 FOR UPDATE SKIP LOCKED;

-- name: task_candidates_fair_after_at
-- task_candidates_fair_after of a queue whose highest priority, ?2, had a
-- due task when the handle last claimed there: that priority's heads
-- alone, neither the top due priority's walk of lq_task_claim nor the
-- CLAIMABLE_DUE probe first.  Both stepped over the index entries of the
-- tasks claimed before, which InnoDB keeps until its purge has run; behind
-- a busy queue they were most of a fair claim (bench -w claim-fair, 4
-- clients: 0.70-0.75 of the raw claim with them, 1.49-1.51 without).  Each
-- partition's head probe ends with ?2's due tasks.  No row when a task of
-- a higher priority has come since, or when no partition after ?3 has a
-- head of ?2 free: the library then reads as before.
{{FAIR_TURN_AT}}
   AND p.name > ?3
 ORDER BY p.name
 LIMIT 1
 FOR UPDATE SKIP LOCKED;

-- name: task_candidates_fair_upto_at
-- task_candidates_fair_after_at from the first partition up to ?3 itself.
{{FAIR_TURN_AT}}
   AND p.name <= ?3
 ORDER BY p.name
 LIMIT 1
 FOR UPDATE SKIP LOCKED;

-- name: task_candidates_fair_turn
-- task_candidates_fair_below of a batch for a handle that keeps its own
-- turn (?4 the partition it served last): each round in name order from
-- the first partition after ?4, then round.  Its stamps are not written.
WITH RECURSIVE top AS ({{FAIR_TOP_D}} AND d.priority <= ?3 ORDER BY d.priority DESC LIMIT 1),
{{FAIR_ROUNDS_H}}
 ORDER BY h.rn, h.name <= ?4, h.name
 LIMIT ?2
 FOR UPDATE SKIP LOCKED;
