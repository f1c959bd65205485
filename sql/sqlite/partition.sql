-- Fair share across partitions (SQLite).  A queue that uses partitions has
-- a row per partition in lq_partition; the claim serves the least recently
-- served one (lower "served" stamp) among those whose head has the top due
-- priority.  '' is the partition of the tasks given none.
-- absent: task_claim_fair_delete no LQ_CAP_CLAIM_RETURNING: task_candidates_fair, then task_claim_*
-- absent: task_claim_fair_update no LQ_CAP_CLAIM_RETURNING, as above
-- absent: task_claim_fair_one_delete no LQ_CAP_CLAIM_RETURNING, as above
-- absent: task_claim_fair_one_update no LQ_CAP_CLAIM_RETURNING, as above
-- absent: task_fair_due_any no LQ_CAP_SKIP_LOCKED: task_candidates_fair sees every head
-- absent: partition_lock_all writers are serialized already
-- absent: task_candidates_fair_one task_candidates_fair's first round stops after ?2 heads already
-- absent: task_candidates_fair_below task_candidates_fair finds the top due priority itself
-- absent: task_candidates_fair_after a handle's turn is one statement (task_claim_fair_turn_*)
-- absent: task_candidates_fair_upto as above
-- absent: task_candidates_fair_after_at as above
-- absent: task_candidates_fair_upto_at as above
-- absent: task_candidates_fair_next_at as above
-- absent: task_candidates_fair_next one writer: no claim holds a row another claim reads
-- absent: task_claim_fair_turn_delete_top the top priority's reads are in-process steps, no round trip: task_claim_fair_turn_delete

-- name: partition_touch
-- The rows of partition ?2 and of the tasks without one (''), in one
-- statement: a task of ?2 needs both.  A new partition is served 0:
-- before those served already.  In name order ('' first), as
-- partition_touch_many, partition_serve and the claims take the rows; a
-- batch add of one partition sends this one too.
INSERT INTO lq_partition (queue, name, served) VALUES (?1, '', 0), (?1, ?2, 0)
ON CONFLICT (queue, name) DO NOTHING;

-- name: partition_touch_many
-- partition_touch of up to 16 partitions of queue ?1 at once (?2..?17,
-- unused places NULL; a batch add's), in name order, as partition_serve
-- and the claims lock the rows.
INSERT INTO lq_partition (queue, name, served)
SELECT ?1, v.nm, 0
  FROM ({{PART_TOUCH_ROWS}}) AS v
 WHERE v.nm IS NOT NULL
 ORDER BY v.nm
ON CONFLICT (queue, name) DO NOTHING;

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
ON CONFLICT (queue, name) DO UPDATE SET served = max(served, excluded.served);

-- name: partition_forget
DELETE FROM lq_partition
 WHERE queue = ?1
   AND NOT EXISTS (SELECT 1 FROM lq_task t INDEXED BY lq_task_part
                    WHERE t.queue = ?1 AND t.part = lq_partition.name);

-- name: task_part_get
SELECT part FROM lq_task WHERE id = ?1;

-- name: task_candidates_fair
-- top: the top priority among the due tasks (SQLITE_FAIR_TOP: from the
-- latest due one up, past the tasks of higher priorities not due yet).  h: per partition, the first due tasks of
-- that priority in (run_at, id) order, one range of lq_task_part each:
-- the head, then (a batch, the recursive part) the next after it, up to
-- ?2 / partitions (rounded up) a partition, so that a batch needs few
-- rounds.  They come in turns: every partition's first by least recently
-- served, then every one's second...  The first round walks
-- lq_partition_served and stops after ?2 heads, so a claim costs O(log n)
-- per task it reads, however many partitions the queue has.
WITH RECURSIVE top (priority) AS ({{SQLITE_FAIR_TOP}}),
st (stamp) AS (SELECT COALESCE(MAX(s.served), 0) FROM lq_partition s WHERE s.queue = ?1),
h (name, ord, id, run_at, rn) AS (
  SELECT f.name, f.served, f.id, f.run_at, 1
    FROM (SELECT p.name, p.served, k.id, k.run_at
            FROM lq_partition p INDEXED BY lq_partition_served
            JOIN lq_task k ON k.id = ({{SQLITE_PART_HEAD_P}})
           WHERE p.queue = ?1
           ORDER BY p.served, p.name LIMIT ?2) f
  UNION ALL
{{SQLITE_FAIR_NEXT}})
{{SQLITE_FAIR_PICKED}};

-- name: task_claim_fair_turn_delete
-- The fair claim of one due one-off task at-most-once, in one statement,
-- for a handle that keeps its own turn (?1 queue, ?2 the partition it
-- served last): the head of the first partition after ?2 in name order
-- that has one of the top due priority, else of the first from the start
-- (SQLITE_TURN_HEAD).  No stamp is written, so the claim needs no
-- transaction.  As task_claim_one_delete, a head it cannot finish
-- (recurring, under a limit) is not returned: the library then claims in
-- the transaction.
WITH top (priority) AS ({{SQLITE_FAIR_TOP}})
DELETE FROM lq_task
 WHERE id = ({{SQLITE_TURN_HEAD}})
   AND {{SQLITE_CLAIM_PLAIN}}
RETURNING {{SQLITE_CLAIMED_COLS}};

-- name: task_claim_fair_turn_update
-- task_claim_fair_turn_delete at-least-once (?3 owner, ?4 claim lease ms).
WITH top (priority) AS ({{SQLITE_FAIR_TOP}})
UPDATE lq_task
   SET claim_owner = ?3, claim_until = {{NOW}} + ?4, attempts = attempts + 1
 WHERE id = ({{SQLITE_TURN_HEAD}})
   AND {{SQLITE_CLAIM_PLAIN}}
RETURNING {{SQLITE_CLAIMED_COLS}};

-- name: task_candidates_fair_turn
-- task_candidates_fair of a batch for a handle that keeps its own turn
-- (?4 the partition it served last; ?3, a priority bound, is not needed
-- here): each round in name order from the first partition after ?4, then
-- round.  The first round walks lq_partition's key after ?4 and then from
-- the start, and stops after ?2 heads.  No stamp (0).
WITH RECURSIVE top (priority) AS ({{SQLITE_FAIR_TOP}}),
st (stamp) AS (SELECT 0),
h (name, ord, id, run_at, rn) AS (
  SELECT f.name, f.wrap, f.id, f.run_at, 1
    FROM (SELECT * FROM (SELECT p.name, 0 AS wrap, k.id, k.run_at
                           FROM lq_partition p
                           JOIN lq_task k ON k.id = ({{SQLITE_PART_HEAD_P}})
                          WHERE p.queue = ?1 AND p.name > ?4
                          ORDER BY p.name LIMIT ?2)
          UNION ALL
          SELECT * FROM (SELECT p.name, 1 AS wrap, k.id, k.run_at
                           FROM lq_partition p
                           JOIN lq_task k ON k.id = ({{SQLITE_PART_HEAD_P}})
                          WHERE p.queue = ?1 AND p.name <= ?4
                          ORDER BY p.name LIMIT ?2)
          LIMIT ?2) f
  UNION ALL
{{SQLITE_FAIR_NEXT}})
{{SQLITE_FAIR_PICKED}};

-- name: task_claim_fair_turn_batch_delete
-- A handle's fair batch in one statement (?1 queue, ?2 limit, ?3 the
-- partition it served last), at-most-once: the first due tasks of the top
-- priority of each partition, up to ?2 / partitions (rounded up) each
-- (SQLITE_TURN_ROUNDS: one range of lq_task_part a partition, not a seek
-- a task); the first ?2 by round, then in name order from the partition
-- after ?3 (SQLITE_TURN_PICK), deleted.  RETURNING gives the
-- changed rows in no order: the library puts them in the turn's order.
-- As task_claim_batch_delete, a head it cannot finish (recurring, under a
-- limit) is left out, and a short batch sends the library to the
-- transaction for the rest.
WITH top (priority) AS ({{SQLITE_FAIR_TOP}}),
{{SQLITE_TURN_ROUNDS}}
DELETE FROM lq_task
 WHERE id IN ({{SQLITE_TURN_PICK}})
   AND {{SQLITE_CLAIM_PLAIN}}
RETURNING {{SQLITE_CLAIMED_COLS}};

-- name: task_claim_fair_turn_batch_update
-- task_claim_fair_turn_batch_delete at-least-once (?4 owner, ?5 claim
-- lease ms).
WITH top (priority) AS ({{SQLITE_FAIR_TOP}}),
{{SQLITE_TURN_ROUNDS}}
UPDATE lq_task
   SET claim_owner = ?4, claim_until = {{NOW}} + ?5, attempts = attempts + 1
 WHERE id IN ({{SQLITE_TURN_PICK}})
   AND {{SQLITE_CLAIM_PLAIN}}
RETURNING {{SQLITE_CLAIMED_COLS}};
