-- Tasks (PostgreSQL).  NOW is (SELECT n FROM clk), see schema.sql.
-- Every claim, ack and heartbeat is conditional and checked by affected rows;
-- under READ COMMITTED a racing claim re-checks its WHERE against the
-- winner's row, and each guard tests a column the winner changes (the row is
-- gone, claim_until or run_at moved).
-- Not in this dialect (see lib/backend/sql_names.h):
-- absent: task_candidates_at task_candidates finds the top due priority itself
-- absent: task_candidates_top as above
-- absent: task_candidates_top_filtered as above
-- absent: task_priority_step as above
-- absent: task_candidates_due task_claim_batch_* claim in one statement
-- absent: task_insert_many_keyless RETURNING is no per-row trigger program here: task_insert_many_same

-- name: task_insert
-- $14 the concurrency key and $15 the partition (NULL: none) go in with
-- the row: an UPDATE after it wrote every index of lq_task a second time
-- (both columns are indexed: never HOT) and left a dead row version.
-- A task with a partition also writes the partition's rows
-- (partition_touch's, TASK_PART_TOUCH): no statement of its own
-- (LQ_CAP_ADD_TOUCHES_PART).  Returns the id, as in every dialect: with
-- notify=off in the DSN the backend runs this in place of
-- task_insert_notify (NOTIFY holds a database-wide lock from its commit to
-- the end of the transaction, which serialises enqueuers).
WITH {{CLK}},
{{TASK_INSERT_INS}},
{{TASK_PART_TOUCH}}
SELECT id FROM ins;

-- name: task_insert_notify
-- columns: task_insert_notify 2 the id, and busy: the library skips the look for a moment
-- task_insert, its id and the workers' wake-up in one round trip.  The
-- notification goes out when the statement commits, and only when a row went
-- in and made work appear: no other task of the queue, not paused and free
-- to claim, was due at or before the new one's run_at (the statement's
-- snapshot, without the new row).  Otherwise the workers are busy or will
-- claim, or sleep no later than that task's due time, and a NOTIFY would only
-- take the commit lock that serialises every notifying commit.  A worker
-- that went idle in a race with the task this statement saw still looks
-- again within its poll interval.  The look walks lq_task_due back from
-- the new run_at, away from the dead entries of claimed tasks.  The channel
-- is LQ_CHANNEL_TASK (lib/internal.h).  busy is 1 when the task it found
-- is due now: the queue has work its workers are on, and the library sends
-- the next few adds to the queue as task_insert (LQ_WAKE_BUSY_MS).  No row
-- back: the unique key is taken (the library then looks up the holder).
WITH {{CLK}},
{{TASK_INSERT_INS}},
{{TASK_PART_TOUCH}}
SELECT id, CASE WHEN seen.run_at IS NULL THEN (SELECT 0 FROM pg_notify('leaseq_task', ''))
                ELSE (seen.run_at <= (SELECT n FROM clk))::integer END AS busy
  FROM ins LEFT JOIN LATERAL (
    SELECT o.run_at FROM lq_task o
     WHERE o.queue = $1::text AND o.run_at <= ins.run_at
       AND o.paused = 0
       AND (o.claim_until IS NULL OR o.claim_until <= (SELECT n FROM clk))
     ORDER BY o.run_at DESC LIMIT 1) seen ON true;

-- name: task_find_unique
SELECT id FROM lq_task WHERE unique_key = $1::text;

-- name: task_candidates
-- Walks lq_task_claim (queue, priority DESC, run_at, id) from the left and
-- stops after as many rows as lq_task_due counts claimable (up to $2, an
-- O(log n + $2) range; the walk meets a priority's due tasks before its
-- future ones, so it never reads on through the tasks not due yet); rows
-- another claimer holds locked are skipped, not waited for.  The count reads
-- lq_task_due from the newest due task back (DESC): the oldest are the
-- ones claimed already, whose dead index entries wait at the left for
-- VACUUM, and the walk itself reads them once; a count from the left read
-- them a second time (18 % of a one-task claim under pgbench, 5 % now).
-- After TASK_COLS, the candidate's steering (task_steer_get's columns):
-- the claim of an occurrence needs it.
WITH RECURSIVE {{CLK}},
{{CLAIM_TOP}}
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), priority, timeout_ms,
       concurrency_key, part, {{LIMITED}}, overlap, catch_up, next_at
  FROM lq_task
 {{CLAIM_DUE_WHERE}}
 {{CLAIM_DUE_BOUND}};

-- name: task_claim_batch_delete
-- At-most-once claim of up to $2 due one-off tasks in one round trip: lock
-- them (skipping rows another claimer holds), delete them, return them.
-- Candidates this statement cannot finish (recurring tasks, and expired
-- claims on their last attempt, which must be buried) come back with
-- claimed = 0 and are left to the transactional path.  "id = ANY (ARRAY
-- (...))" keeps the write on the primary key even in a generic plan, which
-- cannot know that cand holds at most $2 rows.
WITH RECURSIVE {{CLK}},
{{CLAIM_TOP}},
{{CLAIM_BATCH_CAND}},
gone AS (
  DELETE FROM lq_task t
   WHERE t.id = ANY (ARRAY (SELECT id FROM cand WHERE plain))
     AND t.every_ms IS NULL AND t.cron IS NULL
     AND t.run_at <= (SELECT n FROM clk)
     AND t.paused = 0
     AND ({{CLAIM_FREE_T}})
  RETURNING t.*)
SELECT {{CLAIMED_COLS_G}},
       CASE WHEN g.id IS NULL THEN 0 ELSE 1 END
  FROM cand LEFT JOIN gone g ON g.id = cand.id;

-- name: task_claim_batch_update
-- At-least-once claim of up to $2 due one-off tasks in one round trip, for
-- owner $3 with a claim lease of $4 ms; result as task_claim_batch_delete,
-- with the rows as updated.
WITH RECURSIVE {{CLK}},
{{CLAIM_TOP}},
{{CLAIM_BATCH_CAND}},
took AS (
  UPDATE lq_task t
     SET claim_owner = $3::text, claim_until = (SELECT n FROM clk) + $4::bigint,
         attempts = t.attempts + 1
   WHERE t.id = ANY (ARRAY (SELECT id FROM cand WHERE plain))
     AND t.every_ms IS NULL AND t.cron IS NULL
     AND t.run_at <= (SELECT n FROM clk)
     AND t.paused = 0
     AND ({{CLAIM_FREE_T}})
  RETURNING t.*)
SELECT {{CLAIMED_COLS_G}},
       CASE WHEN g.id IS NULL THEN 0 ELSE 1 END
  FROM cand LEFT JOIN took g ON g.id = cand.id;

-- name: task_claim_one_delete
-- task_claim_batch_delete for one task: ($1 queue).  Its LIMITs are
-- constants, and "is anything due?" (the lq_task_due probe that keeps an
-- empty queue from walking its future tasks) is a one-time filter instead
-- of a LIMIT, so that PostgreSQL settles on a generic plan: a LIMIT it
-- cannot know is estimated at a tenth of the rows, which priced the
-- generic plan above the custom ones, and planning anew on every call cost
-- more than running the claim.  The probe (CLAIM_TOP) reads from the
-- newest due task back, as task_candidates' count does.
WITH RECURSIVE {{CLK}},
{{CLAIM_TOP}},
{{CLAIM_ONE_GONE}}
{{CLAIM_ONE_ROWS}};

-- name: task_claim_one_delete_top
-- task_claim_one_delete of priority $2, the priority of the task the
-- handle's last such claim of queue $1 took a moment ago, instead of
-- CLAIM_TOP's reads (two descents and more): the walk is $2's due range
-- alone, while the queue has no task of a higher priority
-- (CLAIM_ONE_TOP_CAND), so it never reads on into that priority's future
-- tasks.  No row when a higher priority has come, or when $2 has no due
-- task left that another claimer does not hold: the library then sends
-- task_claim_one_delete.  pgbench, prepared, one client, 80 000 due tasks,
-- alternating: 0.20 ms a claim against task_claim_one_delete's 0.22-0.23
-- and the raw claim's 0.15-0.17.
WITH RECURSIVE {{CLK}},
{{CLAIM_ONE_TOP_CAND}},
{{CLAIM_ONE_DELETE}}
{{CLAIM_ONE_ROWS}};

-- name: task_claim_one_delete_occ
-- task_claim_one_delete that also claims a head that is an interval
-- occurrence with no steering set (CLAIM_OCC), at-most-once as
-- task_claim_occurrence claims it: run_at moves to the first slot after
-- now (the next one if it is on time; one run, not a burst, if it is
-- late), and the row comes back with claimed = 2, the occurrence's due
-- time as run_at and the next one after it.  The head is locked, so that
-- test and the move see the same row.  Sent where the handle's last claim
-- of the queue took such an occurrence: for a one-off task it costs more
-- than task_claim_one_delete (pgbench, prepared, 10 000 due tasks: 0.36 -
-- 0.42 ms against 0.35 - 0.41 with BEGIN and ROLLBACK; the UPDATE's
-- set-up opens lq_task's indexes although it moves nothing).
WITH RECURSIVE {{CLK}},
{{CLAIM_TOP}},
cand AS (
  {{OCC_CAND_DUE}}
   {{CLAIM_ONE_BOUND}}),
{{OCC_SETTLE}};

-- name: task_claim_one_delete_occ_top
-- task_claim_one_delete_occ of priority $2 alone, the priority the
-- handle's last such claim of queue $1 took a moment ago, as
-- task_claim_one_delete_top reads it: no CLAIM_TOP.  No row when a higher
-- priority has come, or when $2 has no due task left that another claimer
-- does not hold: the library then sends task_claim_one_delete_occ.
WITH {{CLK}},
cand AS (
  {{OCC_CAND_DUE}}
   {{CLAIM_ONE_KNOWN}}),
{{OCC_SETTLE}};

-- name: task_claim_one_update
-- task_claim_batch_update for one task: ($1 queue, $2 owner, $3 claim
-- lease ms); constant LIMITs as in task_claim_one_delete.
WITH RECURSIVE {{CLK}},
{{CLAIM_TOP}},
{{CLAIM_ONE_CAND}},
took AS (
  {{CLAIM_FOR_OWNER}}
   {{CLAIM_PLAIN_WHERE}}
  RETURNING t.*)
SELECT {{CLAIMED_COLS_G}},
       CASE WHEN g.id IS NULL THEN 0 ELSE 1 END
  FROM cand LEFT JOIN took g ON g.id = cand.id;

-- name: task_claim_one_delete_keyed
-- task_claim_one_delete whose head may carry a concurrency key ($1 queue,
-- $2 owner, $3 claim lease ms): a key with one limit (a cap, a rate or
-- both), or that no limit names, is claimed here with its start
-- (CLAIM_KEYED_CAND) instead of by the transaction's lock, take, claim
-- and commit.  Under a cap the claim is the slot, at least once: the row
-- is claimed for $2 (claimed 3), not deleted.  Sent where the handle's
-- last claim of the queue found such a head; claimed 0 (the head left to
-- the transaction) when the limit is shut, changed since the snapshot,
-- or the queue has a limit.
WITH RECURSIVE {{CLK}},
{{CLAIM_TOP}},
{{CLAIM_KEYED_CAND}},
gone AS (
  DELETE FROM lq_task t
   {{CLAIM_PLAIN_WHERE}}
     AND ({{CLAIM_UNKEYED}} OR (SELECT NOT capped FROM started))
  RETURNING t.*),
slot AS (
  {{CLAIM_FOR_OWNER}}
   {{CLAIM_PLAIN_WHERE}}
     AND (SELECT capped FROM started)
  RETURNING t.*)
SELECT {{CLAIMED_COLS_GM}},
       CASE WHEN g.id IS NOT NULL THEN 1 WHEN m.id IS NOT NULL THEN 3 ELSE 0 END
  FROM cand LEFT JOIN gone g ON g.id = cand.id LEFT JOIN slot m ON m.id = cand.id;

-- name: task_claim_one_update_keyed
-- task_claim_one_delete_keyed at least once: ($1 queue, $2 owner, $3
-- claim lease ms), as task_claim_one_update.
WITH RECURSIVE {{CLK}},
{{CLAIM_TOP}},
{{CLAIM_KEYED_CAND}},
took AS (
  {{CLAIM_FOR_OWNER}}
   {{CLAIM_PLAIN_WHERE}}
     AND ({{CLAIM_UNKEYED}} OR EXISTS (SELECT 1 FROM started))
  RETURNING t.*)
SELECT {{CLAIMED_COLS_G}},
       CASE WHEN g.id IS NULL THEN 0 ELSE 1 END
  FROM cand LEFT JOIN took g ON g.id = cand.id;

-- name: task_claim_delete
WITH {{CLK}}
DELETE FROM lq_task
 WHERE id = $1::bigint
   AND every_ms IS NULL AND cron IS NULL
   AND run_at <= (SELECT n FROM clk)
   AND paused = 0
   AND ({{CLAIM_FREE}});

-- name: task_claim_delete_set
-- task_claim_delete for up to 100 ids at once (unused places NULL, which
-- match nothing); judged by the affected rows.  PostgreSQL claims with
-- task_claim_batch_delete instead: this one is here for the catalogue.
WITH {{CLK}}
DELETE FROM lq_task
 WHERE id IN ({{PG_SET_IDS}})
   AND every_ms IS NULL AND cron IS NULL
   AND run_at <= (SELECT n FROM clk)
   AND paused = 0
   AND ({{CLAIM_FREE}});

-- name: task_claim_update_set
-- task_claim_update for up to 100 ids at once ($3.., NULL-padded), all for
-- owner $1 with a claim lease of $2 ms; judged by the affected rows.
WITH {{CLK}}
UPDATE lq_task
   SET claim_owner = $1::text, claim_until = (SELECT n FROM clk) + $2::bigint, attempts = attempts + 1
 WHERE id IN ($3::bigint, $4::bigint, $5::bigint, $6::bigint, $7::bigint, $8::bigint,
                $9::bigint, $10::bigint, $11::bigint, $12::bigint, $13::bigint,
                $14::bigint, $15::bigint, $16::bigint, $17::bigint, $18::bigint,
                $19::bigint, $20::bigint, $21::bigint, $22::bigint, $23::bigint,
                $24::bigint, $25::bigint, $26::bigint, $27::bigint, $28::bigint,
                $29::bigint, $30::bigint, $31::bigint, $32::bigint, $33::bigint,
                $34::bigint, $35::bigint, $36::bigint, $37::bigint, $38::bigint,
                $39::bigint, $40::bigint, $41::bigint, $42::bigint, $43::bigint,
                $44::bigint, $45::bigint, $46::bigint, $47::bigint, $48::bigint,
                $49::bigint, $50::bigint, $51::bigint, $52::bigint, $53::bigint,
                $54::bigint, $55::bigint, $56::bigint, $57::bigint, $58::bigint,
                $59::bigint, $60::bigint, $61::bigint, $62::bigint, $63::bigint,
                $64::bigint, $65::bigint, $66::bigint, $67::bigint, $68::bigint,
                $69::bigint, $70::bigint, $71::bigint, $72::bigint, $73::bigint,
                $74::bigint, $75::bigint, $76::bigint, $77::bigint, $78::bigint,
                $79::bigint, $80::bigint, $81::bigint, $82::bigint, $83::bigint,
                $84::bigint, $85::bigint, $86::bigint, $87::bigint, $88::bigint,
                $89::bigint, $90::bigint, $91::bigint, $92::bigint, $93::bigint,
                $94::bigint, $95::bigint, $96::bigint, $97::bigint, $98::bigint,
                $99::bigint, $100::bigint, $101::bigint, $102::bigint)
   AND every_ms IS NULL AND cron IS NULL
   AND run_at <= (SELECT n FROM clk)
   AND paused = 0
   AND ({{CLAIM_FREE}});

-- name: task_claim_update
WITH {{CLK}}
UPDATE lq_task
   SET claim_owner = $2::text, claim_until = (SELECT n FROM clk) + $3::bigint,
       attempts = attempts + 1
 WHERE id = $1::bigint
   AND run_at <= (SELECT n FROM clk)
   AND paused = 0
   AND ({{CLAIM_FREE}});

-- name: task_claim_occurrence
-- Exactly one runner moves run_at off the occurrence it saw (at-most-once),
-- to the regular occurrence a run-now set aside (next_at) if there is one.
-- An occurrence under an at-least-once claim is not taken from its holder; an
-- expired one's claim is cleared with the move.
UPDATE lq_task
   SET run_at = COALESCE(next_at, $3::bigint), claim_owner = NULL, claim_until = NULL, attempts = 0,
       next_at = NULL, preempt_at = NULL
 WHERE id = $1::bigint AND run_at = $2::bigint AND paused = 0
   AND run_at <= {{NOW}}
   AND (claim_until IS NULL OR claim_until <= {{NOW}});

-- name: task_ack
DELETE FROM lq_task WHERE id = $1::bigint AND claim_owner = $2::text;

-- name: task_heartbeat
WITH {{CLK}}
UPDATE lq_task
   SET claim_until = (SELECT n FROM clk) + $3::bigint
 WHERE id = $1::bigint AND claim_owner = $2::text
   AND claim_until > (SELECT n FROM clk);

-- name: task_retry_later
UPDATE lq_task
   SET claim_owner = NULL, claim_until = NULL,
       run_at = {{NOW}} + $3::bigint,
       last_error = $4::text
 WHERE id = $1::bigint AND claim_owner = $2::text;

-- name: task_release_claim
-- Hand an at-least-once claim back without counting the attempt.
UPDATE lq_task
   SET claim_owner = NULL, claim_until = NULL,
       attempts = GREATEST(attempts - 1, 0)
 WHERE id = $1::bigint AND claim_owner = $2::text;

-- name: task_ack_occurrence
-- An at-least-once occurrence is done (or given up, with an error): move on
-- to the next one (next_at if a run-now or an edit set it) and clear the
-- claim; a success is the schedule's last_success_at.
UPDATE lq_task
   SET run_at = COALESCE(next_at, $3::bigint), claim_owner = NULL, claim_until = NULL, attempts = 0,
       last_error = COALESCE($4::text, last_error),
       last_success_at = CASE WHEN $4::text IS NULL THEN {{NOW}} ELSE last_success_at END,
       next_at = NULL, preempt_at = NULL
 WHERE id = $1::bigint AND claim_owner = $2::text;

-- name: task_retry_occurrence
-- A failed at-least-once occurrence is tried again after a back-off: the
-- claim is cleared but claim_until holds it back; run_at stays the
-- occurrence's due time.
UPDATE lq_task
   SET claim_owner = NULL, claim_until = {{NOW}} + $3::bigint, last_error = $4::text
 WHERE id = $1::bigint AND claim_owner = $2::text;

-- name: task_reinsert
-- Keeps the task's id (explicit ids are allowed: GENERATED BY DEFAULT).
WITH {{CLK}}
INSERT INTO lq_task (id, queue, name, payload, run_at, attempts, max_attempts,
                     unique_key, last_error, created_at, priority, timeout_ms, concurrency_key, part)
SELECT $1::bigint, $2::text, $3::text, $4::bytea, n + $8::bigint, $5::bigint, $6::bigint,
       $7::text, $9::text, $10::bigint, $11::integer, $12::bigint, $13::text, $14::text
  FROM clk
ON CONFLICT DO NOTHING;

-- name: task_bury
-- FOR UPDATE: the row stays locked until the caller deletes it, so no
-- claimer takes it in between.
WITH {{CLK}}
INSERT INTO lq_task_dead (id, queue, name, payload, run_at, attempts, max_attempts,
                          unique_key, every_ms, cron, tz, missed, last_error,
                          created_at, died_at, priority, timeout_ms, concurrency_key, part)
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       every_ms, cron, tz, missed, $3::text, created_at, (SELECT n FROM clk), priority, timeout_ms, concurrency_key, part
  FROM lq_task
 WHERE id = $1::bigint
   AND (($2::text IS NOT NULL AND claim_owner = $2::text)
     OR ($2::text IS NULL AND ({{CLAIM_FREE}})))
   FOR UPDATE OF lq_task;

-- name: task_delete
DELETE FROM lq_task WHERE id = $1::bigint;

-- name: task_dead_insert
WITH {{CLK}}
INSERT INTO lq_task_dead (id, queue, name, payload, run_at, attempts, max_attempts,
                          unique_key, last_error, created_at, died_at, priority, timeout_ms, concurrency_key, part)
SELECT $1::bigint, $2::text, $3::text, $4::bytea, n, $5::bigint, $6::bigint,
       $7::text, $8::text, $9::bigint, n, $10::integer, $11::bigint, $12::text, $13::text
  FROM clk;

-- name: task_record_error
UPDATE lq_task SET last_error = $2::text WHERE id = $1::bigint;

-- name: task_get
WITH {{CLK}}
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), priority, timeout_ms,
       concurrency_key, part, 0::bigint
  FROM lq_task WHERE id = $1::bigint
UNION ALL
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       NULL::text, NULL::bigint, every_ms, cron, tz, missed, 0::bigint, last_error,
       created_at, 1::bigint, died_at, (SELECT n FROM clk), priority, timeout_ms,
       concurrency_key, part, 0::bigint
  FROM lq_task_dead WHERE id = $1::bigint;

-- name: task_list
WITH {{CLK}}
SELECT id, queue, name, NULL::bytea, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), priority, timeout_ms,
       concurrency_key, part, 0::bigint
  FROM lq_task
 WHERE ($1::text IS NULL OR queue = $1::text)
   AND ($2::bigint = 0 OR (run_at <= (SELECT n FROM clk) AND paused = 0
                           AND ({{CLAIM_FREE}})))
 ORDER BY id;

-- name: task_list_dead
WITH {{CLK}}
SELECT id, queue, name, NULL::bytea, run_at, attempts, max_attempts, unique_key,
       NULL::text, NULL::bigint, every_ms, cron, tz, missed, 0::bigint, last_error,
       created_at, 1::bigint, died_at, (SELECT n FROM clk), priority, timeout_ms,
       concurrency_key, part, 0::bigint
  FROM lq_task_dead
 WHERE ($1::text IS NULL OR queue = $1::text)
 ORDER BY id;

-- name: task_dead_delete
DELETE FROM lq_task_dead WHERE id = $1::bigint;

-- name: task_revive
INSERT INTO lq_task (id, queue, name, payload, run_at, attempts, max_attempts,
                     unique_key, every_ms, cron, tz, missed, last_error, created_at, priority, timeout_ms, concurrency_key, part)
SELECT id, queue, name, payload, {{NOW}}, 0,
       max_attempts, unique_key, every_ms, cron, tz, missed, last_error, created_at,
       priority, timeout_ms, concurrency_key, part
  FROM lq_task_dead WHERE id = $1::bigint
ON CONFLICT DO NOTHING;

-- name: task_run_now
-- Due now: a future run_at comes forward (a due one keeps its place, and a
-- recurring task its occurrence), and a back-off without a claim ends.
UPDATE lq_task
   SET run_at = CASE WHEN run_at <= {{NOW}} THEN run_at ELSE {{NOW}} END,
       claim_until = CASE WHEN claim_owner IS NULL THEN NULL ELSE claim_until END
 WHERE id = $1::bigint;

-- name: task_set_paused
UPDATE lq_task SET paused = $2::bigint WHERE id = $1::bigint;

-- name: task_insert_many
-- Up to 100 tasks in one statement (lq_task_add_many): 15 parameters per
-- task in task_insert's order ($1..$15 the first task, $16..$30 the
-- second, ...; the concurrency key and the partition go in with the row,
-- as there); unused places are NULL and
-- skipped (a task always has a name).  Rows go in in the order given, so
-- their ids ascend in that order; a task whose unique key is taken is
-- skipped.  Returns (id, unique_key) of each row inserted.
WITH {{CLK}}
{{PG_INSERT_MANY}};

-- name: task_insert_many_notify
-- task_insert_many and the workers' wake-up in one round trip, for a batch
-- that goes in alone (no transaction around it; PG_INS_WAKE).  As
-- task_insert, ?notify=off sends task_insert_many instead
-- (lib/backend/postgres.c).
WITH {{CLK}},
ins AS ({{PG_INSERT_MANY}})
{{PG_INS_WAKE}};

-- name: task_insert_many_same
-- task_insert_many of up to 100 tasks that differ only in name and
-- payload: their options once ($1..$13: queue, run_at, delay, max
-- attempts, unique key, interval, cron, time zone, missed, priority,
-- timeout, concurrency key, partition), then name and payload a task
-- ($14, $15 the first, ...; unused places NULL): 213 parameters where
-- task_insert_many sends 1 500.
WITH {{CLK}}
{{PG_INSERT_MANY_SAME}};

-- name: task_insert_many_same_notify
-- task_insert_many_same and the workers' wake-up, as
-- task_insert_many_notify.
WITH {{CLK}},
ins AS ({{PG_INSERT_MANY_SAME}})
{{PG_INS_WAKE}};
