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
-- the top due priority: due, free, neither the task nor its queue
-- paused), in claim order.
-- fragment: SQLITE_CLAIM_WALK
FROM lq_task INDEXED BY lq_task_claim
 WHERE queue = ?1
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}})
   AND ({{LIMIT_OPEN}})
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)
   AND priority <= ({{SQLITE_TOP}})
 ORDER BY priority DESC, run_at, id

-- SQLITE_TOP: the highest priority of queue ?1 that has a due, unpaused,
-- free task (NULL when nothing is due), where SQLITE_CLAIM_WALK starts: a
-- walk from the left read every task of a higher priority that is not
-- due yet first (100 000 of priority 5 and the due ones at 0: 9 ms a
-- claim, against 30 us).  a: the priority of the latest due task (a
-- descent of lq_task_due from the clock: SQLITE_DUE_WALK).  No higher
-- priority in the queue (one descent of lq_task_claim): that is the top,
-- and the recursive part, which costs a claim a third more, is not run.
-- Otherwise up (SQLITE_PRIORITIES_ABOVE) walks the higher priorities the
-- queue has, one descent each, and the top is the highest with a due free
-- task.
-- fragment: SQLITE_TOP
SELECT CASE
         WHEN NOT EXISTS (SELECT 1 FROM lq_task x INDEXED BY lq_task_claim
                           WHERE x.queue = ?1 AND x.priority > a.p) THEN a.p
         ELSE (WITH RECURSIVE {{SQLITE_PRIORITIES_ABOVE}}
               SELECT max(up.p) FROM up
                WHERE up.p = a.p
                   OR EXISTS (SELECT 1 FROM lq_task d INDEXED BY lq_task_claim
                               WHERE d.queue = ?1 AND d.priority = up.p AND {{DUE_FREE_D}}))
       END
  FROM (SELECT d.priority AS p {{SQLITE_DUE_WALK}} ORDER BY d.run_at DESC LIMIT 1) a

-- SQLITE_FAIR_TOP: SQLITE_TOP for the fair claim's head read: the highest
-- priority of queue ?1 with a task PART_DUE_X lets through (outside a shut
-- limit too), found the same way.
-- fragment: SQLITE_FAIR_TOP
SELECT CASE
         WHEN NOT EXISTS (SELECT 1 FROM lq_task x INDEXED BY lq_task_claim
                           WHERE x.queue = ?1 AND x.priority > a.p) THEN a.p
         ELSE (WITH RECURSIVE {{SQLITE_PRIORITIES_ABOVE}}
               SELECT max(up.p) FROM up
                WHERE up.p = a.p
                   OR EXISTS (SELECT 1 FROM lq_task x INDEXED BY lq_task_claim
                               WHERE x.queue = ?1 AND x.priority = up.p AND {{PART_DUE_X}}))
       END
  FROM (SELECT x.priority AS p FROM lq_task x INDEXED BY lq_task_due
         WHERE x.queue = ?1 AND {{PART_DUE_X}}
         ORDER BY x.run_at DESC LIMIT 1) a

-- SQLITE_DUE_WALK: the claimable due tasks of queue ?1 on lq_task_due; a
-- count of them, up to the batch size, bounds the walk as in
-- task_candidates, so it never reads on through tasks not due yet.
-- fragment: SQLITE_DUE_WALK
FROM lq_task d INDEXED BY lq_task_due
 WHERE d.queue = ?1 AND {{DUE_FREE_D}}

-- DUE_FREE_D: the task of alias d is due, unpaused and free.
-- fragment: DUE_FREE_D
d.run_at <= {{NOW}} AND d.paused = 0 AND (d.claim_until IS NULL OR d.claim_until <= {{NOW}})

-- SQLITE_PRIORITIES_ABOVE: the recursive CTE up of SQLITE_TOP and
-- SQLITE_FAIR_TOP (queue ?1): the priority a.p, then each higher priority
-- the queue has, one descent of lq_task_claim each, and NULL at the end.
-- fragment: SQLITE_PRIORITIES_ABOVE
up (p) AS (
  SELECT a.p
  UNION ALL
  SELECT (SELECT x.priority FROM lq_task x INDEXED BY lq_task_claim
           WHERE x.queue = ?1 AND x.priority > up.p ORDER BY x.priority LIMIT 1)
    FROM up WHERE up.p IS NOT NULL)

-- SQLITE_PART_HEAD_P: the id of the head of partition p (an lq_partition
-- row) of queue ?1: its first task in (run_at, id) order of the top
-- priority (CTE top) that PART_DUE_X lets through, one lq_task_part seek.
-- fragment: SQLITE_PART_HEAD_P
SELECT x.id FROM lq_task x INDEXED BY lq_task_part
 WHERE x.queue = ?1 AND x.part = p.name
   AND x.priority = (SELECT priority FROM top)
   AND {{PART_DUE_X}}
 ORDER BY x.run_at, x.id LIMIT 1

-- SQLITE_ROUND_SIZE: how many tasks a partition gives a fair batch of ?2
-- in queue ?1: the batch over the partitions, rounded up.
-- fragment: SQLITE_ROUND_SIZE
SELECT (?2 + count(*) - 1) / max(count(*), 1) FROM lq_partition c WHERE c.queue = ?1

-- SQLITE_FAIR_NEXT: the recursive step of a fair read's CTE h (name, ord,
-- id, run_at, rn) (queue ?1, limit ?2, CTE top the top due priority): a
-- partition's next due task of that priority after the one before it, up
-- to ?2 / partitions (rounded up) a partition.
-- fragment: SQLITE_FAIR_NEXT
  SELECT h.name, h.ord, k.id, k.run_at, h.rn + 1
    FROM h
    JOIN lq_task k ON k.id = (SELECT x.id FROM lq_task x INDEXED BY lq_task_part
                               WHERE x.queue = ?1 AND x.part = h.name
                                 AND x.priority = (SELECT priority FROM top)
                                 AND (x.run_at, x.id) > (h.run_at, h.id)
                                 AND {{PART_DUE_X}}
                               ORDER BY x.run_at, x.id LIMIT 1)
   WHERE h.rn < ({{SQLITE_ROUND_SIZE}})

-- SQLITE_FAIR_PICKED: the rows of a fair read (TASK_COLS, the partition,
-- CTE st's stamp): the first ?2 of h by round, then by its order in the
-- round (ord), then by name; none while the queue is paused.
-- fragment: SQLITE_FAIR_PICKED
SELECT t.id, t.queue, t.name, t.payload, t.run_at, t.attempts, t.max_attempts, t.unique_key,
       t.claim_owner, t.claim_until, t.every_ms, t.cron, t.tz, t.missed, t.paused, t.last_error,
       t.created_at, 0, NULL, {{NOW}}, t.priority, t.timeout_ms, t.concurrency_key, t.part,
       {{PART_LIMITED_T}}, h.name, (SELECT stamp FROM st)
  FROM h
  JOIN lq_task t ON t.id = h.id
 WHERE NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)
 ORDER BY h.rn, h.ord, h.name
 LIMIT ?2

-- SQLITE_TURN_ROUNDS: the CTE h (id, name, run_at) of a fair batch (queue
-- ?1, limit ?2, CTE top the top due priority): each partition's first due
-- tasks of that priority in (run_at, id) order, up to ?2 / partitions
-- (rounded up), one range of lq_task_part each (the IN list); none while
-- the queue is paused.  Read once: SQLITE_TURN_PICK reads it three times.
-- fragment: SQLITE_TURN_ROUNDS
h (id, name, run_at) AS MATERIALIZED (
  SELECT k.id, p.name, k.run_at
    FROM lq_partition p
    JOIN lq_task k ON k.id IN (SELECT x.id FROM lq_task x INDEXED BY lq_task_part
                                WHERE x.queue = ?1 AND x.part = p.name
                                  AND x.priority = (SELECT priority FROM top)
                                  AND {{PART_DUE_X}}
                                ORDER BY x.run_at, x.id
                                LIMIT ({{SQLITE_ROUND_SIZE}}))
   WHERE p.queue = ?1
     AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1))

-- SQLITE_TURN_PICK: the ids of h a fair batch takes (limit ?2, ?3 the
-- partition served last): the first ?2 by their place in their partition
-- (their round), then in name order from the partition after ?3.  When h
-- holds no more than ?2, that is all of it, taken without numbering or
-- sorting (the usual case: the window below is most of the statement's
-- cost).  Only the last round can be cut: the earlier ones hold fewer than
-- ?2 tasks, as the rounds are ?2 / partitions rounded up.
-- fragment: SQLITE_TURN_PICK
SELECT id FROM h WHERE (SELECT count(*) FROM h) <= ?2
UNION ALL
SELECT id FROM (SELECT id FROM (SELECT id, name,
                                       row_number() OVER (PARTITION BY name ORDER BY run_at, id) AS rn
                                  FROM h WHERE (SELECT count(*) FROM h) > ?2)
                 ORDER BY rn, name <= ?3, name LIMIT ?2)

-- SQLITE_TURN_HEAD: the id of the task a handle's turn takes (queue ?1,
-- ?2 the partition it served last, CTE top the top due priority): the
-- head of the first partition after ?2 in name order that has a due task
-- of that priority, else the same from the first partition up to ?2.
-- Each walks lq_partition's key and probes one lq_task_part range a
-- partition; COALESCE reads the second only when the first is NULL.
-- fragment: SQLITE_TURN_HEAD
SELECT COALESCE(
         (SELECT k.id FROM lq_partition p
            JOIN lq_task k ON k.id = ({{SQLITE_PART_HEAD_P}})
           WHERE p.queue = ?1 AND p.name > ?2
           ORDER BY p.name LIMIT 1),
         (SELECT k.id FROM lq_partition p
            JOIN lq_task k ON k.id = ({{SQLITE_PART_HEAD_P}})
           WHERE p.queue = ?1 AND p.name <= ?2
           ORDER BY p.name LIMIT 1))
 WHERE NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)

-- SQLITE_CLAIM_PLAIN: the claim's own check of each row it changes: a
-- one-off task, still due, free and not paused, not an expired claim on
-- its last attempt (that one is buried by the transactional path), not
-- under a limit (that one passes the limits' gate in the transactional
-- path: a short batch goes there).
-- fragment: SQLITE_CLAIM_PLAIN
every_ms IS NULL AND cron IS NULL
   AND NOT (claim_owner IS NOT NULL AND attempts >= max_attempts)
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}})
   AND ({{LIMITED}}) = 0

-- SQLITE_CLAIMED_COLS: TASK_COLS of a claimed row, then claimed = 1.
-- fragment: SQLITE_CLAIMED_COLS
id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
          claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
          created_at, 0, NULL, {{NOW}}, priority, timeout_ms, concurrency_key, part, 0, 1

-- Flow control (lq_limit, see migration 0007).  A limit row l is "shut"
-- when its key has as many live claims as its concurrency, or when its
-- GCRA has no start left in this period: the next start would put the
-- theoretical arrival time past now + one period (all scaled by rate_n).
-- LIMIT_SHUT_KEY: l limits the tasks whose concurrency_key is l.name.
-- fragment: LIMIT_SHUT_KEY
(l.concurrency IS NOT NULL
  AND l.concurrency <= (SELECT count(*) FROM lq_task c INDEXED BY lq_task_ckey
                         WHERE c.concurrency_key = l.name AND c.claim_until > {{NOW}}
                           AND c.claim_owner IS NOT NULL))
 OR ({{LIMIT_RATE_SHUT}})

-- LIMIT_SHUT_QUEUE: l ("queue:Q") limits queue ?1; a live claim is due
-- (run_at <= now), so the count walks lq_task_due's due range.
-- fragment: LIMIT_SHUT_QUEUE
(l.concurrency IS NOT NULL
  AND l.concurrency <= (SELECT count(*) FROM lq_task c INDEXED BY lq_task_due
                         WHERE c.queue = ?1 AND c.run_at <= {{NOW}}
                           AND c.claim_until > {{NOW}} AND c.claim_owner IS NOT NULL))
 OR ({{LIMIT_RATE_SHUT}})

-- fragment: LIMIT_RATE_SHUT
l.rate_n IS NOT NULL
 AND max(l.tat, {{NOW}} * l.rate_n) + l.rate_period_ms > ({{NOW}} + l.rate_period_ms) * l.rate_n

-- LIMIT_TAT_NEXT: the tat after one more start.
-- fragment: LIMIT_TAT_NEXT
CASE WHEN l.rate_n IS NULL THEN l.tat ELSE max(l.tat, {{NOW}} * l.rate_n) + l.rate_period_ms END

-- LIMIT_OPEN: the claim filter of a task row (lq_task, unaliased): no
-- limit on its key is shut.  A task without a key costs one IS NULL test.
-- Saturated keys are skipped, not waited behind, so they never hold back
-- other keys' due tasks.  A queue's own limit ("queue:Q") is not tested
-- here: it holds back every task of the queue alike, so there is no line to
-- jump, and on PostgreSQL its count in the filter made the one-statement
-- claims plan anew on every call (a generic plan priced above the custom
-- ones).  The claim decides again under the limit rows' lock
-- (limit_take_key, limit_take_queue), the queue's limit included.
-- fragment: LIMIT_OPEN
(lq_task.concurrency_key IS NULL
  OR NOT EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = lq_task.concurrency_key AND ({{LIMIT_SHUT_KEY}})))

-- LIMITED: 1 when a claim of the task must pass the limits (it has a key,
-- or its queue ?1 has a limit row), else 0.
-- fragment: LIMITED
CASE WHEN lq_task.concurrency_key IS NOT NULL
       OR EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = 'queue:' || ?1) THEN 1 ELSE 0 END

-- LIMIT_COLS: the columns of limit_get and limit_list (sql_names.h)
-- of a limit row l; running counts its live claims.
-- fragment: LIMIT_COLS
l.name, l.concurrency, l.rate_n, l.rate_period_ms, l.tat,
       CASE WHEN substr(l.name, 1, 6) = 'queue:'
            THEN (SELECT count(*) FROM lq_task c WHERE c.queue = substr(l.name, 7) AND c.run_at <= {{NOW}}
                    AND c.claim_until > {{NOW}} AND c.claim_owner IS NOT NULL)
            ELSE (SELECT count(*) FROM lq_task c WHERE c.concurrency_key = l.name
                    AND c.claim_until > {{NOW}} AND c.claim_owner IS NOT NULL) END,
       {{NOW}}

-- PART_DUE_X: alias x (a task in a partition's head probe) is due,
-- unpaused and unclaimed or its claim expired, and no limit on its key is
-- shut (LIMIT_OPEN's test): the fair claim's filter.  A task under a shut
-- key is skipped, so its partition's other tasks take the partition's
-- turn; one under a limit with room is claimed in it, through the limits'
-- gate (PART_LIMITED_T).
-- fragment: PART_DUE_X
x.run_at <= {{NOW}} AND x.paused = 0 AND (x.claim_until IS NULL OR x.claim_until <= {{NOW}})
  AND (x.concurrency_key IS NULL
       OR NOT EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = x.concurrency_key AND ({{LIMIT_SHUT_KEY}})))

-- PART_LIMITED_T: LIMITED of a task row t of queue ?1: 1 when its claim
-- must pass the limits' gate (its key, or the queue's limit), else 0.
-- The queue's limit row is looked up by ?1, once a statement, not by
-- t.queue once a row.
-- fragment: PART_LIMITED_T
CASE WHEN t.concurrency_key IS NOT NULL
       OR EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = 'queue:' || ?1) THEN 1 ELSE 0 END

-- TASK_INSERT_ONE: the INSERT of task_insert and task_insert_notify up to
-- their conflict clause: the task of ?1..?13 (as sql_names.h lists them),
-- and its concurrency key ?14 and partition ?15 (NULL: none) with the row,
-- not by an UPDATE after it.
-- fragment: TASK_INSERT_ONE
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms,
                     concurrency_key, part)
VALUES (?1, ?2, ?3, COALESCE(?4, {{NOW}} + ?5), ?6, ?7, ?8, ?9, ?10, ?11, {{NOW}}, ?12, ?13,
        ?14, COALESCE(?15, ''))

-- SQLITE_INSERT_MANY_SAME: the INSERT of task_insert_many_same and
-- task_insert_many_keyless up to their WHERE: the options (?1..?13) once,
-- each task's name and payload from TASK_ROWS_SAME, unused places skipped.
-- fragment: SQLITE_INSERT_MANY_SAME
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms,
                     concurrency_key, part)
SELECT ?1, nm, pl, COALESCE(?2, {{NOW}} + ?3), ?4, ?5, ?6, ?7, ?8, ?9,
       {{NOW}}, ?10, ?11, ?12, COALESCE(?13, '')
  FROM ({{TASK_ROWS_SAME}}) AS v
 WHERE nm IS NOT NULL
