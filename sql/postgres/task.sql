-- Tasks (PostgreSQL).  NOW is (SELECT n FROM clk), see schema.sql.
-- Every claim, ack and heartbeat is conditional and checked by affected rows;
-- under READ COMMITTED a racing claim re-checks its WHERE against the
-- winner's row, and each guard tests a column the winner changes (the row is
-- gone, claim_until or run_at moved).
-- Not in this dialect (see lib/backend/sql_names.h):
-- absent: task_claimable no LQ_CAP_CLAIM_BOUND: task_candidates counts them in its LIMIT
-- absent: task_candidates_below task_candidates finds the top due priority itself
-- absent: task_priority_step as above
-- absent: task_candidates_due task_claim_batch_* claim in one statement

-- name: task_insert
-- columns: task_insert 1 RETURNING id, read when it stands in for task_insert_notify
-- Returns the id too: with notify=off in the DSN the backend runs this in
-- place of task_insert_notify (NOTIFY holds a database-wide lock from its
-- commit to the end of the transaction, which serialises enqueuers).
WITH {{CLK}}
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms)
SELECT $1::text, $2::text, $3::bytea, COALESCE($4::bigint, n + $5::bigint), $6::bigint,
       $7::text, $8::bigint, $9::text, $10::text, $11::bigint, n, $12::integer, $13::bigint
  FROM clk
ON CONFLICT (unique_key) DO NOTHING
RETURNING id;

-- name: task_insert_notify
-- task_insert, its id and the workers' wake-up in one round trip.  The
-- notification goes out when the statement commits, and only when a row went
-- in and made work appear: no other task of the queue, not paused and free
-- to claim, was due at or before the new one's run_at (the statement's
-- snapshot, without the new row).  Otherwise the workers are busy or will
-- claim, or sleep no later than that task's due time, and a NOTIFY would only
-- take the commit lock that serialises every notifying commit.  A worker
-- that went idle in a race with the task this statement saw still looks
-- again within its poll interval.  The probe walks lq_task_due back from
-- the new run_at, away from the dead entries of claimed tasks.  The channel
-- is LQ_CHANNEL_TASK (lib/internal.h).  No row back: the unique key is
-- taken (the library then looks up the holder).
WITH {{CLK}},
ins AS (
  INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                       every_ms, cron, tz, missed, created_at, priority, timeout_ms)
  SELECT $1::text, $2::text, $3::bytea, COALESCE($4::bigint, n + $5::bigint), $6::bigint,
         $7::text, $8::bigint, $9::text, $10::text, $11::bigint, n, $12::integer, $13::bigint
    FROM clk
  ON CONFLICT (unique_key) DO NOTHING
  RETURNING id, run_at)
SELECT id FROM ins, LATERAL (
  SELECT CASE WHEN (SELECT o.run_at FROM lq_task o
                     WHERE o.queue = $1::text AND o.run_at <= ins.run_at
                       AND o.paused = 0
                       AND (o.claim_until IS NULL OR o.claim_until <= (SELECT n FROM clk))
                     ORDER BY o.run_at DESC LIMIT 1) IS NULL
              THEN pg_notify('leaseq_task', '') END) AS wake;

-- name: task_last_id
-- The identity sequence of lq_task, as last advanced by this session.
SELECT currval(pg_get_serial_sequence('lq_task', 'id'))::bigint;

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
WITH RECURSIVE {{CLK}},
{{CLAIM_TOP}}
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), priority, timeout_ms,
       concurrency_key, part, {{LIMITED}}
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

-- name: task_claim_one_update
-- task_claim_batch_update for one task: ($1 queue, $2 owner, $3 claim
-- lease ms); constant LIMITs as in task_claim_one_delete.
WITH RECURSIVE {{CLK}},
{{CLAIM_TOP}},
{{CLAIM_ONE_CAND}},
took AS (
  UPDATE lq_task t
     SET claim_owner = $2::text, claim_until = (SELECT n FROM clk) + $3::bigint,
         attempts = t.attempts + 1
   WHERE t.id = (SELECT id FROM cand WHERE plain)
     AND t.every_ms IS NULL AND t.cron IS NULL
     AND t.run_at <= (SELECT n FROM clk)
     AND t.paused = 0
     AND ({{CLAIM_FREE_T}})
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
 WHERE id IN ($1::bigint, $2::bigint, $3::bigint, $4::bigint, $5::bigint, $6::bigint,
                $7::bigint, $8::bigint, $9::bigint, $10::bigint, $11::bigint,
                $12::bigint, $13::bigint, $14::bigint, $15::bigint, $16::bigint,
                $17::bigint, $18::bigint, $19::bigint, $20::bigint, $21::bigint,
                $22::bigint, $23::bigint, $24::bigint, $25::bigint, $26::bigint,
                $27::bigint, $28::bigint, $29::bigint, $30::bigint, $31::bigint,
                $32::bigint, $33::bigint, $34::bigint, $35::bigint, $36::bigint,
                $37::bigint, $38::bigint, $39::bigint, $40::bigint, $41::bigint,
                $42::bigint, $43::bigint, $44::bigint, $45::bigint, $46::bigint,
                $47::bigint, $48::bigint, $49::bigint, $50::bigint, $51::bigint,
                $52::bigint, $53::bigint, $54::bigint, $55::bigint, $56::bigint,
                $57::bigint, $58::bigint, $59::bigint, $60::bigint, $61::bigint,
                $62::bigint, $63::bigint, $64::bigint, $65::bigint, $66::bigint,
                $67::bigint, $68::bigint, $69::bigint, $70::bigint, $71::bigint,
                $72::bigint, $73::bigint, $74::bigint, $75::bigint, $76::bigint,
                $77::bigint, $78::bigint, $79::bigint, $80::bigint, $81::bigint,
                $82::bigint, $83::bigint, $84::bigint, $85::bigint, $86::bigint,
                $87::bigint, $88::bigint, $89::bigint, $90::bigint, $91::bigint,
                $92::bigint, $93::bigint, $94::bigint, $95::bigint, $96::bigint,
                $97::bigint, $98::bigint, $99::bigint, $100::bigint)
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
-- Up to 100 tasks in one statement (lq_task_add_many): 13 parameters per
-- task in task_insert's order plus priority and timeout_ms ($1..$13 the
-- first task, $14..$26 the second, ...); unused places are NULL and
-- skipped (a task always has a name).  Rows go in in the order given, so
-- their ids ascend in that order; a task whose unique key is taken is
-- skipped.  Returns (id, unique_key) of each row inserted.
WITH {{CLK}}
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
ON CONFLICT (unique_key) DO NOTHING
RETURNING id, unique_key;
