-- Fragments (MySQL/MariaDB): text written once here, put in place of
-- {{NAME}} in every statement of this dialect at build time (see
-- cmake/sqlembed.c).

-- NOW: the database clock in epoch milliseconds.  The session runs with
-- time_zone '+00:00' and NOW(3) is fixed for the whole statement, so every
-- comparison in one statement sees the same instant and indexes stay usable.
-- fragment: NOW
CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)

-- CLAIM_FREE: the task is unclaimed or its claim has expired.
-- fragment: CLAIM_FREE
claim_until IS NULL OR claim_until <= {{NOW}}

-- Flow control (lq_limit, see migration 0011).  A limit row l is "shut"
-- when its key has as many live claims as its concurrency, or when its
-- GCRA has no start left in this period: the next start would put the
-- theoretical arrival time past now + one period (all scaled by rate_n).
-- LIMIT_SHUT_KEY: l limits the tasks whose concurrency_key is l.name.
-- fragment: LIMIT_SHUT_KEY
(l.concurrency IS NOT NULL
  AND l.concurrency <= (SELECT count(*) FROM lq_task c FORCE INDEX (lq_task_ckey)
                         WHERE c.concurrency_key = l.name AND c.claim_until > {{NOW}}
                           AND c.claim_owner IS NOT NULL))
 OR ({{LIMIT_RATE_SHUT}})

-- LIMIT_SHUT_QUEUE: l ("queue:Q") limits queue ?1; a live claim is due
-- (run_at <= now), so the count walks lq_task_due's due range.
-- fragment: LIMIT_SHUT_QUEUE
(l.concurrency IS NOT NULL
  AND l.concurrency <= (SELECT count(*) FROM lq_task c FORCE INDEX (lq_task_due)
                         WHERE c.queue = ?1 AND c.run_at <= {{NOW}}
                           AND c.claim_until > {{NOW}} AND c.claim_owner IS NOT NULL))
 OR ({{LIMIT_RATE_SHUT}})

-- fragment: LIMIT_RATE_SHUT
l.rate_n IS NOT NULL
 AND GREATEST(l.tat, {{NOW}} * l.rate_n) + l.rate_period_ms > ({{NOW}} + l.rate_period_ms) * l.rate_n

-- LIMIT_TAT_NEXT: the tat after one more start.
-- fragment: LIMIT_TAT_NEXT
CASE WHEN l.rate_n IS NULL THEN l.tat ELSE GREATEST(l.tat, {{NOW}} * l.rate_n) + l.rate_period_ms END

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
       OR EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = CONCAT('queue:', ?1)) THEN 1 ELSE 0 END

-- LIMIT_COLS: the columns of limit_get and limit_list (sql_names.h)
-- of a limit row l; running counts its live claims.
-- fragment: LIMIT_COLS
l.name, l.concurrency, l.rate_n, l.rate_period_ms, l.tat,
       CASE WHEN LEFT(l.name, 6) = 'queue:'
            THEN (SELECT count(*) FROM lq_task c WHERE c.queue = SUBSTRING(l.name, 7) AND c.run_at <= {{NOW}}
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

-- PART_HEAD_P: the head of partition p (an lq_partition row) of queue ?1:
-- its first task in (run_at, id) order of the top priority (CTE top) that
-- PART_DUE_X lets through, one lq_task_part seek.
-- fragment: PART_HEAD_P
SELECT x.id FROM lq_task x FORCE INDEX (lq_task_part)
 WHERE x.queue = ?1 AND x.part = p.name
   AND x.priority = (SELECT priority FROM top)
   AND {{PART_DUE_X}}
 ORDER BY x.run_at, x.id LIMIT 1

-- PART_LIMITED_T: LIMITED of a task row t of any queue: 1 when its claim
-- must pass the limits' gate (its key, or its queue's limit), else 0.
-- fragment: PART_LIMITED_T
CASE WHEN t.concurrency_key IS NOT NULL
       OR EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = CONCAT('queue:', t.queue)) THEN 1 ELSE 0 END

-- PART_DUE_D: the same test of alias d (the top due priority's probe).
-- fragment: PART_DUE_D
d.run_at <= {{NOW}} AND d.paused = 0 AND (d.claim_until IS NULL OR d.claim_until <= {{NOW}})
  AND (d.concurrency_key IS NULL
       OR NOT EXISTS (SELECT 1 FROM lq_limit l WHERE l.name = d.concurrency_key AND ({{LIMIT_SHUT_KEY}})))

-- CLAIM_FILTER: a task row (lq_task, unaliased) of queue ?1 a claim may
-- take: due, unpaused, no live claim or back-off on it, no limit on its
-- key shut, its queue not paused.
-- fragment: CLAIM_FILTER
queue = ?1
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}})
   AND ({{LIMIT_OPEN}})
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)

-- CANDIDATES_HEAD: TASK_COLS of a candidate (lq_task, unaliased) up to
-- its partition: the limited flag follows.
-- fragment: CANDIDATES_HEAD
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0, NULL, {{NOW}}, priority, timeout_ms,
       concurrency_key, part

-- CLAIM_FILTER_UNLIMITED: CLAIM_FILTER where lq_limit has no row, so that
-- no limit can be shut (task_candidates_unlimited).
-- fragment: CLAIM_FILTER_UNLIMITED
queue = ?1
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}})
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)

-- CANDIDATES_COLS: TASK_COLS of a candidate, then its steering
-- (task_steer_get's columns): the claim of an occurrence needs it.
-- fragment: CANDIDATES_COLS
{{CANDIDATES_HEAD}}, {{LIMITED}}, overlap, catch_up, next_at

-- CANDIDATES_SELECT: the start of task_candidates and task_candidates_below:
-- TASK_COLS of the tasks of queue ?1 CLAIM_FILTER lets through, read on
-- lq_task_claim (queue, priority DESC, run_at, id).
-- fragment: CANDIDATES_SELECT
{{CANDIDATES_COLS}}
  FROM lq_task FORCE INDEX (lq_task_claim)
 WHERE {{CLAIM_FILTER}}

-- CLAIMABLE_DUE: queue ?1 has a task CLAIM_FILTER lets through.  The fair
-- claim tests it first (uncorrelated, so read once; task_candidates has a
-- locking copy) and, when it is false, reads nothing else: its walk of
-- lq_task_claim would otherwise read on through every task not due yet,
-- looking for a due one that is not there.  The probe reads lq_task_due's
-- due range only as far as the first such task, past those claimed,
-- paused or held back ahead of it.  (Its lq_task is its own.)
-- fragment: CLAIMABLE_DUE
EXISTS (SELECT 1 FROM lq_task FORCE INDEX (lq_task_due) WHERE {{CLAIM_FILTER}})

-- MANY_K, MANY_NAMES, MANY_PAYLOADS: task_insert_many_same's tasks as
-- place numbers k (1..100, a derived table of constants) and, for each,
-- ELT(k, MANY_NAMES) and ELT(k, MANY_PAYLOADS): its name and payload
-- (?12..?211, 2 a task; NULL past the last task).  A derived table of the
-- parameters themselves held the payloads as BLOBs, and MariaDB put it on
-- disk for every batch.
-- fragment: MANY_K
SELECT 1 AS k UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5
       UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9
       UNION ALL SELECT 10 UNION ALL SELECT 11 UNION ALL SELECT 12 UNION ALL SELECT 13
       UNION ALL SELECT 14 UNION ALL SELECT 15 UNION ALL SELECT 16 UNION ALL SELECT 17
       UNION ALL SELECT 18 UNION ALL SELECT 19 UNION ALL SELECT 20 UNION ALL SELECT 21
       UNION ALL SELECT 22 UNION ALL SELECT 23 UNION ALL SELECT 24 UNION ALL SELECT 25
       UNION ALL SELECT 26 UNION ALL SELECT 27 UNION ALL SELECT 28 UNION ALL SELECT 29
       UNION ALL SELECT 30 UNION ALL SELECT 31 UNION ALL SELECT 32 UNION ALL SELECT 33
       UNION ALL SELECT 34 UNION ALL SELECT 35 UNION ALL SELECT 36 UNION ALL SELECT 37
       UNION ALL SELECT 38 UNION ALL SELECT 39 UNION ALL SELECT 40 UNION ALL SELECT 41
       UNION ALL SELECT 42 UNION ALL SELECT 43 UNION ALL SELECT 44 UNION ALL SELECT 45
       UNION ALL SELECT 46 UNION ALL SELECT 47 UNION ALL SELECT 48 UNION ALL SELECT 49
       UNION ALL SELECT 50 UNION ALL SELECT 51 UNION ALL SELECT 52 UNION ALL SELECT 53
       UNION ALL SELECT 54 UNION ALL SELECT 55 UNION ALL SELECT 56 UNION ALL SELECT 57
       UNION ALL SELECT 58 UNION ALL SELECT 59 UNION ALL SELECT 60 UNION ALL SELECT 61
       UNION ALL SELECT 62 UNION ALL SELECT 63 UNION ALL SELECT 64 UNION ALL SELECT 65
       UNION ALL SELECT 66 UNION ALL SELECT 67 UNION ALL SELECT 68 UNION ALL SELECT 69
       UNION ALL SELECT 70 UNION ALL SELECT 71 UNION ALL SELECT 72 UNION ALL SELECT 73
       UNION ALL SELECT 74 UNION ALL SELECT 75 UNION ALL SELECT 76 UNION ALL SELECT 77
       UNION ALL SELECT 78 UNION ALL SELECT 79 UNION ALL SELECT 80 UNION ALL SELECT 81
       UNION ALL SELECT 82 UNION ALL SELECT 83 UNION ALL SELECT 84 UNION ALL SELECT 85
       UNION ALL SELECT 86 UNION ALL SELECT 87 UNION ALL SELECT 88 UNION ALL SELECT 89
       UNION ALL SELECT 90 UNION ALL SELECT 91 UNION ALL SELECT 92 UNION ALL SELECT 93
       UNION ALL SELECT 94 UNION ALL SELECT 95 UNION ALL SELECT 96 UNION ALL SELECT 97
       UNION ALL SELECT 98 UNION ALL SELECT 99 UNION ALL SELECT 100

-- fragment: MANY_NAMES
?12, ?14, ?16, ?18, ?20, ?22, ?24, ?26, ?28, ?30, ?32, ?34, ?36, ?38, ?40, ?42, ?44, ?46, ?48,
    ?50, ?52, ?54, ?56, ?58, ?60, ?62, ?64, ?66, ?68, ?70, ?72, ?74, ?76, ?78, ?80, ?82, ?84, ?86,
    ?88, ?90, ?92, ?94, ?96, ?98, ?100, ?102, ?104, ?106, ?108, ?110, ?112, ?114, ?116, ?118, ?120,
    ?122, ?124, ?126, ?128, ?130, ?132, ?134, ?136, ?138, ?140, ?142, ?144, ?146, ?148, ?150, ?152,
    ?154, ?156, ?158, ?160, ?162, ?164, ?166, ?168, ?170, ?172, ?174, ?176, ?178, ?180, ?182, ?184,
    ?186, ?188, ?190, ?192, ?194, ?196, ?198, ?200, ?202, ?204, ?206, ?208, ?210

-- fragment: MANY_PAYLOADS
?13, ?15, ?17, ?19, ?21, ?23, ?25, ?27, ?29, ?31, ?33, ?35, ?37, ?39, ?41, ?43, ?45, ?47, ?49,
    ?51, ?53, ?55, ?57, ?59, ?61, ?63, ?65, ?67, ?69, ?71, ?73, ?75, ?77, ?79, ?81, ?83, ?85, ?87,
    ?89, ?91, ?93, ?95, ?97, ?99, ?101, ?103, ?105, ?107, ?109, ?111, ?113, ?115, ?117, ?119, ?121,
    ?123, ?125, ?127, ?129, ?131, ?133, ?135, ?137, ?139, ?141, ?143, ?145, ?147, ?149, ?151, ?153,
    ?155, ?157, ?159, ?161, ?163, ?165, ?167, ?169, ?171, ?173, ?175, ?177, ?179, ?181, ?183, ?185,
    ?187, ?189, ?191, ?193, ?195, ?197, ?199, ?201, ?203, ?205, ?207, ?209, ?211
