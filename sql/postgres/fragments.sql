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
   {{CLAIM_ONE_BOUND}})

-- CLAIM_ONE_BOUND: the first of them from the top due priority, locked.
-- fragment: CLAIM_ONE_BOUND
  AND priority <= (SELECT p FROM top)
   ORDER BY priority DESC, run_at, id
   LIMIT 1
     FOR UPDATE SKIP LOCKED

-- CLAIM_ONE_TOP_CAND: CLAIM_ONE_CAND of task_claim_one_delete_top: the
-- first due candidate of priority $2 alone, a range of lq_task_claim that
-- ends where that priority's due tasks end, while queue $1 has no task of
-- a higher priority (a one-time filter: one descent of lq_task_claim; as a
-- CTE of its own the claim took 4 % longer).
-- fragment: CLAIM_ONE_TOP_CAND
cand AS (
  {{CLAIM_CAND_DUE}}
   {{CLAIM_ONE_KNOWN}})

-- CLAIM_ONE_KNOWN: CLAIM_ONE_BOUND from priority $2 (the handle's memo),
-- while queue $1 has no task of a higher one.
-- fragment: CLAIM_ONE_KNOWN
  AND priority = $2::integer
     AND (SELECT x.priority FROM lq_task x WHERE x.queue = {{QUEUE_ARG}} AND x.priority > $2::integer
           ORDER BY x.priority LIMIT 1) IS NULL
   ORDER BY priority DESC, run_at, id
   LIMIT 1
     FOR UPDATE SKIP LOCKED

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

-- CLAIM_FOR_OWNER: the UPDATE of a claim at least once of the statements
-- with $2 the owner and $3 the claim lease in ms (task_claim_one_update,
-- task_claim_one_*_keyed, task_claim_fair_one_update); the statement adds
-- its WHERE and RETURNING.
-- fragment: CLAIM_FOR_OWNER
UPDATE lq_task t
     SET claim_owner = $2::text, claim_until = (SELECT n FROM clk) + $3::bigint,
         attempts = t.attempts + 1

-- fragment: CLAIM_ONE_DELETE
gone AS (
  DELETE FROM lq_task t
   {{CLAIM_PLAIN_WHERE}}
  RETURNING t.*)

-- fragment: CLAIM_ONE_ROWS
SELECT {{CLAIMED_COLS_G}},
       CASE WHEN g.id IS NULL THEN 0 ELSE 1 END
  FROM cand LEFT JOIN gone g ON g.id = cand.id

-- OCC_CAND_DUE, OCC_SETTLE: task_claim_one_delete_occ's candidate (what
-- the test of an occurrence needs) and the rest of the statement after its
-- CTE cand: the head deleted if plain (gone) or, if an interval occurrence
-- with no steering set, moved on (moved), and the result row.
-- fragment: OCC_CAND_DUE
SELECT id, run_at, every_ms, cron, claim_owner, attempts, max_attempts, overlap, next_at,
         catch_up, missed, {{LIMITED}} AS limited
    FROM lq_task
   {{CLAIM_DUE_WHERE}}

-- fragment: OCC_SETTLE
gone AS (
  DELETE FROM lq_task t
   WHERE t.id = (SELECT id FROM cand
                  WHERE every_ms IS NULL AND cron IS NULL
                    AND NOT (claim_owner IS NOT NULL AND attempts >= max_attempts)
                    AND limited = 0)
     AND t.every_ms IS NULL AND t.cron IS NULL
     AND t.run_at <= (SELECT n FROM clk)
     AND t.paused = 0
     AND ({{CLAIM_FREE_T}})
  RETURNING t.*),
moved AS (
  UPDATE lq_task t
     SET run_at = t.run_at + ((SELECT n FROM clk) - t.run_at) / t.every_ms * t.every_ms + t.every_ms,
         claim_until = NULL, attempts = 0, preempt_at = NULL
   WHERE t.id = (SELECT id FROM cand WHERE {{CLAIM_OCC}})
     AND t.every_ms IS NOT NULL AND t.cron IS NULL AND t.claim_owner IS NULL
     AND t.overlap = 0 AND t.next_at IS NULL
     AND t.run_at <= (SELECT n FROM clk)
     AND t.paused = 0
  RETURNING t.*)
SELECT {{CLAIMED_COLS_GM}},
       CASE WHEN g.id IS NOT NULL THEN 1 WHEN m.id IS NOT NULL THEN 2 ELSE 0 END,
       m.run_at
  FROM cand LEFT JOIN gone g ON g.id = cand.id LEFT JOIN moved m ON m.id = cand.id

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

-- CLAIM_KEYED_CAND: the CTEs cand, seen, held and started of a one-task
-- claim of queue $1 whose head may carry a concurrency key
-- (task_claim_one_*_keyed; the statement has {{CLK}} and {{CLAIM_TOP}}).
-- cand is CLAIM_ONE_CAND's head (and its key k), plain when it is a
-- one-off task and the queue has no limit of its own.  started takes one
-- start of k's limit, a cap, a rate or both, if it is not shut.  A cap
-- counts live claims, and a statement counts them in its snapshot, which
-- does not have the claims committed since; but every claim under a limit
-- writes the limit row (its start), so a limit row that has not changed
-- between the snapshot (seen) and its lock (held: READ COMMITTED locks
-- the row's latest version) had no claim committed meanwhile, and the
-- others wait for the lock.  So under a cap started counts only when the
-- two are the same version (xmin); else it is empty and the head is left
-- to the transaction, which counts after the lock.  A rate alone needs no
-- such test: the UPDATE tests it on the row as locked (l.concurrency too).
-- fragment: CLAIM_KEYED_CAND
cand AS (
  SELECT id, run_at, concurrency_key AS k,
         (every_ms IS NULL AND cron IS NULL
            AND NOT (claim_owner IS NOT NULL AND attempts >= max_attempts)
            AND NOT EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = 'queue:' || {{QUEUE_ARG}})) AS plain
    FROM lq_task
   {{CLAIM_DUE_WHERE}}
   {{CLAIM_ONE_BOUND}}),
seen AS (
  SELECT l.xmin::text AS v FROM lq_limit l WHERE l.name = (SELECT k FROM cand WHERE plain)),
held AS (
  SELECT l.name, l.xmin::text AS v FROM lq_limit l WHERE l.name = (SELECT k FROM cand WHERE plain)
     FOR UPDATE),
started AS (
  UPDATE lq_limit l SET tat = {{LIMIT_TAT_NEXT}}, updated_at = (SELECT n FROM clk)
   WHERE l.name = (SELECT name FROM held)
     AND (l.concurrency IS NULL OR (SELECT v FROM held) = (SELECT v FROM seen))
     AND NOT ({{LIMIT_SHUT_KEY}})
  RETURNING (l.concurrency IS NOT NULL) AS capped)

-- CLAIM_UNKEYED: a task t a keyed claim may take without a start: no key,
-- or a key no limit names.
-- fragment: CLAIM_UNKEYED
t.concurrency_key IS NULL OR NOT EXISTS (SELECT 1 FROM seen)

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
-- as task_claim_delete_set takes them.
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
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms,
                     concurrency_key, part)
SELECT v.q, v.nm, v.pl, COALESCE(v.ra, clk.n + v.dl), v.ma, v.uk, v.ev, v.cr, v.tz, v.mi,
       clk.n, v.pr, v.tm, v.ck, COALESCE(v.pt, '')
  FROM clk, (VALUES
       (1, $1::text, $2::text, $3::bytea, $4::bigint, $5::bigint, $6::bigint, $7::text, $8::bigint, $9::text, $10::text, $11::bigint, $12::integer, $13::bigint, $14::text, $15::text),
       (2, $16::text, $17::text, $18::bytea, $19::bigint, $20::bigint, $21::bigint, $22::text, $23::bigint, $24::text, $25::text, $26::bigint, $27::integer, $28::bigint, $29::text, $30::text),
       (3, $31::text, $32::text, $33::bytea, $34::bigint, $35::bigint, $36::bigint, $37::text, $38::bigint, $39::text, $40::text, $41::bigint, $42::integer, $43::bigint, $44::text, $45::text),
       (4, $46::text, $47::text, $48::bytea, $49::bigint, $50::bigint, $51::bigint, $52::text, $53::bigint, $54::text, $55::text, $56::bigint, $57::integer, $58::bigint, $59::text, $60::text),
       (5, $61::text, $62::text, $63::bytea, $64::bigint, $65::bigint, $66::bigint, $67::text, $68::bigint, $69::text, $70::text, $71::bigint, $72::integer, $73::bigint, $74::text, $75::text),
       (6, $76::text, $77::text, $78::bytea, $79::bigint, $80::bigint, $81::bigint, $82::text, $83::bigint, $84::text, $85::text, $86::bigint, $87::integer, $88::bigint, $89::text, $90::text),
       (7, $91::text, $92::text, $93::bytea, $94::bigint, $95::bigint, $96::bigint, $97::text, $98::bigint, $99::text, $100::text, $101::bigint, $102::integer, $103::bigint, $104::text, $105::text),
       (8, $106::text, $107::text, $108::bytea, $109::bigint, $110::bigint, $111::bigint, $112::text, $113::bigint, $114::text, $115::text, $116::bigint, $117::integer, $118::bigint, $119::text, $120::text),
       (9, $121::text, $122::text, $123::bytea, $124::bigint, $125::bigint, $126::bigint, $127::text, $128::bigint, $129::text, $130::text, $131::bigint, $132::integer, $133::bigint, $134::text, $135::text),
       (10, $136::text, $137::text, $138::bytea, $139::bigint, $140::bigint, $141::bigint, $142::text, $143::bigint, $144::text, $145::text, $146::bigint, $147::integer, $148::bigint, $149::text, $150::text),
       (11, $151::text, $152::text, $153::bytea, $154::bigint, $155::bigint, $156::bigint, $157::text, $158::bigint, $159::text, $160::text, $161::bigint, $162::integer, $163::bigint, $164::text, $165::text),
       (12, $166::text, $167::text, $168::bytea, $169::bigint, $170::bigint, $171::bigint, $172::text, $173::bigint, $174::text, $175::text, $176::bigint, $177::integer, $178::bigint, $179::text, $180::text),
       (13, $181::text, $182::text, $183::bytea, $184::bigint, $185::bigint, $186::bigint, $187::text, $188::bigint, $189::text, $190::text, $191::bigint, $192::integer, $193::bigint, $194::text, $195::text),
       (14, $196::text, $197::text, $198::bytea, $199::bigint, $200::bigint, $201::bigint, $202::text, $203::bigint, $204::text, $205::text, $206::bigint, $207::integer, $208::bigint, $209::text, $210::text),
       (15, $211::text, $212::text, $213::bytea, $214::bigint, $215::bigint, $216::bigint, $217::text, $218::bigint, $219::text, $220::text, $221::bigint, $222::integer, $223::bigint, $224::text, $225::text),
       (16, $226::text, $227::text, $228::bytea, $229::bigint, $230::bigint, $231::bigint, $232::text, $233::bigint, $234::text, $235::text, $236::bigint, $237::integer, $238::bigint, $239::text, $240::text),
       (17, $241::text, $242::text, $243::bytea, $244::bigint, $245::bigint, $246::bigint, $247::text, $248::bigint, $249::text, $250::text, $251::bigint, $252::integer, $253::bigint, $254::text, $255::text),
       (18, $256::text, $257::text, $258::bytea, $259::bigint, $260::bigint, $261::bigint, $262::text, $263::bigint, $264::text, $265::text, $266::bigint, $267::integer, $268::bigint, $269::text, $270::text),
       (19, $271::text, $272::text, $273::bytea, $274::bigint, $275::bigint, $276::bigint, $277::text, $278::bigint, $279::text, $280::text, $281::bigint, $282::integer, $283::bigint, $284::text, $285::text),
       (20, $286::text, $287::text, $288::bytea, $289::bigint, $290::bigint, $291::bigint, $292::text, $293::bigint, $294::text, $295::text, $296::bigint, $297::integer, $298::bigint, $299::text, $300::text),
       (21, $301::text, $302::text, $303::bytea, $304::bigint, $305::bigint, $306::bigint, $307::text, $308::bigint, $309::text, $310::text, $311::bigint, $312::integer, $313::bigint, $314::text, $315::text),
       (22, $316::text, $317::text, $318::bytea, $319::bigint, $320::bigint, $321::bigint, $322::text, $323::bigint, $324::text, $325::text, $326::bigint, $327::integer, $328::bigint, $329::text, $330::text),
       (23, $331::text, $332::text, $333::bytea, $334::bigint, $335::bigint, $336::bigint, $337::text, $338::bigint, $339::text, $340::text, $341::bigint, $342::integer, $343::bigint, $344::text, $345::text),
       (24, $346::text, $347::text, $348::bytea, $349::bigint, $350::bigint, $351::bigint, $352::text, $353::bigint, $354::text, $355::text, $356::bigint, $357::integer, $358::bigint, $359::text, $360::text),
       (25, $361::text, $362::text, $363::bytea, $364::bigint, $365::bigint, $366::bigint, $367::text, $368::bigint, $369::text, $370::text, $371::bigint, $372::integer, $373::bigint, $374::text, $375::text),
       (26, $376::text, $377::text, $378::bytea, $379::bigint, $380::bigint, $381::bigint, $382::text, $383::bigint, $384::text, $385::text, $386::bigint, $387::integer, $388::bigint, $389::text, $390::text),
       (27, $391::text, $392::text, $393::bytea, $394::bigint, $395::bigint, $396::bigint, $397::text, $398::bigint, $399::text, $400::text, $401::bigint, $402::integer, $403::bigint, $404::text, $405::text),
       (28, $406::text, $407::text, $408::bytea, $409::bigint, $410::bigint, $411::bigint, $412::text, $413::bigint, $414::text, $415::text, $416::bigint, $417::integer, $418::bigint, $419::text, $420::text),
       (29, $421::text, $422::text, $423::bytea, $424::bigint, $425::bigint, $426::bigint, $427::text, $428::bigint, $429::text, $430::text, $431::bigint, $432::integer, $433::bigint, $434::text, $435::text),
       (30, $436::text, $437::text, $438::bytea, $439::bigint, $440::bigint, $441::bigint, $442::text, $443::bigint, $444::text, $445::text, $446::bigint, $447::integer, $448::bigint, $449::text, $450::text),
       (31, $451::text, $452::text, $453::bytea, $454::bigint, $455::bigint, $456::bigint, $457::text, $458::bigint, $459::text, $460::text, $461::bigint, $462::integer, $463::bigint, $464::text, $465::text),
       (32, $466::text, $467::text, $468::bytea, $469::bigint, $470::bigint, $471::bigint, $472::text, $473::bigint, $474::text, $475::text, $476::bigint, $477::integer, $478::bigint, $479::text, $480::text),
       (33, $481::text, $482::text, $483::bytea, $484::bigint, $485::bigint, $486::bigint, $487::text, $488::bigint, $489::text, $490::text, $491::bigint, $492::integer, $493::bigint, $494::text, $495::text),
       (34, $496::text, $497::text, $498::bytea, $499::bigint, $500::bigint, $501::bigint, $502::text, $503::bigint, $504::text, $505::text, $506::bigint, $507::integer, $508::bigint, $509::text, $510::text),
       (35, $511::text, $512::text, $513::bytea, $514::bigint, $515::bigint, $516::bigint, $517::text, $518::bigint, $519::text, $520::text, $521::bigint, $522::integer, $523::bigint, $524::text, $525::text),
       (36, $526::text, $527::text, $528::bytea, $529::bigint, $530::bigint, $531::bigint, $532::text, $533::bigint, $534::text, $535::text, $536::bigint, $537::integer, $538::bigint, $539::text, $540::text),
       (37, $541::text, $542::text, $543::bytea, $544::bigint, $545::bigint, $546::bigint, $547::text, $548::bigint, $549::text, $550::text, $551::bigint, $552::integer, $553::bigint, $554::text, $555::text),
       (38, $556::text, $557::text, $558::bytea, $559::bigint, $560::bigint, $561::bigint, $562::text, $563::bigint, $564::text, $565::text, $566::bigint, $567::integer, $568::bigint, $569::text, $570::text),
       (39, $571::text, $572::text, $573::bytea, $574::bigint, $575::bigint, $576::bigint, $577::text, $578::bigint, $579::text, $580::text, $581::bigint, $582::integer, $583::bigint, $584::text, $585::text),
       (40, $586::text, $587::text, $588::bytea, $589::bigint, $590::bigint, $591::bigint, $592::text, $593::bigint, $594::text, $595::text, $596::bigint, $597::integer, $598::bigint, $599::text, $600::text),
       (41, $601::text, $602::text, $603::bytea, $604::bigint, $605::bigint, $606::bigint, $607::text, $608::bigint, $609::text, $610::text, $611::bigint, $612::integer, $613::bigint, $614::text, $615::text),
       (42, $616::text, $617::text, $618::bytea, $619::bigint, $620::bigint, $621::bigint, $622::text, $623::bigint, $624::text, $625::text, $626::bigint, $627::integer, $628::bigint, $629::text, $630::text),
       (43, $631::text, $632::text, $633::bytea, $634::bigint, $635::bigint, $636::bigint, $637::text, $638::bigint, $639::text, $640::text, $641::bigint, $642::integer, $643::bigint, $644::text, $645::text),
       (44, $646::text, $647::text, $648::bytea, $649::bigint, $650::bigint, $651::bigint, $652::text, $653::bigint, $654::text, $655::text, $656::bigint, $657::integer, $658::bigint, $659::text, $660::text),
       (45, $661::text, $662::text, $663::bytea, $664::bigint, $665::bigint, $666::bigint, $667::text, $668::bigint, $669::text, $670::text, $671::bigint, $672::integer, $673::bigint, $674::text, $675::text),
       (46, $676::text, $677::text, $678::bytea, $679::bigint, $680::bigint, $681::bigint, $682::text, $683::bigint, $684::text, $685::text, $686::bigint, $687::integer, $688::bigint, $689::text, $690::text),
       (47, $691::text, $692::text, $693::bytea, $694::bigint, $695::bigint, $696::bigint, $697::text, $698::bigint, $699::text, $700::text, $701::bigint, $702::integer, $703::bigint, $704::text, $705::text),
       (48, $706::text, $707::text, $708::bytea, $709::bigint, $710::bigint, $711::bigint, $712::text, $713::bigint, $714::text, $715::text, $716::bigint, $717::integer, $718::bigint, $719::text, $720::text),
       (49, $721::text, $722::text, $723::bytea, $724::bigint, $725::bigint, $726::bigint, $727::text, $728::bigint, $729::text, $730::text, $731::bigint, $732::integer, $733::bigint, $734::text, $735::text),
       (50, $736::text, $737::text, $738::bytea, $739::bigint, $740::bigint, $741::bigint, $742::text, $743::bigint, $744::text, $745::text, $746::bigint, $747::integer, $748::bigint, $749::text, $750::text),
       (51, $751::text, $752::text, $753::bytea, $754::bigint, $755::bigint, $756::bigint, $757::text, $758::bigint, $759::text, $760::text, $761::bigint, $762::integer, $763::bigint, $764::text, $765::text),
       (52, $766::text, $767::text, $768::bytea, $769::bigint, $770::bigint, $771::bigint, $772::text, $773::bigint, $774::text, $775::text, $776::bigint, $777::integer, $778::bigint, $779::text, $780::text),
       (53, $781::text, $782::text, $783::bytea, $784::bigint, $785::bigint, $786::bigint, $787::text, $788::bigint, $789::text, $790::text, $791::bigint, $792::integer, $793::bigint, $794::text, $795::text),
       (54, $796::text, $797::text, $798::bytea, $799::bigint, $800::bigint, $801::bigint, $802::text, $803::bigint, $804::text, $805::text, $806::bigint, $807::integer, $808::bigint, $809::text, $810::text),
       (55, $811::text, $812::text, $813::bytea, $814::bigint, $815::bigint, $816::bigint, $817::text, $818::bigint, $819::text, $820::text, $821::bigint, $822::integer, $823::bigint, $824::text, $825::text),
       (56, $826::text, $827::text, $828::bytea, $829::bigint, $830::bigint, $831::bigint, $832::text, $833::bigint, $834::text, $835::text, $836::bigint, $837::integer, $838::bigint, $839::text, $840::text),
       (57, $841::text, $842::text, $843::bytea, $844::bigint, $845::bigint, $846::bigint, $847::text, $848::bigint, $849::text, $850::text, $851::bigint, $852::integer, $853::bigint, $854::text, $855::text),
       (58, $856::text, $857::text, $858::bytea, $859::bigint, $860::bigint, $861::bigint, $862::text, $863::bigint, $864::text, $865::text, $866::bigint, $867::integer, $868::bigint, $869::text, $870::text),
       (59, $871::text, $872::text, $873::bytea, $874::bigint, $875::bigint, $876::bigint, $877::text, $878::bigint, $879::text, $880::text, $881::bigint, $882::integer, $883::bigint, $884::text, $885::text),
       (60, $886::text, $887::text, $888::bytea, $889::bigint, $890::bigint, $891::bigint, $892::text, $893::bigint, $894::text, $895::text, $896::bigint, $897::integer, $898::bigint, $899::text, $900::text),
       (61, $901::text, $902::text, $903::bytea, $904::bigint, $905::bigint, $906::bigint, $907::text, $908::bigint, $909::text, $910::text, $911::bigint, $912::integer, $913::bigint, $914::text, $915::text),
       (62, $916::text, $917::text, $918::bytea, $919::bigint, $920::bigint, $921::bigint, $922::text, $923::bigint, $924::text, $925::text, $926::bigint, $927::integer, $928::bigint, $929::text, $930::text),
       (63, $931::text, $932::text, $933::bytea, $934::bigint, $935::bigint, $936::bigint, $937::text, $938::bigint, $939::text, $940::text, $941::bigint, $942::integer, $943::bigint, $944::text, $945::text),
       (64, $946::text, $947::text, $948::bytea, $949::bigint, $950::bigint, $951::bigint, $952::text, $953::bigint, $954::text, $955::text, $956::bigint, $957::integer, $958::bigint, $959::text, $960::text),
       (65, $961::text, $962::text, $963::bytea, $964::bigint, $965::bigint, $966::bigint, $967::text, $968::bigint, $969::text, $970::text, $971::bigint, $972::integer, $973::bigint, $974::text, $975::text),
       (66, $976::text, $977::text, $978::bytea, $979::bigint, $980::bigint, $981::bigint, $982::text, $983::bigint, $984::text, $985::text, $986::bigint, $987::integer, $988::bigint, $989::text, $990::text),
       (67, $991::text, $992::text, $993::bytea, $994::bigint, $995::bigint, $996::bigint, $997::text, $998::bigint, $999::text, $1000::text, $1001::bigint, $1002::integer, $1003::bigint, $1004::text, $1005::text),
       (68, $1006::text, $1007::text, $1008::bytea, $1009::bigint, $1010::bigint, $1011::bigint, $1012::text, $1013::bigint, $1014::text, $1015::text, $1016::bigint, $1017::integer, $1018::bigint, $1019::text, $1020::text),
       (69, $1021::text, $1022::text, $1023::bytea, $1024::bigint, $1025::bigint, $1026::bigint, $1027::text, $1028::bigint, $1029::text, $1030::text, $1031::bigint, $1032::integer, $1033::bigint, $1034::text, $1035::text),
       (70, $1036::text, $1037::text, $1038::bytea, $1039::bigint, $1040::bigint, $1041::bigint, $1042::text, $1043::bigint, $1044::text, $1045::text, $1046::bigint, $1047::integer, $1048::bigint, $1049::text, $1050::text),
       (71, $1051::text, $1052::text, $1053::bytea, $1054::bigint, $1055::bigint, $1056::bigint, $1057::text, $1058::bigint, $1059::text, $1060::text, $1061::bigint, $1062::integer, $1063::bigint, $1064::text, $1065::text),
       (72, $1066::text, $1067::text, $1068::bytea, $1069::bigint, $1070::bigint, $1071::bigint, $1072::text, $1073::bigint, $1074::text, $1075::text, $1076::bigint, $1077::integer, $1078::bigint, $1079::text, $1080::text),
       (73, $1081::text, $1082::text, $1083::bytea, $1084::bigint, $1085::bigint, $1086::bigint, $1087::text, $1088::bigint, $1089::text, $1090::text, $1091::bigint, $1092::integer, $1093::bigint, $1094::text, $1095::text),
       (74, $1096::text, $1097::text, $1098::bytea, $1099::bigint, $1100::bigint, $1101::bigint, $1102::text, $1103::bigint, $1104::text, $1105::text, $1106::bigint, $1107::integer, $1108::bigint, $1109::text, $1110::text),
       (75, $1111::text, $1112::text, $1113::bytea, $1114::bigint, $1115::bigint, $1116::bigint, $1117::text, $1118::bigint, $1119::text, $1120::text, $1121::bigint, $1122::integer, $1123::bigint, $1124::text, $1125::text),
       (76, $1126::text, $1127::text, $1128::bytea, $1129::bigint, $1130::bigint, $1131::bigint, $1132::text, $1133::bigint, $1134::text, $1135::text, $1136::bigint, $1137::integer, $1138::bigint, $1139::text, $1140::text),
       (77, $1141::text, $1142::text, $1143::bytea, $1144::bigint, $1145::bigint, $1146::bigint, $1147::text, $1148::bigint, $1149::text, $1150::text, $1151::bigint, $1152::integer, $1153::bigint, $1154::text, $1155::text),
       (78, $1156::text, $1157::text, $1158::bytea, $1159::bigint, $1160::bigint, $1161::bigint, $1162::text, $1163::bigint, $1164::text, $1165::text, $1166::bigint, $1167::integer, $1168::bigint, $1169::text, $1170::text),
       (79, $1171::text, $1172::text, $1173::bytea, $1174::bigint, $1175::bigint, $1176::bigint, $1177::text, $1178::bigint, $1179::text, $1180::text, $1181::bigint, $1182::integer, $1183::bigint, $1184::text, $1185::text),
       (80, $1186::text, $1187::text, $1188::bytea, $1189::bigint, $1190::bigint, $1191::bigint, $1192::text, $1193::bigint, $1194::text, $1195::text, $1196::bigint, $1197::integer, $1198::bigint, $1199::text, $1200::text),
       (81, $1201::text, $1202::text, $1203::bytea, $1204::bigint, $1205::bigint, $1206::bigint, $1207::text, $1208::bigint, $1209::text, $1210::text, $1211::bigint, $1212::integer, $1213::bigint, $1214::text, $1215::text),
       (82, $1216::text, $1217::text, $1218::bytea, $1219::bigint, $1220::bigint, $1221::bigint, $1222::text, $1223::bigint, $1224::text, $1225::text, $1226::bigint, $1227::integer, $1228::bigint, $1229::text, $1230::text),
       (83, $1231::text, $1232::text, $1233::bytea, $1234::bigint, $1235::bigint, $1236::bigint, $1237::text, $1238::bigint, $1239::text, $1240::text, $1241::bigint, $1242::integer, $1243::bigint, $1244::text, $1245::text),
       (84, $1246::text, $1247::text, $1248::bytea, $1249::bigint, $1250::bigint, $1251::bigint, $1252::text, $1253::bigint, $1254::text, $1255::text, $1256::bigint, $1257::integer, $1258::bigint, $1259::text, $1260::text),
       (85, $1261::text, $1262::text, $1263::bytea, $1264::bigint, $1265::bigint, $1266::bigint, $1267::text, $1268::bigint, $1269::text, $1270::text, $1271::bigint, $1272::integer, $1273::bigint, $1274::text, $1275::text),
       (86, $1276::text, $1277::text, $1278::bytea, $1279::bigint, $1280::bigint, $1281::bigint, $1282::text, $1283::bigint, $1284::text, $1285::text, $1286::bigint, $1287::integer, $1288::bigint, $1289::text, $1290::text),
       (87, $1291::text, $1292::text, $1293::bytea, $1294::bigint, $1295::bigint, $1296::bigint, $1297::text, $1298::bigint, $1299::text, $1300::text, $1301::bigint, $1302::integer, $1303::bigint, $1304::text, $1305::text),
       (88, $1306::text, $1307::text, $1308::bytea, $1309::bigint, $1310::bigint, $1311::bigint, $1312::text, $1313::bigint, $1314::text, $1315::text, $1316::bigint, $1317::integer, $1318::bigint, $1319::text, $1320::text),
       (89, $1321::text, $1322::text, $1323::bytea, $1324::bigint, $1325::bigint, $1326::bigint, $1327::text, $1328::bigint, $1329::text, $1330::text, $1331::bigint, $1332::integer, $1333::bigint, $1334::text, $1335::text),
       (90, $1336::text, $1337::text, $1338::bytea, $1339::bigint, $1340::bigint, $1341::bigint, $1342::text, $1343::bigint, $1344::text, $1345::text, $1346::bigint, $1347::integer, $1348::bigint, $1349::text, $1350::text),
       (91, $1351::text, $1352::text, $1353::bytea, $1354::bigint, $1355::bigint, $1356::bigint, $1357::text, $1358::bigint, $1359::text, $1360::text, $1361::bigint, $1362::integer, $1363::bigint, $1364::text, $1365::text),
       (92, $1366::text, $1367::text, $1368::bytea, $1369::bigint, $1370::bigint, $1371::bigint, $1372::text, $1373::bigint, $1374::text, $1375::text, $1376::bigint, $1377::integer, $1378::bigint, $1379::text, $1380::text),
       (93, $1381::text, $1382::text, $1383::bytea, $1384::bigint, $1385::bigint, $1386::bigint, $1387::text, $1388::bigint, $1389::text, $1390::text, $1391::bigint, $1392::integer, $1393::bigint, $1394::text, $1395::text),
       (94, $1396::text, $1397::text, $1398::bytea, $1399::bigint, $1400::bigint, $1401::bigint, $1402::text, $1403::bigint, $1404::text, $1405::text, $1406::bigint, $1407::integer, $1408::bigint, $1409::text, $1410::text),
       (95, $1411::text, $1412::text, $1413::bytea, $1414::bigint, $1415::bigint, $1416::bigint, $1417::text, $1418::bigint, $1419::text, $1420::text, $1421::bigint, $1422::integer, $1423::bigint, $1424::text, $1425::text),
       (96, $1426::text, $1427::text, $1428::bytea, $1429::bigint, $1430::bigint, $1431::bigint, $1432::text, $1433::bigint, $1434::text, $1435::text, $1436::bigint, $1437::integer, $1438::bigint, $1439::text, $1440::text),
       (97, $1441::text, $1442::text, $1443::bytea, $1444::bigint, $1445::bigint, $1446::bigint, $1447::text, $1448::bigint, $1449::text, $1450::text, $1451::bigint, $1452::integer, $1453::bigint, $1454::text, $1455::text),
       (98, $1456::text, $1457::text, $1458::bytea, $1459::bigint, $1460::bigint, $1461::bigint, $1462::text, $1463::bigint, $1464::text, $1465::text, $1466::bigint, $1467::integer, $1468::bigint, $1469::text, $1470::text),
       (99, $1471::text, $1472::text, $1473::bytea, $1474::bigint, $1475::bigint, $1476::bigint, $1477::text, $1478::bigint, $1479::text, $1480::text, $1481::bigint, $1482::integer, $1483::bigint, $1484::text, $1485::text),
       (100, $1486::text, $1487::text, $1488::bytea, $1489::bigint, $1490::bigint, $1491::bigint, $1492::text, $1493::bigint, $1494::text, $1495::text, $1496::bigint, $1497::integer, $1498::bigint, $1499::text, $1500::text)) AS v(k, q, nm, pl, ra, dl, ma, uk, ev, cr, tz, mi, pr, tm, ck, pt)
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
-- clock): PG_INSERT_MANY with the options ($1..$13) given once.
-- fragment: PG_INSERT_MANY_SAME
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms,
                     concurrency_key, part)
SELECT $1::text, v.nm, v.pl, COALESCE($2::bigint, clk.n + $3::bigint), $4::bigint, $5::text,
       $6::bigint, $7::text, $8::text, $9::bigint, clk.n, $10::integer, $11::bigint,
       $12::text, COALESCE($13::text, '')
  FROM clk, (VALUES
       (1, $14::text, $15::bytea),
       (2, $16::text, $17::bytea),
       (3, $18::text, $19::bytea),
       (4, $20::text, $21::bytea),
       (5, $22::text, $23::bytea),
       (6, $24::text, $25::bytea),
       (7, $26::text, $27::bytea),
       (8, $28::text, $29::bytea),
       (9, $30::text, $31::bytea),
       (10, $32::text, $33::bytea),
       (11, $34::text, $35::bytea),
       (12, $36::text, $37::bytea),
       (13, $38::text, $39::bytea),
       (14, $40::text, $41::bytea),
       (15, $42::text, $43::bytea),
       (16, $44::text, $45::bytea),
       (17, $46::text, $47::bytea),
       (18, $48::text, $49::bytea),
       (19, $50::text, $51::bytea),
       (20, $52::text, $53::bytea),
       (21, $54::text, $55::bytea),
       (22, $56::text, $57::bytea),
       (23, $58::text, $59::bytea),
       (24, $60::text, $61::bytea),
       (25, $62::text, $63::bytea),
       (26, $64::text, $65::bytea),
       (27, $66::text, $67::bytea),
       (28, $68::text, $69::bytea),
       (29, $70::text, $71::bytea),
       (30, $72::text, $73::bytea),
       (31, $74::text, $75::bytea),
       (32, $76::text, $77::bytea),
       (33, $78::text, $79::bytea),
       (34, $80::text, $81::bytea),
       (35, $82::text, $83::bytea),
       (36, $84::text, $85::bytea),
       (37, $86::text, $87::bytea),
       (38, $88::text, $89::bytea),
       (39, $90::text, $91::bytea),
       (40, $92::text, $93::bytea),
       (41, $94::text, $95::bytea),
       (42, $96::text, $97::bytea),
       (43, $98::text, $99::bytea),
       (44, $100::text, $101::bytea),
       (45, $102::text, $103::bytea),
       (46, $104::text, $105::bytea),
       (47, $106::text, $107::bytea),
       (48, $108::text, $109::bytea),
       (49, $110::text, $111::bytea),
       (50, $112::text, $113::bytea),
       (51, $114::text, $115::bytea),
       (52, $116::text, $117::bytea),
       (53, $118::text, $119::bytea),
       (54, $120::text, $121::bytea),
       (55, $122::text, $123::bytea),
       (56, $124::text, $125::bytea),
       (57, $126::text, $127::bytea),
       (58, $128::text, $129::bytea),
       (59, $130::text, $131::bytea),
       (60, $132::text, $133::bytea),
       (61, $134::text, $135::bytea),
       (62, $136::text, $137::bytea),
       (63, $138::text, $139::bytea),
       (64, $140::text, $141::bytea),
       (65, $142::text, $143::bytea),
       (66, $144::text, $145::bytea),
       (67, $146::text, $147::bytea),
       (68, $148::text, $149::bytea),
       (69, $150::text, $151::bytea),
       (70, $152::text, $153::bytea),
       (71, $154::text, $155::bytea),
       (72, $156::text, $157::bytea),
       (73, $158::text, $159::bytea),
       (74, $160::text, $161::bytea),
       (75, $162::text, $163::bytea),
       (76, $164::text, $165::bytea),
       (77, $166::text, $167::bytea),
       (78, $168::text, $169::bytea),
       (79, $170::text, $171::bytea),
       (80, $172::text, $173::bytea),
       (81, $174::text, $175::bytea),
       (82, $176::text, $177::bytea),
       (83, $178::text, $179::bytea),
       (84, $180::text, $181::bytea),
       (85, $182::text, $183::bytea),
       (86, $184::text, $185::bytea),
       (87, $186::text, $187::bytea),
       (88, $188::text, $189::bytea),
       (89, $190::text, $191::bytea),
       (90, $192::text, $193::bytea),
       (91, $194::text, $195::bytea),
       (92, $196::text, $197::bytea),
       (93, $198::text, $199::bytea),
       (94, $200::text, $201::bytea),
       (95, $202::text, $203::bytea),
       (96, $204::text, $205::bytea),
       (97, $206::text, $207::bytea),
       (98, $208::text, $209::bytea),
       (99, $210::text, $211::bytea),
       (100, $212::text, $213::bytea)) AS v(k, nm, pl)
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
