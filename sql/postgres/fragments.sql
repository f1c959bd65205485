-- Fragments (PostgreSQL): text written once here, put in place of {{NAME}}
-- in every statement of this dialect at build time (see cmake/sqlembed.c).

-- NOW: the database clock in epoch milliseconds, from clock_timestamp()
-- (now() is the start of the transaction).
-- fragment: NOW
(extract(epoch FROM clock_timestamp()) * 1000)::bigint

-- CLK: a statement that uses NOW more than once computes it once, in this
-- CTE (WITH {{CLK}}), and reads it as the scalar subquery (SELECT n FROM clk):
-- an uncorrelated InitPlan, so every comparison in the statement sees the
-- same instant and it can still be an index condition (a volatile function
-- call cannot).
-- fragment: CLK
clk(n) AS (SELECT {{NOW}})

-- CLAIM_FREE: the task is unclaimed or its claim has expired, by the clk
-- instant.
-- fragment: CLAIM_FREE
claim_until IS NULL OR claim_until <= (SELECT n FROM clk)

-- CLAIM_FREE_T, CLAIM_FREE_D: the same test of the rows of a statement's
-- "t" (a task) and "d" (a due candidate) aliases.
-- fragment: CLAIM_FREE_T
t.claim_until IS NULL OR t.claim_until <= (SELECT n FROM clk)

-- fragment: CLAIM_FREE_D
d.claim_until IS NULL OR d.claim_until <= (SELECT n FROM clk)

-- DUE_FREE_D: the task of alias d is due, unpaused and free.
-- fragment: DUE_FREE_D
d.run_at <= (SELECT n FROM clk) AND d.paused = 0 AND ({{CLAIM_FREE_D}})

-- PRIORITIES_ABOVE: the CTE up of CLAIM_TOP and FAIR_TOP ($1 queue): the
-- priority p of their CTE a, then each higher priority queue $1 has, one
-- descent of lq_task_claim each, and NULL at the end.
-- fragment: PRIORITIES_ABOVE
up (p) AS (
  SELECT p FROM a
  UNION ALL
  SELECT (SELECT x.priority FROM lq_task x WHERE x.queue = $1::text AND x.priority > up.p
           ORDER BY x.priority LIMIT 1)
    FROM up WHERE up.p IS NOT NULL)

-- CLAIM_TOP: the CTEs a, up and top of a claim of queue $1 (the statement
-- is WITH RECURSIVE and has {{CLK}}): top is the highest priority that
-- has a due, unpaused, free task, none when nothing is due.  The claims
-- walk lq_task_claim (queue, priority DESC, run_at, id) from there down: a
-- walk from the left read every task of a higher priority that is not due
-- yet (100 000 of priority 5 and the due ones at 0: over 500 pages a
-- claim, against 30 to 60).  a: the priority of the latest due task (a
-- descent of lq_task_due from the clock, also the "is anything due?"
-- probe).  No higher priority in the queue (one descent of
-- lq_task_claim): that is top.  Otherwise up walks the higher priorities
-- the queue has, one descent each, and top is the highest with a due free
-- task (a range of lq_task_claim in its order: as EXISTS, PostgreSQL
-- scanned the table for it).  Measured with pgbench (one client, the
-- one-task claim, 80 000 due tasks): the same latency as before within
-- the noise (p10 205 us before, 208 after).
-- fragment: CLAIM_TOP
a (p) AS (
  SELECT d.priority FROM lq_task d
   WHERE d.queue = $1::text AND {{DUE_FREE_D}}
   ORDER BY d.run_at DESC LIMIT 1),
{{PRIORITIES_ABOVE}},
top (p) AS MATERIALIZED (
  SELECT CASE WHEN (SELECT x.priority FROM lq_task x WHERE x.queue = $1::text AND x.priority > a.p
                     ORDER BY x.priority LIMIT 1) IS NULL THEN a.p
              ELSE (SELECT max(up.p) FROM up
                     WHERE up.p = a.p
                        OR (SELECT d.id FROM lq_task d
                             WHERE d.queue = $1::text AND d.priority = up.p AND {{DUE_FREE_D}}
                             ORDER BY d.priority DESC, d.run_at, d.id LIMIT 1) IS NOT NULL) END
    FROM a)

-- CLAIM_CAND_DUE: the start of every cand CTE of queue $1 (CLAIM_ONE_CAND,
-- CLAIM_BATCH_CAND): its due, unpaused, free tasks outside a shut limit,
-- and whether each is plain (a one-off task the one statement may take).
-- fragment: CLAIM_CAND_DUE
SELECT id, (every_ms IS NULL AND cron IS NULL
              AND NOT (claim_owner IS NOT NULL AND attempts >= max_attempts)
              AND ({{LIMITED}}) = 0) AS plain
    FROM lq_task
   {{CLAIM_DUE_WHERE}}

-- CLAIM_DUE_WHERE: which tasks of queue $1 (lq_task, unaliased) a claim
-- may take: due, unpaused, free, outside a shut limit, the queue not
-- paused (task_candidates, CLAIM_CAND_DUE).
-- fragment: CLAIM_DUE_WHERE
WHERE queue = $1::text
     AND run_at <= (SELECT n FROM clk)
     AND paused = 0
     AND ({{CLAIM_FREE}})
     AND ({{LIMIT_OPEN}})
     AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $1::text AND lq_queue.paused = 1)

-- CLAIM_DUE_BOUND: up to $2 of them in claim order from the top due
-- priority (CLAIM_TOP), locked, no more than the due tasks a walk from the
-- clock finds (the plan's bound) (task_candidates, CLAIM_BATCH_CAND).
-- fragment: CLAIM_DUE_BOUND
  AND priority <= (SELECT p FROM top)
 ORDER BY priority DESC, run_at, id
   LIMIT (SELECT count(*) FROM (SELECT 1 FROM lq_task d
                                  WHERE d.queue = $1::text AND {{DUE_FREE_D}}
                                  ORDER BY d.run_at DESC LIMIT $2::bigint) AS due)
     FOR UPDATE SKIP LOCKED

-- CLAIM_BATCH_CAND: the CTE cand of the batch claims (task_claim_batch_*,
-- $2 tasks): the first due candidates, locked (CLAIM_DUE_BOUND).
-- fragment: CLAIM_BATCH_CAND
cand AS (
  {{CLAIM_CAND_DUE}}
   {{CLAIM_DUE_BOUND}})

-- CLAIM_ONE_CAND: the CTE cand of a claim of one task (task_claim_one_*):
-- the first due candidate of queue $1 from the top due priority, locked,
-- and whether it is plain (a one-off task the one statement may take).
-- The statement has {{CLK}} and {{CLAIM_TOP}}; when nothing is due, top
-- is NULL and the walk does not start.
-- fragment: CLAIM_ONE_CAND
cand AS (
  {{CLAIM_CAND_DUE}}
     AND priority <= (SELECT p FROM top)
   ORDER BY priority DESC, run_at, id
   LIMIT 1
     FOR UPDATE SKIP LOCKED)

-- CLAIM_ONE_GONE, CLAIM_ONE_ROWS: task_claim_one_delete's CTEs (cand, and
-- gone: the candidate, deleted if plain) and its result rows, shared with
-- task_claim_one_delete_run, which also marks the run.
-- fragment: CLAIM_ONE_GONE
{{CLAIM_ONE_CAND}},
gone AS (
  DELETE FROM lq_task t
   WHERE t.id = (SELECT id FROM cand WHERE plain)
     AND t.every_ms IS NULL AND t.cron IS NULL
     AND t.run_at <= (SELECT n FROM clk)
     AND t.paused = 0
     AND ({{CLAIM_FREE_T}})
  RETURNING t.*)

-- fragment: CLAIM_ONE_ROWS
SELECT {{CLAIMED_COLS_G}},
       CASE WHEN g.id IS NULL THEN 0 ELSE 1 END
  FROM cand LEFT JOIN gone g ON g.id = cand.id

-- Flow control (lq_limit, see migration 0008); the statement has {{CLK}}.  A limit row l is "shut"
-- when its key has as many live claims as its concurrency, or when its
-- GCRA has no start left in this period: the next start would put the
-- theoretical arrival time past now + one period (all scaled by rate_n).
-- LIMIT_SHUT_KEY: l limits the tasks whose concurrency_key is l.name.
-- fragment: LIMIT_SHUT_KEY
(l.concurrency IS NOT NULL
  AND l.concurrency <= (SELECT count(*) FROM lq_task c
                         WHERE c.concurrency_key = l.name AND c.claim_until > (SELECT n FROM clk)
                           AND c.claim_owner IS NOT NULL))
 OR ({{LIMIT_RATE_SHUT}})

-- LIMIT_SHUT_QUEUE: l ("queue:Q") limits queue $1; a live claim is due
-- (run_at <= now), so the count walks lq_task_due's due range.
-- fragment: LIMIT_SHUT_QUEUE
(l.concurrency IS NOT NULL
  AND l.concurrency <= (SELECT count(*) FROM lq_task c
                         WHERE c.queue = $1::text AND c.run_at <= (SELECT n FROM clk)
                           AND c.claim_until > (SELECT n FROM clk) AND c.claim_owner IS NOT NULL))
 OR ({{LIMIT_RATE_SHUT}})

-- fragment: LIMIT_RATE_SHUT
l.rate_n IS NOT NULL
 AND GREATEST(l.tat, (SELECT n FROM clk) * l.rate_n) + l.rate_period_ms > ((SELECT n FROM clk) + l.rate_period_ms) * l.rate_n

-- LIMIT_TAT_NEXT: the tat after one more start.
-- fragment: LIMIT_TAT_NEXT
CASE WHEN l.rate_n IS NULL THEN l.tat ELSE GREATEST(l.tat, (SELECT n FROM clk) * l.rate_n) + l.rate_period_ms END

-- LIMIT_OPEN: the claim filter of a task row (lq_task, unaliased): no
-- limit on its key is shut.  A task without a key costs one IS NULL test.
-- Saturated keys are skipped, not waited behind, so they never hold back
-- other keys' due tasks.  A queue's own limit ("queue:Q") is not tested
-- here: it holds back every task of the queue alike, so there is no line to
-- jump, and on PostgreSQL its count in the filter made the one-statement
-- claims plan anew on every call (a generic plan priced above the custom
-- ones).  The claim decides again under the limit rows' lock
-- (limit_take_key, limit_take_queue), the queue's limit included.
-- OFFSET 0 keeps the subquery a probe of the key's row: without it the
-- planner hashes it, reading every limit and counting each one's claims.
-- fragment: LIMIT_OPEN
(lq_task.concurrency_key IS NULL
  OR NOT EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = lq_task.concurrency_key AND ({{LIMIT_SHUT_KEY}})
                 OFFSET 0))

-- LIMITED: 1 when a claim of the task must pass the limits (it has a key,
-- or its queue $1 has a limit row), else 0.
-- fragment: LIMITED
CASE WHEN lq_task.concurrency_key IS NOT NULL
       OR EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = 'queue:' || $1::text) THEN 1 ELSE 0 END

-- LIMIT_COLS: the columns of limit_get and limit_list (sql_names.h)
-- of a limit row l; running counts its live claims.
-- fragment: LIMIT_COLS
l.name, l.concurrency, l.rate_n, l.rate_period_ms, l.tat,
       CASE WHEN substr(l.name, 1, 6) = 'queue:'
            THEN (SELECT count(*) FROM lq_task c WHERE c.queue = substr(l.name, 7) AND c.run_at <= (SELECT n FROM clk)
                    AND c.claim_until > (SELECT n FROM clk) AND c.claim_owner IS NOT NULL)
            ELSE (SELECT count(*) FROM lq_task c WHERE c.concurrency_key = l.name
                    AND c.claim_until > (SELECT n FROM clk) AND c.claim_owner IS NOT NULL) END,
       (SELECT n FROM clk)

-- PART_DUE_X: alias x (a task in a partition's head probe) is due,
-- unpaused and unclaimed or its claim expired, by the clk instant, and no
-- limit on its key is shut (LIMIT_OPEN's test): the fair claim's filter.
-- A task under a shut key is skipped, so its partition's other tasks take
-- the partition's turn; one under a limit with room is claimed in it,
-- through the limits' gate (PART_LIMITED_T).
-- fragment: PART_DUE_X
x.run_at <= (SELECT n FROM clk) AND x.paused = 0 AND (x.claim_until IS NULL OR x.claim_until <= (SELECT n FROM clk))
  AND (x.concurrency_key IS NULL
       OR NOT EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = x.concurrency_key AND ({{LIMIT_SHUT_KEY}})
                      OFFSET 0))

-- PART_LIMITED_T: LIMITED of a task row t of any queue: 1 when its claim
-- must pass the limits' gate (its key, or its queue's limit), else 0.
-- fragment: PART_LIMITED_T
CASE WHEN t.concurrency_key IS NOT NULL
       OR EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = 'queue:' || t.queue) THEN 1 ELSE 0 END

-- CLAIMED_COLS_G: TASK_COLS of a claimed row g (a DELETE's or an UPDATE's
-- RETURNING t.*), as every one-statement claim (task.sql, ack_claim.sql,
-- partition.sql) returns it, so that a new column lands in all of them;
-- the claimed flag follows.
-- fragment: CLAIMED_COLS_G
g.id, g.queue, g.name, g.payload, g.run_at, g.attempts, g.max_attempts, g.unique_key,
       g.claim_owner, g.claim_until, g.every_ms, g.cron, g.tz, g.missed, g.paused, g.last_error,
       g.created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), g.priority, g.timeout_ms,
       g.concurrency_key, g.part, 0::bigint

-- FAIR_TOP: the CTEs a, up and top of the fair claims ($1 queue; the
-- statement is WITH RECURSIVE and has {{CLK}}): top is the top priority of
-- the tasks PART_DUE_X lets through, read once.  Not from the front of
-- lq_task_claim: a busy queue's claimed tasks leave dead index entries
-- there until VACUUM, and every claim walked them all (852 pages a claim
-- of 100 in a bench run, as much as the claim itself), and so were the
-- tasks of a higher priority not due yet (100 000 of them: 910 pages a
-- claim).  Instead, as CLAIM_TOP under the fair filter: a, the priority of
-- the latest due task (a descent of lq_task_due from the clock, past the
-- claimed ones); that is the top when the queue has no higher priority
-- (one descent of lq_task_claim); otherwise up walks the higher
-- priorities, and the top is the highest with a task PART_DUE_X lets
-- through.
-- fragment: FAIR_TOP
a (p) AS (
  SELECT x.priority FROM lq_task x
   WHERE x.queue = $1::text AND {{PART_DUE_X}}
   ORDER BY x.run_at DESC, x.id DESC LIMIT 1),
{{PRIORITIES_ABOVE}},
top AS MATERIALIZED (
  SELECT CASE WHEN (SELECT x.priority FROM lq_task x WHERE x.queue = $1::text AND x.priority > a.p
                     ORDER BY x.priority LIMIT 1) IS NULL THEN a.p
              ELSE (SELECT max(up.p) FROM up
                     WHERE up.p = a.p
                        OR (SELECT x.id FROM lq_task x
                             WHERE x.queue = $1::text AND x.priority = up.p AND {{PART_DUE_X}}
                             ORDER BY x.priority DESC, x.run_at, x.id LIMIT 1) IS NOT NULL) END AS priority
    FROM a)

-- FAIR_HEAD_PROBE: the partitions p ($1 queue) and the head h of each
-- one's due tasks of the top priority, locked (skipping what another
-- claimer holds): one range of lq_task_part a partition.
-- fragment: FAIR_HEAD_PROBE
FROM lq_partition p
 CROSS JOIN LATERAL (SELECT x.id FROM lq_task x
                      WHERE x.queue = $1::text AND x.part = p.name
                        AND x.priority = (SELECT priority FROM top)
                        AND {{PART_DUE_X}}
                      ORDER BY x.run_at, x.id LIMIT 1
                        FOR UPDATE SKIP LOCKED) h

-- FAIR_HEAD: the CTE heads of the one-task fair claims ($1 queue): the
-- head (run_at, id) of the least recently served partition
-- (lq_partition_served) among those with a due task of the top priority,
-- locked (skipping what another claimer holds); the nested loop stops at
-- the first partition that has one.  Its LIMITs are constants, so that
-- PostgreSQL keeps a generic plan (as task_claim_one_delete): with the
-- batch's parameter LIMIT in the same statement it planned anew on every
-- call, which cost more than the claim.
-- fragment: FAIR_HEAD
{{FAIR_TOP}},
heads AS (
  SELECT h.id, p.name, 1::bigint AS pos
    {{FAIR_HEAD_PROBE}}
   WHERE p.queue = $1::text
     AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $1::text AND lq_queue.paused = 1)
   ORDER BY p.served, p.name
   LIMIT 1)

-- FAIR_HEADS: the CTEs top and heads of the fair batch claims ($1 queue,
-- $2 limit): the due tasks of the top priority to claim, locked (skipping
-- what another claimer holds), in turns (pos): every partition's first
-- $2 / partitions (rounded up), then every one's first, second... by least
-- recently served, at most $2.  The one-task branch ($2 = 1; the library
-- sends one task to FAIR_HEAD's statements) stays for the plans: the
-- batch branch alone got a generic plan priced past jit_above_cost (its
-- per-partition LIMIT is an expression, guessed at a tenth of a
-- partition), which JIT compiled on every call (60 ms for a 1 ms claim;
-- claim-fair-batch fell from 0.39 to 0.10-0.17).
-- FAIR_ROUND_HEADS: the derived table b of a fair batch ($2 > 1 tasks):
-- each partition's first due tasks of the top priority, up to $2 /
-- partitions (rounded up), one range of lq_task_part each, locked (those
-- another claimer holds skipped), numbered rn within their partition.
-- fragment: FAIR_ROUND_HEADS
(SELECT h.id, p.name, p.served,
        row_number() OVER (PARTITION BY p.name ORDER BY h.run_at, h.id) AS rn
   FROM lq_partition p
  CROSS JOIN LATERAL (SELECT x.id, x.run_at FROM lq_task x
                       WHERE x.queue = $1::text AND x.part = p.name
                         AND x.priority = (SELECT priority FROM top)
                         AND {{PART_DUE_X}}
                       ORDER BY x.run_at, x.id
                       LIMIT (SELECT ($2::bigint + count(*) - 1) / GREATEST(count(*), 1)
                                FROM lq_partition c WHERE c.queue = $1::text)
                         FOR UPDATE SKIP LOCKED) h
  WHERE p.queue = $1::text AND $2::bigint > 1
    AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $1::text AND lq_queue.paused = 1)) b

-- FAIR_HEAD_TURN: FAIR_HEAD for a handle that goes round the partitions
-- itself ($2: the partition it served last): the first partition after $2
-- in name order whose head it can take, else the first from the start
-- (up to $2 itself).  Each branch walks the primary key (queue, name) and
-- stops at its first head; the second runs only when the first finds none
-- (the LIMIT above the UNION ALL stops pulling rows).  No stamp is read.
-- fragment: FAIR_HEAD_TURN
{{FAIR_TOP}},
heads AS (
  SELECT w.id, w.name, 1::bigint AS pos
    FROM ((SELECT h.id, p.name
             {{FAIR_HEAD_PROBE}}
            WHERE p.queue = $1::text AND p.name > $2::text
            ORDER BY p.name
            LIMIT 1)
          UNION ALL
          (SELECT h.id, p.name
             {{FAIR_HEAD_PROBE}}
            WHERE p.queue = $1::text AND p.name <= $2::text
            ORDER BY p.name
            LIMIT 1)) w
   WHERE NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $1::text AND lq_queue.paused = 1)
   LIMIT 1)

-- FAIR_HEADS_TURN: FAIR_HEADS of a batch for a handle that goes round the
-- partitions itself ($3: the partition it served last): the same rounds
-- of heads, each round in name order from the first partition after $3,
-- then round.  No stamp is read.
-- fragment: FAIR_HEADS_TURN
{{FAIR_TOP}},
heads AS (
  SELECT b.id, b.name, row_number() OVER (ORDER BY b.rn, b.name <= $3::text, b.name) AS pos
    FROM {{FAIR_ROUND_HEADS}}
   ORDER BY b.rn, b.name <= $3::text, b.name
   LIMIT $2::bigint)

-- fragment: FAIR_HEADS
{{FAIR_TOP}},
heads AS (
  (SELECT h.id, p.name, 1::bigint AS pos
     {{FAIR_HEAD_PROBE}}
    WHERE p.queue = $1::text AND $2::bigint = 1
      AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $1::text AND lq_queue.paused = 1)
    ORDER BY p.served, p.name
    LIMIT 1)
  UNION ALL
  (SELECT b.id, b.name, row_number() OVER (ORDER BY b.rn, b.served, b.name) AS pos
     FROM {{FAIR_ROUND_HEADS}}
    ORDER BY b.rn, b.served, b.name
    LIMIT $2::bigint))

-- FAIR_GONE_DELETE: the CTE gone of the at-most-once fair claims: the
-- plain heads deleted (FAIR_GONE_WHERE).
-- fragment: FAIR_GONE_DELETE
gone AS (
  DELETE FROM lq_task t
  {{FAIR_GONE_WHERE}}
  RETURNING t.*)

-- FAIR_GONE_WHERE: which heads the fair claims' DELETE or UPDATE (alias
-- t) takes: the plain ones, a one-off task outside every limit (a
-- recurring one, an expired claim on its last attempt, a task under a
-- limit go back with claimed = 0 to the transactional path).  The head
-- probe locked them already: no second lock pass over the heads (it cost
-- a fifth of a one-task claim); the due and free tests are checked again.
-- fragment: FAIR_GONE_WHERE
WHERE t.id = ANY (ARRAY (SELECT id FROM heads))
     AND t.every_ms IS NULL AND t.cron IS NULL
     AND NOT (t.claim_owner IS NOT NULL AND t.attempts >= t.max_attempts)
     AND ({{PART_LIMITED_T}}) = 0
     AND t.run_at <= (SELECT n FROM clk)
     AND t.paused = 0
     AND ({{CLAIM_FREE_T}})

-- FAIR_ROWS: the result of the one-statement fair claims (CTEs heads,
-- gone): TASK_COLS and claimed 0|1 of each head, in turn order; claimed =
-- 0 as in task_claim_batch_delete.
-- fragment: FAIR_ROWS
SELECT {{CLAIMED_COLS_G}},
       CASE WHEN g.id IS NULL THEN 0 ELSE 1 END
  FROM heads h LEFT JOIN gone g ON g.id = h.id
 ORDER BY h.pos

-- FAIR_SERVED: the CTE that stamps the partitions a fair claim served (its
-- CTEs heads and gone): after the highest stamp, by the turn of each one's
-- last task, written in name order.
-- fragment: FAIR_SERVED
served AS (
  INSERT INTO lq_partition (queue, name, served)
  SELECT $1::text, h.name,
         (SELECT COALESCE(max(s.served), 0) FROM lq_partition s WHERE s.queue = $1::text) + max(h.pos)
    FROM heads h JOIN gone g ON g.id = h.id
   GROUP BY h.name
   ORDER BY h.name
  ON CONFLICT (queue, name) DO UPDATE SET served = GREATEST(lq_partition.served, excluded.served))
