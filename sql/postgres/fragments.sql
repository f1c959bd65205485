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

-- LEASE_UPSERT: insert the lease ($1 name, $2 owner, $3 ttl) if absent, or
-- take it over if it has expired (token + 1), on the clk instant; the
-- statement adds its RETURNING.  ON CONFLICT locks the existing row before
-- its WHERE runs, so of two racing takers one sees the other's expires_at.
-- fragment: LEASE_UPSERT
INSERT INTO lq_lease AS l (name, owner, token, acquired_at, expires_at)
SELECT $1::text, $2::text, 1, n, n + $3::bigint FROM clk
ON CONFLICT (name) DO UPDATE
   SET owner = EXCLUDED.owner, token = l.token + 1,
       acquired_at = EXCLUDED.acquired_at, expires_at = EXCLUDED.expires_at
 WHERE l.expires_at <= EXCLUDED.acquired_at

-- QUEUE_ARG, BATCH_ARG: a claim's queue ($1) and batch size ($2), read
-- through a one-time subquery (an InitPlan) so that the planner cannot see
-- their values.  A custom plan that saw them was priced from the queue's
-- statistics and the exact batch, the generic plan from guesses; where the
-- custom plans came out cheaper PostgreSQL kept planning every call anew,
-- and planning a claim of 100 (0.5 ms) cost more than running it.  With
-- the values hidden, both are priced alike and the generic plan is kept
-- after the first five; it is still an index condition.
-- fragment: QUEUE_ARG
(SELECT $1::text)

-- fragment: BATCH_ARG
(SELECT $2::bigint)

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
  SELECT (SELECT x.priority FROM lq_task x WHERE x.queue = {{QUEUE_ARG}} AND x.priority > up.p
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
   WHERE d.queue = {{QUEUE_ARG}} AND {{DUE_FREE_D}}
   ORDER BY d.run_at DESC LIMIT 1),
{{PRIORITIES_ABOVE}},
top (p) AS MATERIALIZED (
  SELECT CASE WHEN (SELECT x.priority FROM lq_task x WHERE x.queue = {{QUEUE_ARG}} AND x.priority > a.p
                     ORDER BY x.priority LIMIT 1) IS NULL THEN a.p
              ELSE (SELECT max(up.p) FROM up
                     WHERE up.p = a.p
                        OR (SELECT d.id FROM lq_task d
                             WHERE d.queue = {{QUEUE_ARG}} AND d.priority = up.p AND {{DUE_FREE_D}}
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
WHERE queue = {{QUEUE_ARG}}
     AND run_at <= (SELECT n FROM clk)
     AND paused = 0
     AND ({{CLAIM_FREE}})
     AND ({{LIMIT_OPEN}})
     AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = {{QUEUE_ARG}} AND lq_queue.paused = 1)

-- CLAIM_DUE_BOUND: up to $2 of them in claim order from the top due
-- priority (CLAIM_TOP), locked, no more than the due tasks a walk from the
-- clock finds (the plan's bound) (task_candidates, CLAIM_BATCH_CAND).
-- fragment: CLAIM_DUE_BOUND
  AND priority <= (SELECT p FROM top)
 ORDER BY priority DESC, run_at, id
   LIMIT (SELECT count(*) FROM (SELECT 1 FROM lq_task d
                                  WHERE d.queue = {{QUEUE_ARG}} AND {{DUE_FREE_D}}
                                  ORDER BY d.run_at DESC LIMIT {{BATCH_ARG}}) AS due)
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

-- CLAIM_ONE_TOP_CAND: CLAIM_ONE_CAND of task_claim_one_delete_top: the
-- first due candidate of priority $2 alone, a range of lq_task_claim that
-- ends where that priority's due tasks end, while queue $1 has no task of
-- a higher priority (a one-time filter: one descent of lq_task_claim; as a
-- CTE of its own the claim took 4 % longer).
-- fragment: CLAIM_ONE_TOP_CAND
cand AS (
  {{CLAIM_CAND_DUE}}
     AND priority = $2::integer
     AND (SELECT x.priority FROM lq_task x WHERE x.queue = {{QUEUE_ARG}} AND x.priority > $2::integer
           ORDER BY x.priority LIMIT 1) IS NULL
   ORDER BY priority DESC, run_at, id
   LIMIT 1
     FOR UPDATE SKIP LOCKED)

-- CLAIM_ONE_GONE, CLAIM_ONE_ROWS: task_claim_one_delete's CTEs (cand, and
-- gone: the candidate, deleted if plain, CLAIM_ONE_DELETE) and its result
-- rows, shared with task_claim_one_delete_run, which also marks the run,
-- and with task_claim_one_delete_top.
-- fragment: CLAIM_ONE_GONE
{{CLAIM_ONE_CAND}},
{{CLAIM_ONE_DELETE}}

-- CLAIM_PLAIN_WHERE: which row (alias t) a claim's write takes: the
-- candidate of cand if plain, still a due, unpaused, free one-off task
-- (CLAIM_ONE_DELETE, task_claim_one_update, ACK_CLAIM_TOOK).
-- fragment: CLAIM_PLAIN_WHERE
WHERE t.id = (SELECT id FROM cand WHERE plain)
     AND t.every_ms IS NULL AND t.cron IS NULL
     AND t.run_at <= (SELECT n FROM clk)
     AND t.paused = 0
     AND ({{CLAIM_FREE_T}})

-- fragment: CLAIM_ONE_DELETE
gone AS (
  DELETE FROM lq_task t
   {{CLAIM_PLAIN_WHERE}}
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
                         WHERE c.queue = {{QUEUE_ARG}} AND c.run_at <= (SELECT n FROM clk)
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
       OR EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = 'queue:' || {{QUEUE_ARG}}) THEN 1 ELSE 0 END

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

-- PART_LIMITED_T: LIMITED of a task row t of queue $1: 1 when its claim
-- must pass the limits' gate (its key, or the queue's limit), else 0.
-- The queue's limit row is looked up by $1, once a statement: by t.queue
-- it was a probe of lq_limit per row, a tenth of a fair batch.
-- fragment: PART_LIMITED_T
CASE WHEN t.concurrency_key IS NOT NULL
       OR EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = 'queue:' || {{QUEUE_ARG}}) THEN 1 ELSE 0 END

-- CLAIMED_COLS_G: TASK_COLS of a claimed row g (a DELETE's or an UPDATE's
-- RETURNING t.*), as every one-statement claim (task.sql, ack_claim.sql,
-- partition.sql) returns it, so that a new column lands in all of them
-- (and in CLAIMED_COLS_GM); the claimed flag follows.
-- fragment: CLAIMED_COLS_G
g.id, g.queue, g.name, g.payload, g.run_at, g.attempts, g.max_attempts, g.unique_key,
       g.claim_owner, g.claim_until, g.every_ms, g.cron, g.tz, g.missed, g.paused, g.last_error,
       g.created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), g.priority, g.timeout_ms,
       g.concurrency_key, g.part, 0::bigint

-- CLAIMED_COLS_GM: CLAIMED_COLS_G of task_claim_one_delete, whose head
-- is either deleted (g) or an occurrence moved on (m, whose run_at is the
-- next one: the occurrence's own is cand's).  At most one of g and m has
-- a row, so each COALESCE is that row's value.
-- fragment: CLAIMED_COLS_GM
COALESCE(g.id, m.id), COALESCE(g.queue, m.queue), COALESCE(g.name, m.name),
       COALESCE(g.payload, m.payload), COALESCE(g.run_at, cand.run_at),
       COALESCE(g.attempts, m.attempts), COALESCE(g.max_attempts, m.max_attempts),
       COALESCE(g.unique_key, m.unique_key), COALESCE(g.claim_owner, m.claim_owner),
       COALESCE(g.claim_until, m.claim_until), COALESCE(g.every_ms, m.every_ms),
       COALESCE(g.cron, m.cron), COALESCE(g.tz, m.tz), COALESCE(g.missed, m.missed),
       COALESCE(g.paused, m.paused), COALESCE(g.last_error, m.last_error),
       COALESCE(g.created_at, m.created_at), 0::bigint, NULL::bigint, (SELECT n FROM clk),
       COALESCE(g.priority, m.priority), COALESCE(g.timeout_ms, m.timeout_ms),
       COALESCE(g.concurrency_key, m.concurrency_key), COALESCE(g.part, m.part), 0::bigint

-- CLAIM_OCC: the candidate (task_claim_one_delete's cand: due, free, its
-- limits' flag read) is an interval
-- occurrence an at-most-once claim moves on in the one statement: no cron
-- to evaluate, no claim, no steering set (overlap policy, a run-now's or
-- an edit's next_at), outside every limit, and on time or with a catch-up
-- of one (once: the default; skip moves on without running, more runs
-- several: the transaction decides those).
-- fragment: CLAIM_OCC
every_ms IS NOT NULL AND cron IS NULL AND claim_owner IS NULL
     AND overlap = 0 AND next_at IS NULL
     AND limited = 0
     AND (run_at + every_ms > (SELECT n FROM clk)
          OR CASE WHEN catch_up IS NULL OR catch_up < 0 THEN 1 - missed ELSE catch_up END = 1)

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
   WHERE x.queue = {{QUEUE_ARG}} AND {{PART_DUE_X}}
   ORDER BY x.run_at DESC, x.id DESC LIMIT 1),
{{PRIORITIES_ABOVE}},
top AS MATERIALIZED (
  SELECT CASE WHEN (SELECT x.priority FROM lq_task x WHERE x.queue = {{QUEUE_ARG}} AND x.priority > a.p
                     ORDER BY x.priority LIMIT 1) IS NULL THEN a.p
              ELSE (SELECT max(up.p) FROM up
                     WHERE up.p = a.p
                        OR (SELECT x.id FROM lq_task x
                             WHERE x.queue = {{QUEUE_ARG}} AND x.priority = up.p AND {{PART_DUE_X}}
                             ORDER BY x.priority DESC, x.run_at, x.id LIMIT 1) IS NOT NULL) END AS priority
    FROM a)

-- FAIR_HEAD_PROBE: the partitions p ($1 queue) and the head h of each
-- one's due tasks of the top priority, locked (skipping what another
-- claimer holds): one range of lq_task_part a partition.
-- fragment: FAIR_HEAD_PROBE
FROM lq_partition p
 CROSS JOIN LATERAL (SELECT x.id FROM lq_task x
                      WHERE x.queue = {{QUEUE_ARG}} AND x.part = p.name
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
   WHERE p.queue = {{QUEUE_ARG}}
     AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = {{QUEUE_ARG}} AND lq_queue.paused = 1)
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
                       WHERE x.queue = {{QUEUE_ARG}} AND x.part = p.name
                         AND x.priority = (SELECT priority FROM top)
                         AND {{PART_DUE_X}}
                       ORDER BY x.run_at, x.id
                       LIMIT (SELECT ({{BATCH_ARG}} + count(*) - 1) / GREATEST(count(*), 1)
                                FROM lq_partition c WHERE c.queue = {{QUEUE_ARG}})
                         FOR UPDATE SKIP LOCKED) h
  WHERE p.queue = {{QUEUE_ARG}} AND {{BATCH_ARG}} > 1
    AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = {{QUEUE_ARG}} AND lq_queue.paused = 1)) b

-- FAIR_HEAD_TURN: FAIR_HEAD for a handle that goes round the partitions
-- itself ($2: the partition it served last): the first partition after $2
-- in name order whose head it can take, else the first from the start
-- (up to $2 itself).  Each branch walks the primary key (queue, name) and
-- stops at its first head; the second runs only when the first finds none
-- (the LIMIT above the UNION ALL stops pulling rows).  No stamp is read.
-- fragment: FAIR_HEAD_TURN
{{FAIR_TOP}},
{{FAIR_TURN_HEADS}}

-- FAIR_TURN_HEADS: the CTE heads of FAIR_HEAD_TURN, after a CTE top.
-- fragment: FAIR_TURN_HEADS
heads AS (
  SELECT w.id, w.name, 1::bigint AS pos
    FROM ((SELECT h.id, p.name
             {{FAIR_HEAD_PROBE}}
            WHERE p.queue = {{QUEUE_ARG}} AND p.name > $2::text
            ORDER BY p.name
            LIMIT 1)
          UNION ALL
          (SELECT h.id, p.name
             {{FAIR_HEAD_PROBE}}
            WHERE p.queue = {{QUEUE_ARG}} AND p.name <= $2::text
            ORDER BY p.name
            LIMIT 1)) w
   WHERE NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = {{QUEUE_ARG}} AND lq_queue.paused = 1)
   LIMIT 1)

-- FAIR_TOP_KNOWN: the CTE top of task_claim_fair_turn_delete_top: $3,
-- the priority of the task the handle's last claim of queue $1 took,
-- while the queue has no task of a higher priority (one descent of
-- lq_task_claim; else no row, and no head is read).
-- fragment: FAIR_TOP_KNOWN
top AS MATERIALIZED (
  SELECT $3::integer AS priority
   WHERE (SELECT x.priority FROM lq_task x WHERE x.queue = {{QUEUE_ARG}} AND x.priority > $3::integer
           ORDER BY x.priority LIMIT 1) IS NULL)

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
   LIMIT {{BATCH_ARG}})

-- fragment: FAIR_HEADS
{{FAIR_TOP}},
heads AS (
  (SELECT h.id, p.name, 1::bigint AS pos
     {{FAIR_HEAD_PROBE}}
    WHERE p.queue = {{QUEUE_ARG}} AND {{BATCH_ARG}} = 1
      AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = {{QUEUE_ARG}} AND lq_queue.paused = 1)
    ORDER BY p.served, p.name
    LIMIT 1)
  UNION ALL
  (SELECT b.id, b.name, row_number() OVER (ORDER BY b.rn, b.served, b.name) AS pos
     FROM {{FAIR_ROUND_HEADS}}
    ORDER BY b.rn, b.served, b.name
    LIMIT {{BATCH_ARG}}))

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
         (SELECT COALESCE(max(s.served), 0) FROM lq_partition s WHERE s.queue = {{QUEUE_ARG}}) + max(h.pos)
    FROM heads h JOIN gone g ON g.id = h.id
   GROUP BY h.name
   ORDER BY h.name
  ON CONFLICT (queue, name) DO UPDATE SET served = GREATEST(lq_partition.served, excluded.served))

-- TASK_INSERT_INS: the CTE ins of task_insert and task_insert_notify (CTE
-- clk before it): the task of $1..$15 inserted, its id and run_at; no row
-- when its unique key is taken.
-- fragment: TASK_INSERT_INS
ins AS (
  INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                       every_ms, cron, tz, missed, created_at, priority, timeout_ms,
                       concurrency_key, part)
  SELECT $1::text, $2::text, $3::bytea, COALESCE($4::bigint, n + $5::bigint), $6::bigint,
         $7::text, $8::bigint, $9::text, $10::text, $11::bigint, n, $12::integer, $13::bigint,
         $14::text, COALESCE($15::text, '')
    FROM clk
  ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL DO NOTHING
  RETURNING id, run_at)

-- TASK_PART_TOUCH: the CTE of task_insert and task_insert_notify that
-- gives a task of partition $15 (NULL: none) in queue $1 the rows of its
-- partition and of the tasks without one, as partition_touch does, when
-- the CTE ins inserted it (a data-modifying CTE runs whether or not the
-- statement reads it).
-- fragment: TASK_PART_TOUCH
touch AS (
  INSERT INTO lq_partition (queue, name, served)
  SELECT $1::text, v.name, 0
    FROM (VALUES ($15::text), ('')) AS v (name)
   WHERE $15::text IS NOT NULL AND EXISTS (SELECT 1 FROM ins)
  ON CONFLICT (queue, name) DO NOTHING)

-- PG_SET_IDS: 100 ids ($1..$100, unused places NULL, which match nothing),
-- as task_claim_delete_set and task_set_part_set take them.
-- fragment: PG_SET_IDS
$1::bigint, $2::bigint, $3::bigint, $4::bigint, $5::bigint, $6::bigint,
$7::bigint, $8::bigint, $9::bigint, $10::bigint, $11::bigint, $12::bigint,
$13::bigint, $14::bigint, $15::bigint, $16::bigint, $17::bigint,
$18::bigint, $19::bigint, $20::bigint, $21::bigint, $22::bigint,
$23::bigint, $24::bigint, $25::bigint, $26::bigint, $27::bigint,
$28::bigint, $29::bigint, $30::bigint, $31::bigint, $32::bigint,
$33::bigint, $34::bigint, $35::bigint, $36::bigint, $37::bigint,
$38::bigint, $39::bigint, $40::bigint, $41::bigint, $42::bigint,
$43::bigint, $44::bigint, $45::bigint, $46::bigint, $47::bigint,
$48::bigint, $49::bigint, $50::bigint, $51::bigint, $52::bigint,
$53::bigint, $54::bigint, $55::bigint, $56::bigint, $57::bigint,
$58::bigint, $59::bigint, $60::bigint, $61::bigint, $62::bigint,
$63::bigint, $64::bigint, $65::bigint, $66::bigint, $67::bigint,
$68::bigint, $69::bigint, $70::bigint, $71::bigint, $72::bigint,
$73::bigint, $74::bigint, $75::bigint, $76::bigint, $77::bigint,
$78::bigint, $79::bigint, $80::bigint, $81::bigint, $82::bigint,
$83::bigint, $84::bigint, $85::bigint, $86::bigint, $87::bigint,
$88::bigint, $89::bigint, $90::bigint, $91::bigint, $92::bigint,
$93::bigint, $94::bigint, $95::bigint, $96::bigint, $97::bigint,
$98::bigint, $99::bigint, $100::bigint

-- PG_INSERT_MANY: the INSERT of task_insert_many (CTE clk the clock).
-- fragment: PG_INSERT_MANY
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms)
SELECT v.q, v.nm, v.pl, COALESCE(v.ra, clk.n + v.dl), v.ma, v.uk, v.ev, v.cr, v.tz, v.mi,
       clk.n, v.pr, v.tm
  FROM clk, (VALUES
       (1, $1::text, $2::text, $3::bytea, $4::bigint, $5::bigint, $6::bigint, $7::text, $8::bigint, $9::text, $10::text, $11::bigint, $12::integer, $13::bigint),
       (2, $14::text, $15::text, $16::bytea, $17::bigint, $18::bigint, $19::bigint, $20::text, $21::bigint, $22::text, $23::text, $24::bigint, $25::integer, $26::bigint),
       (3, $27::text, $28::text, $29::bytea, $30::bigint, $31::bigint, $32::bigint, $33::text, $34::bigint, $35::text, $36::text, $37::bigint, $38::integer, $39::bigint),
       (4, $40::text, $41::text, $42::bytea, $43::bigint, $44::bigint, $45::bigint, $46::text, $47::bigint, $48::text, $49::text, $50::bigint, $51::integer, $52::bigint),
       (5, $53::text, $54::text, $55::bytea, $56::bigint, $57::bigint, $58::bigint, $59::text, $60::bigint, $61::text, $62::text, $63::bigint, $64::integer, $65::bigint),
       (6, $66::text, $67::text, $68::bytea, $69::bigint, $70::bigint, $71::bigint, $72::text, $73::bigint, $74::text, $75::text, $76::bigint, $77::integer, $78::bigint),
       (7, $79::text, $80::text, $81::bytea, $82::bigint, $83::bigint, $84::bigint, $85::text, $86::bigint, $87::text, $88::text, $89::bigint, $90::integer, $91::bigint),
       (8, $92::text, $93::text, $94::bytea, $95::bigint, $96::bigint, $97::bigint, $98::text, $99::bigint, $100::text, $101::text, $102::bigint, $103::integer, $104::bigint),
       (9, $105::text, $106::text, $107::bytea, $108::bigint, $109::bigint, $110::bigint, $111::text, $112::bigint, $113::text, $114::text, $115::bigint, $116::integer, $117::bigint),
       (10, $118::text, $119::text, $120::bytea, $121::bigint, $122::bigint, $123::bigint, $124::text, $125::bigint, $126::text, $127::text, $128::bigint, $129::integer, $130::bigint),
       (11, $131::text, $132::text, $133::bytea, $134::bigint, $135::bigint, $136::bigint, $137::text, $138::bigint, $139::text, $140::text, $141::bigint, $142::integer, $143::bigint),
       (12, $144::text, $145::text, $146::bytea, $147::bigint, $148::bigint, $149::bigint, $150::text, $151::bigint, $152::text, $153::text, $154::bigint, $155::integer, $156::bigint),
       (13, $157::text, $158::text, $159::bytea, $160::bigint, $161::bigint, $162::bigint, $163::text, $164::bigint, $165::text, $166::text, $167::bigint, $168::integer, $169::bigint),
       (14, $170::text, $171::text, $172::bytea, $173::bigint, $174::bigint, $175::bigint, $176::text, $177::bigint, $178::text, $179::text, $180::bigint, $181::integer, $182::bigint),
       (15, $183::text, $184::text, $185::bytea, $186::bigint, $187::bigint, $188::bigint, $189::text, $190::bigint, $191::text, $192::text, $193::bigint, $194::integer, $195::bigint),
       (16, $196::text, $197::text, $198::bytea, $199::bigint, $200::bigint, $201::bigint, $202::text, $203::bigint, $204::text, $205::text, $206::bigint, $207::integer, $208::bigint),
       (17, $209::text, $210::text, $211::bytea, $212::bigint, $213::bigint, $214::bigint, $215::text, $216::bigint, $217::text, $218::text, $219::bigint, $220::integer, $221::bigint),
       (18, $222::text, $223::text, $224::bytea, $225::bigint, $226::bigint, $227::bigint, $228::text, $229::bigint, $230::text, $231::text, $232::bigint, $233::integer, $234::bigint),
       (19, $235::text, $236::text, $237::bytea, $238::bigint, $239::bigint, $240::bigint, $241::text, $242::bigint, $243::text, $244::text, $245::bigint, $246::integer, $247::bigint),
       (20, $248::text, $249::text, $250::bytea, $251::bigint, $252::bigint, $253::bigint, $254::text, $255::bigint, $256::text, $257::text, $258::bigint, $259::integer, $260::bigint),
       (21, $261::text, $262::text, $263::bytea, $264::bigint, $265::bigint, $266::bigint, $267::text, $268::bigint, $269::text, $270::text, $271::bigint, $272::integer, $273::bigint),
       (22, $274::text, $275::text, $276::bytea, $277::bigint, $278::bigint, $279::bigint, $280::text, $281::bigint, $282::text, $283::text, $284::bigint, $285::integer, $286::bigint),
       (23, $287::text, $288::text, $289::bytea, $290::bigint, $291::bigint, $292::bigint, $293::text, $294::bigint, $295::text, $296::text, $297::bigint, $298::integer, $299::bigint),
       (24, $300::text, $301::text, $302::bytea, $303::bigint, $304::bigint, $305::bigint, $306::text, $307::bigint, $308::text, $309::text, $310::bigint, $311::integer, $312::bigint),
       (25, $313::text, $314::text, $315::bytea, $316::bigint, $317::bigint, $318::bigint, $319::text, $320::bigint, $321::text, $322::text, $323::bigint, $324::integer, $325::bigint),
       (26, $326::text, $327::text, $328::bytea, $329::bigint, $330::bigint, $331::bigint, $332::text, $333::bigint, $334::text, $335::text, $336::bigint, $337::integer, $338::bigint),
       (27, $339::text, $340::text, $341::bytea, $342::bigint, $343::bigint, $344::bigint, $345::text, $346::bigint, $347::text, $348::text, $349::bigint, $350::integer, $351::bigint),
       (28, $352::text, $353::text, $354::bytea, $355::bigint, $356::bigint, $357::bigint, $358::text, $359::bigint, $360::text, $361::text, $362::bigint, $363::integer, $364::bigint),
       (29, $365::text, $366::text, $367::bytea, $368::bigint, $369::bigint, $370::bigint, $371::text, $372::bigint, $373::text, $374::text, $375::bigint, $376::integer, $377::bigint),
       (30, $378::text, $379::text, $380::bytea, $381::bigint, $382::bigint, $383::bigint, $384::text, $385::bigint, $386::text, $387::text, $388::bigint, $389::integer, $390::bigint),
       (31, $391::text, $392::text, $393::bytea, $394::bigint, $395::bigint, $396::bigint, $397::text, $398::bigint, $399::text, $400::text, $401::bigint, $402::integer, $403::bigint),
       (32, $404::text, $405::text, $406::bytea, $407::bigint, $408::bigint, $409::bigint, $410::text, $411::bigint, $412::text, $413::text, $414::bigint, $415::integer, $416::bigint),
       (33, $417::text, $418::text, $419::bytea, $420::bigint, $421::bigint, $422::bigint, $423::text, $424::bigint, $425::text, $426::text, $427::bigint, $428::integer, $429::bigint),
       (34, $430::text, $431::text, $432::bytea, $433::bigint, $434::bigint, $435::bigint, $436::text, $437::bigint, $438::text, $439::text, $440::bigint, $441::integer, $442::bigint),
       (35, $443::text, $444::text, $445::bytea, $446::bigint, $447::bigint, $448::bigint, $449::text, $450::bigint, $451::text, $452::text, $453::bigint, $454::integer, $455::bigint),
       (36, $456::text, $457::text, $458::bytea, $459::bigint, $460::bigint, $461::bigint, $462::text, $463::bigint, $464::text, $465::text, $466::bigint, $467::integer, $468::bigint),
       (37, $469::text, $470::text, $471::bytea, $472::bigint, $473::bigint, $474::bigint, $475::text, $476::bigint, $477::text, $478::text, $479::bigint, $480::integer, $481::bigint),
       (38, $482::text, $483::text, $484::bytea, $485::bigint, $486::bigint, $487::bigint, $488::text, $489::bigint, $490::text, $491::text, $492::bigint, $493::integer, $494::bigint),
       (39, $495::text, $496::text, $497::bytea, $498::bigint, $499::bigint, $500::bigint, $501::text, $502::bigint, $503::text, $504::text, $505::bigint, $506::integer, $507::bigint),
       (40, $508::text, $509::text, $510::bytea, $511::bigint, $512::bigint, $513::bigint, $514::text, $515::bigint, $516::text, $517::text, $518::bigint, $519::integer, $520::bigint),
       (41, $521::text, $522::text, $523::bytea, $524::bigint, $525::bigint, $526::bigint, $527::text, $528::bigint, $529::text, $530::text, $531::bigint, $532::integer, $533::bigint),
       (42, $534::text, $535::text, $536::bytea, $537::bigint, $538::bigint, $539::bigint, $540::text, $541::bigint, $542::text, $543::text, $544::bigint, $545::integer, $546::bigint),
       (43, $547::text, $548::text, $549::bytea, $550::bigint, $551::bigint, $552::bigint, $553::text, $554::bigint, $555::text, $556::text, $557::bigint, $558::integer, $559::bigint),
       (44, $560::text, $561::text, $562::bytea, $563::bigint, $564::bigint, $565::bigint, $566::text, $567::bigint, $568::text, $569::text, $570::bigint, $571::integer, $572::bigint),
       (45, $573::text, $574::text, $575::bytea, $576::bigint, $577::bigint, $578::bigint, $579::text, $580::bigint, $581::text, $582::text, $583::bigint, $584::integer, $585::bigint),
       (46, $586::text, $587::text, $588::bytea, $589::bigint, $590::bigint, $591::bigint, $592::text, $593::bigint, $594::text, $595::text, $596::bigint, $597::integer, $598::bigint),
       (47, $599::text, $600::text, $601::bytea, $602::bigint, $603::bigint, $604::bigint, $605::text, $606::bigint, $607::text, $608::text, $609::bigint, $610::integer, $611::bigint),
       (48, $612::text, $613::text, $614::bytea, $615::bigint, $616::bigint, $617::bigint, $618::text, $619::bigint, $620::text, $621::text, $622::bigint, $623::integer, $624::bigint),
       (49, $625::text, $626::text, $627::bytea, $628::bigint, $629::bigint, $630::bigint, $631::text, $632::bigint, $633::text, $634::text, $635::bigint, $636::integer, $637::bigint),
       (50, $638::text, $639::text, $640::bytea, $641::bigint, $642::bigint, $643::bigint, $644::text, $645::bigint, $646::text, $647::text, $648::bigint, $649::integer, $650::bigint),
       (51, $651::text, $652::text, $653::bytea, $654::bigint, $655::bigint, $656::bigint, $657::text, $658::bigint, $659::text, $660::text, $661::bigint, $662::integer, $663::bigint),
       (52, $664::text, $665::text, $666::bytea, $667::bigint, $668::bigint, $669::bigint, $670::text, $671::bigint, $672::text, $673::text, $674::bigint, $675::integer, $676::bigint),
       (53, $677::text, $678::text, $679::bytea, $680::bigint, $681::bigint, $682::bigint, $683::text, $684::bigint, $685::text, $686::text, $687::bigint, $688::integer, $689::bigint),
       (54, $690::text, $691::text, $692::bytea, $693::bigint, $694::bigint, $695::bigint, $696::text, $697::bigint, $698::text, $699::text, $700::bigint, $701::integer, $702::bigint),
       (55, $703::text, $704::text, $705::bytea, $706::bigint, $707::bigint, $708::bigint, $709::text, $710::bigint, $711::text, $712::text, $713::bigint, $714::integer, $715::bigint),
       (56, $716::text, $717::text, $718::bytea, $719::bigint, $720::bigint, $721::bigint, $722::text, $723::bigint, $724::text, $725::text, $726::bigint, $727::integer, $728::bigint),
       (57, $729::text, $730::text, $731::bytea, $732::bigint, $733::bigint, $734::bigint, $735::text, $736::bigint, $737::text, $738::text, $739::bigint, $740::integer, $741::bigint),
       (58, $742::text, $743::text, $744::bytea, $745::bigint, $746::bigint, $747::bigint, $748::text, $749::bigint, $750::text, $751::text, $752::bigint, $753::integer, $754::bigint),
       (59, $755::text, $756::text, $757::bytea, $758::bigint, $759::bigint, $760::bigint, $761::text, $762::bigint, $763::text, $764::text, $765::bigint, $766::integer, $767::bigint),
       (60, $768::text, $769::text, $770::bytea, $771::bigint, $772::bigint, $773::bigint, $774::text, $775::bigint, $776::text, $777::text, $778::bigint, $779::integer, $780::bigint),
       (61, $781::text, $782::text, $783::bytea, $784::bigint, $785::bigint, $786::bigint, $787::text, $788::bigint, $789::text, $790::text, $791::bigint, $792::integer, $793::bigint),
       (62, $794::text, $795::text, $796::bytea, $797::bigint, $798::bigint, $799::bigint, $800::text, $801::bigint, $802::text, $803::text, $804::bigint, $805::integer, $806::bigint),
       (63, $807::text, $808::text, $809::bytea, $810::bigint, $811::bigint, $812::bigint, $813::text, $814::bigint, $815::text, $816::text, $817::bigint, $818::integer, $819::bigint),
       (64, $820::text, $821::text, $822::bytea, $823::bigint, $824::bigint, $825::bigint, $826::text, $827::bigint, $828::text, $829::text, $830::bigint, $831::integer, $832::bigint),
       (65, $833::text, $834::text, $835::bytea, $836::bigint, $837::bigint, $838::bigint, $839::text, $840::bigint, $841::text, $842::text, $843::bigint, $844::integer, $845::bigint),
       (66, $846::text, $847::text, $848::bytea, $849::bigint, $850::bigint, $851::bigint, $852::text, $853::bigint, $854::text, $855::text, $856::bigint, $857::integer, $858::bigint),
       (67, $859::text, $860::text, $861::bytea, $862::bigint, $863::bigint, $864::bigint, $865::text, $866::bigint, $867::text, $868::text, $869::bigint, $870::integer, $871::bigint),
       (68, $872::text, $873::text, $874::bytea, $875::bigint, $876::bigint, $877::bigint, $878::text, $879::bigint, $880::text, $881::text, $882::bigint, $883::integer, $884::bigint),
       (69, $885::text, $886::text, $887::bytea, $888::bigint, $889::bigint, $890::bigint, $891::text, $892::bigint, $893::text, $894::text, $895::bigint, $896::integer, $897::bigint),
       (70, $898::text, $899::text, $900::bytea, $901::bigint, $902::bigint, $903::bigint, $904::text, $905::bigint, $906::text, $907::text, $908::bigint, $909::integer, $910::bigint),
       (71, $911::text, $912::text, $913::bytea, $914::bigint, $915::bigint, $916::bigint, $917::text, $918::bigint, $919::text, $920::text, $921::bigint, $922::integer, $923::bigint),
       (72, $924::text, $925::text, $926::bytea, $927::bigint, $928::bigint, $929::bigint, $930::text, $931::bigint, $932::text, $933::text, $934::bigint, $935::integer, $936::bigint),
       (73, $937::text, $938::text, $939::bytea, $940::bigint, $941::bigint, $942::bigint, $943::text, $944::bigint, $945::text, $946::text, $947::bigint, $948::integer, $949::bigint),
       (74, $950::text, $951::text, $952::bytea, $953::bigint, $954::bigint, $955::bigint, $956::text, $957::bigint, $958::text, $959::text, $960::bigint, $961::integer, $962::bigint),
       (75, $963::text, $964::text, $965::bytea, $966::bigint, $967::bigint, $968::bigint, $969::text, $970::bigint, $971::text, $972::text, $973::bigint, $974::integer, $975::bigint),
       (76, $976::text, $977::text, $978::bytea, $979::bigint, $980::bigint, $981::bigint, $982::text, $983::bigint, $984::text, $985::text, $986::bigint, $987::integer, $988::bigint),
       (77, $989::text, $990::text, $991::bytea, $992::bigint, $993::bigint, $994::bigint, $995::text, $996::bigint, $997::text, $998::text, $999::bigint, $1000::integer, $1001::bigint),
       (78, $1002::text, $1003::text, $1004::bytea, $1005::bigint, $1006::bigint, $1007::bigint, $1008::text, $1009::bigint, $1010::text, $1011::text, $1012::bigint, $1013::integer, $1014::bigint),
       (79, $1015::text, $1016::text, $1017::bytea, $1018::bigint, $1019::bigint, $1020::bigint, $1021::text, $1022::bigint, $1023::text, $1024::text, $1025::bigint, $1026::integer, $1027::bigint),
       (80, $1028::text, $1029::text, $1030::bytea, $1031::bigint, $1032::bigint, $1033::bigint, $1034::text, $1035::bigint, $1036::text, $1037::text, $1038::bigint, $1039::integer, $1040::bigint),
       (81, $1041::text, $1042::text, $1043::bytea, $1044::bigint, $1045::bigint, $1046::bigint, $1047::text, $1048::bigint, $1049::text, $1050::text, $1051::bigint, $1052::integer, $1053::bigint),
       (82, $1054::text, $1055::text, $1056::bytea, $1057::bigint, $1058::bigint, $1059::bigint, $1060::text, $1061::bigint, $1062::text, $1063::text, $1064::bigint, $1065::integer, $1066::bigint),
       (83, $1067::text, $1068::text, $1069::bytea, $1070::bigint, $1071::bigint, $1072::bigint, $1073::text, $1074::bigint, $1075::text, $1076::text, $1077::bigint, $1078::integer, $1079::bigint),
       (84, $1080::text, $1081::text, $1082::bytea, $1083::bigint, $1084::bigint, $1085::bigint, $1086::text, $1087::bigint, $1088::text, $1089::text, $1090::bigint, $1091::integer, $1092::bigint),
       (85, $1093::text, $1094::text, $1095::bytea, $1096::bigint, $1097::bigint, $1098::bigint, $1099::text, $1100::bigint, $1101::text, $1102::text, $1103::bigint, $1104::integer, $1105::bigint),
       (86, $1106::text, $1107::text, $1108::bytea, $1109::bigint, $1110::bigint, $1111::bigint, $1112::text, $1113::bigint, $1114::text, $1115::text, $1116::bigint, $1117::integer, $1118::bigint),
       (87, $1119::text, $1120::text, $1121::bytea, $1122::bigint, $1123::bigint, $1124::bigint, $1125::text, $1126::bigint, $1127::text, $1128::text, $1129::bigint, $1130::integer, $1131::bigint),
       (88, $1132::text, $1133::text, $1134::bytea, $1135::bigint, $1136::bigint, $1137::bigint, $1138::text, $1139::bigint, $1140::text, $1141::text, $1142::bigint, $1143::integer, $1144::bigint),
       (89, $1145::text, $1146::text, $1147::bytea, $1148::bigint, $1149::bigint, $1150::bigint, $1151::text, $1152::bigint, $1153::text, $1154::text, $1155::bigint, $1156::integer, $1157::bigint),
       (90, $1158::text, $1159::text, $1160::bytea, $1161::bigint, $1162::bigint, $1163::bigint, $1164::text, $1165::bigint, $1166::text, $1167::text, $1168::bigint, $1169::integer, $1170::bigint),
       (91, $1171::text, $1172::text, $1173::bytea, $1174::bigint, $1175::bigint, $1176::bigint, $1177::text, $1178::bigint, $1179::text, $1180::text, $1181::bigint, $1182::integer, $1183::bigint),
       (92, $1184::text, $1185::text, $1186::bytea, $1187::bigint, $1188::bigint, $1189::bigint, $1190::text, $1191::bigint, $1192::text, $1193::text, $1194::bigint, $1195::integer, $1196::bigint),
       (93, $1197::text, $1198::text, $1199::bytea, $1200::bigint, $1201::bigint, $1202::bigint, $1203::text, $1204::bigint, $1205::text, $1206::text, $1207::bigint, $1208::integer, $1209::bigint),
       (94, $1210::text, $1211::text, $1212::bytea, $1213::bigint, $1214::bigint, $1215::bigint, $1216::text, $1217::bigint, $1218::text, $1219::text, $1220::bigint, $1221::integer, $1222::bigint),
       (95, $1223::text, $1224::text, $1225::bytea, $1226::bigint, $1227::bigint, $1228::bigint, $1229::text, $1230::bigint, $1231::text, $1232::text, $1233::bigint, $1234::integer, $1235::bigint),
       (96, $1236::text, $1237::text, $1238::bytea, $1239::bigint, $1240::bigint, $1241::bigint, $1242::text, $1243::bigint, $1244::text, $1245::text, $1246::bigint, $1247::integer, $1248::bigint),
       (97, $1249::text, $1250::text, $1251::bytea, $1252::bigint, $1253::bigint, $1254::bigint, $1255::text, $1256::bigint, $1257::text, $1258::text, $1259::bigint, $1260::integer, $1261::bigint),
       (98, $1262::text, $1263::text, $1264::bytea, $1265::bigint, $1266::bigint, $1267::bigint, $1268::text, $1269::bigint, $1270::text, $1271::text, $1272::bigint, $1273::integer, $1274::bigint),
       (99, $1275::text, $1276::text, $1277::bytea, $1278::bigint, $1279::bigint, $1280::bigint, $1281::text, $1282::bigint, $1283::text, $1284::text, $1285::bigint, $1286::integer, $1287::bigint),
       (100, $1288::text, $1289::text, $1290::bytea, $1291::bigint, $1292::bigint, $1293::bigint, $1294::text, $1295::bigint, $1296::text, $1297::text, $1298::bigint, $1299::integer, $1300::bigint)) AS v(k, q, nm, pl, ra, dl, ma, uk, ev, cr, tz, mi, pr, tm)
 WHERE v.nm IS NOT NULL
 ORDER BY v.k
ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL DO NOTHING
RETURNING id, unique_key

-- PG_INS_WAKE: the rows of a batch insert's CTE ins (id, unique_key), and
-- the workers' wake-up on LQ_CHANNEL_TASK: evaluated once, before the rows
-- are read, and sent when the statement commits.
-- fragment: PG_INS_WAKE
SELECT id, unique_key FROM ins
 WHERE (SELECT 1 FROM (SELECT pg_notify('leaseq_task', '')) AS wake) = 1

-- PG_INSERT_MANY_SAME: the INSERT of task_insert_many_same (CTE clk the
-- clock): PG_INSERT_MANY with the options ($1..$11) given once.
-- fragment: PG_INSERT_MANY_SAME
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms)
SELECT $1::text, v.nm, v.pl, COALESCE($2::bigint, clk.n + $3::bigint), $4::bigint, $5::text,
       $6::bigint, $7::text, $8::text, $9::bigint, clk.n, $10::integer, $11::bigint
  FROM clk, (VALUES
       (1, $12::text, $13::bytea),
       (2, $14::text, $15::bytea),
       (3, $16::text, $17::bytea),
       (4, $18::text, $19::bytea),
       (5, $20::text, $21::bytea),
       (6, $22::text, $23::bytea),
       (7, $24::text, $25::bytea),
       (8, $26::text, $27::bytea),
       (9, $28::text, $29::bytea),
       (10, $30::text, $31::bytea),
       (11, $32::text, $33::bytea),
       (12, $34::text, $35::bytea),
       (13, $36::text, $37::bytea),
       (14, $38::text, $39::bytea),
       (15, $40::text, $41::bytea),
       (16, $42::text, $43::bytea),
       (17, $44::text, $45::bytea),
       (18, $46::text, $47::bytea),
       (19, $48::text, $49::bytea),
       (20, $50::text, $51::bytea),
       (21, $52::text, $53::bytea),
       (22, $54::text, $55::bytea),
       (23, $56::text, $57::bytea),
       (24, $58::text, $59::bytea),
       (25, $60::text, $61::bytea),
       (26, $62::text, $63::bytea),
       (27, $64::text, $65::bytea),
       (28, $66::text, $67::bytea),
       (29, $68::text, $69::bytea),
       (30, $70::text, $71::bytea),
       (31, $72::text, $73::bytea),
       (32, $74::text, $75::bytea),
       (33, $76::text, $77::bytea),
       (34, $78::text, $79::bytea),
       (35, $80::text, $81::bytea),
       (36, $82::text, $83::bytea),
       (37, $84::text, $85::bytea),
       (38, $86::text, $87::bytea),
       (39, $88::text, $89::bytea),
       (40, $90::text, $91::bytea),
       (41, $92::text, $93::bytea),
       (42, $94::text, $95::bytea),
       (43, $96::text, $97::bytea),
       (44, $98::text, $99::bytea),
       (45, $100::text, $101::bytea),
       (46, $102::text, $103::bytea),
       (47, $104::text, $105::bytea),
       (48, $106::text, $107::bytea),
       (49, $108::text, $109::bytea),
       (50, $110::text, $111::bytea),
       (51, $112::text, $113::bytea),
       (52, $114::text, $115::bytea),
       (53, $116::text, $117::bytea),
       (54, $118::text, $119::bytea),
       (55, $120::text, $121::bytea),
       (56, $122::text, $123::bytea),
       (57, $124::text, $125::bytea),
       (58, $126::text, $127::bytea),
       (59, $128::text, $129::bytea),
       (60, $130::text, $131::bytea),
       (61, $132::text, $133::bytea),
       (62, $134::text, $135::bytea),
       (63, $136::text, $137::bytea),
       (64, $138::text, $139::bytea),
       (65, $140::text, $141::bytea),
       (66, $142::text, $143::bytea),
       (67, $144::text, $145::bytea),
       (68, $146::text, $147::bytea),
       (69, $148::text, $149::bytea),
       (70, $150::text, $151::bytea),
       (71, $152::text, $153::bytea),
       (72, $154::text, $155::bytea),
       (73, $156::text, $157::bytea),
       (74, $158::text, $159::bytea),
       (75, $160::text, $161::bytea),
       (76, $162::text, $163::bytea),
       (77, $164::text, $165::bytea),
       (78, $166::text, $167::bytea),
       (79, $168::text, $169::bytea),
       (80, $170::text, $171::bytea),
       (81, $172::text, $173::bytea),
       (82, $174::text, $175::bytea),
       (83, $176::text, $177::bytea),
       (84, $178::text, $179::bytea),
       (85, $180::text, $181::bytea),
       (86, $182::text, $183::bytea),
       (87, $184::text, $185::bytea),
       (88, $186::text, $187::bytea),
       (89, $188::text, $189::bytea),
       (90, $190::text, $191::bytea),
       (91, $192::text, $193::bytea),
       (92, $194::text, $195::bytea),
       (93, $196::text, $197::bytea),
       (94, $198::text, $199::bytea),
       (95, $200::text, $201::bytea),
       (96, $202::text, $203::bytea),
       (97, $204::text, $205::bytea),
       (98, $206::text, $207::bytea),
       (99, $208::text, $209::bytea),
       (100, $210::text, $211::bytea)) AS v(k, nm, pl)
 WHERE v.nm IS NOT NULL
 ORDER BY v.k
ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL DO NOTHING
RETURNING id, unique_key

-- ACK_CLAIM_ACK: the ack CTEs of task_ack_claim_one_update and _top
-- ($2 the acked task, $3 its claim owner, $4 worker, $5 started_at): the
-- row locked if its claim is still $3's (ack_lock), deleted (acked), its
-- history row (run) and count (counted).
-- fragment: ACK_CLAIM_ACK
ack_lock AS (SELECT id FROM lq_task WHERE id = $2::bigint AND claim_owner = $3::text
      FOR UPDATE SKIP LOCKED),
acked AS (DELETE FROM lq_task WHERE id = (SELECT id FROM ack_lock) AND claim_owner = $3::text
      RETURNING id, run_at, queue, name, attempts),
run AS (INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome)
      SELECT id, run_at, queue, name, $4::text, attempts, $5::bigint, (SELECT n FROM clk), 'done' FROM acked
      RETURNING id, queue, name),
counted AS (INSERT INTO lq_counter (metric, queue, name, shard, n)
      SELECT 'run_done', queue, name, id % 8, 1 FROM run
      ON CONFLICT (metric, queue, name, shard) DO UPDATE SET n = lq_counter.n + 1)

-- ACK_CLAIM_TOOK: the claim of cand for owner $6 with a claim lease of
-- $7 ms (took), and the statement's rows, of task_ack_claim_one_update
-- and _top.
-- fragment: ACK_CLAIM_TOOK
took AS (
  UPDATE lq_task t
     SET claim_owner = $6::text, claim_until = (SELECT n FROM clk) + $7::bigint,
         attempts = t.attempts + 1
   {{CLAIM_PLAIN_WHERE}}
  RETURNING t.*)
SELECT {{CLAIMED_COLS_G}},
       CASE WHEN g.id IS NOT NULL THEN 1 WHEN cand.id IS NOT NULL THEN 0 ELSE -1 END,
       CASE WHEN EXISTS (SELECT 1 FROM run) THEN 1
            WHEN NOT EXISTS (SELECT 1 FROM ack_lock)
             AND EXISTS (SELECT 1 FROM lq_task WHERE id = $2::bigint AND claim_owner = $3::text) THEN 2
            ELSE 0 END::bigint
  FROM (SELECT 1) AS one
  LEFT JOIN (cand LEFT JOIN took g ON g.id = cand.id) ON true
