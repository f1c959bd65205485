-- Tasks (PostgreSQL).  NOW is (SELECT n FROM clk), see schema.sql.
-- Every claim, ack and heartbeat is conditional and checked by affected rows;
-- under READ COMMITTED a racing claim re-checks its WHERE against the
-- winner's row, and each guard tests a column the winner changes (the row is
-- gone, claim_until or run_at moved).

-- name: task_insert
-- Returns the id too: with notify=off in the DSN the backend runs this in
-- place of task_insert_notify (NOTIFY holds a database-wide lock from its
-- commit to the end of the transaction, which serialises enqueuers).
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
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
-- in; the channel is LQ_CHANNEL_TASK (lib/internal.h).  No row back: the
-- unique key is taken (the library then looks up the holder).
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint),
ins AS (
  INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                       every_ms, cron, tz, missed, created_at, priority, timeout_ms)
  SELECT $1::text, $2::text, $3::bytea, COALESCE($4::bigint, n + $5::bigint), $6::bigint,
         $7::text, $8::bigint, $9::text, $10::text, $11::bigint, n, $12::integer, $13::bigint
    FROM clk
  ON CONFLICT (unique_key) DO NOTHING
  RETURNING id)
SELECT id FROM ins, LATERAL (SELECT pg_notify('leaseq_task', '')) AS wake;

-- name: task_last_id
-- The identity sequence of lq_task, as last advanced by this session.
SELECT currval(pg_get_serial_sequence('lq_task', 'id'))::bigint;

-- name: task_find_unique
SELECT id FROM lq_task WHERE unique_key = $1::text;

-- name: task_candidates
-- Walks lq_task_claim (queue, priority DESC, run_at, id) from the left and
-- stops after $2
-- rows; rows another claimer holds locked are skipped, not waited for.
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), priority::bigint, timeout_ms
  FROM lq_task
 WHERE queue = $1::text
   AND run_at <= (SELECT n FROM clk)
   AND paused = 0
   AND (claim_until IS NULL OR claim_until <= (SELECT n FROM clk))
   AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $1::text AND lq_queue.paused = 1)
 ORDER BY priority DESC, run_at, id
 LIMIT $2::bigint
   FOR UPDATE SKIP LOCKED;

-- name: task_claim_batch_delete
-- At-most-once claim of up to $2 due one-off tasks in one round trip: lock
-- them (skipping rows another claimer holds), delete them, return them.
-- Candidates this statement cannot finish (recurring tasks, and expired
-- claims on their last attempt, which must be buried) come back with
-- claimed = 0 and are left to the transactional path.  "id = ANY (ARRAY
-- (...))" keeps the write on the primary key even in a generic plan, which
-- cannot know that cand holds at most $2 rows.
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint),
cand AS (
  SELECT id, (every_ms IS NULL AND cron IS NULL
              AND NOT (claim_owner IS NOT NULL AND attempts >= max_attempts)) AS plain
    FROM lq_task
   WHERE queue = $1::text
     AND run_at <= (SELECT n FROM clk)
     AND paused = 0
     AND (claim_until IS NULL OR claim_until <= (SELECT n FROM clk))
     AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $1::text AND lq_queue.paused = 1)
   ORDER BY priority DESC, run_at, id
   LIMIT $2::bigint
     FOR UPDATE SKIP LOCKED),
gone AS (
  DELETE FROM lq_task t
   WHERE t.id = ANY (ARRAY (SELECT id FROM cand WHERE plain))
     AND t.every_ms IS NULL AND t.cron IS NULL
     AND t.run_at <= (SELECT n FROM clk)
     AND t.paused = 0
     AND (t.claim_until IS NULL OR t.claim_until <= (SELECT n FROM clk))
  RETURNING t.*)
SELECT g.id, g.queue, g.name, g.payload, g.run_at, g.attempts, g.max_attempts, g.unique_key,
       g.claim_owner, g.claim_until, g.every_ms, g.cron, g.tz, g.missed, g.paused, g.last_error,
       g.created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), g.priority::bigint, g.timeout_ms,
       CASE WHEN g.id IS NULL THEN 0 ELSE 1 END
  FROM cand LEFT JOIN gone g ON g.id = cand.id;

-- name: task_claim_batch_update
-- At-least-once claim of up to $2 due one-off tasks in one round trip, for
-- owner $3 with a claim lease of $4 ms; result as task_claim_batch_delete,
-- with the rows as updated.
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint),
cand AS (
  SELECT id, (every_ms IS NULL AND cron IS NULL
              AND NOT (claim_owner IS NOT NULL AND attempts >= max_attempts)) AS plain
    FROM lq_task
   WHERE queue = $1::text
     AND run_at <= (SELECT n FROM clk)
     AND paused = 0
     AND (claim_until IS NULL OR claim_until <= (SELECT n FROM clk))
     AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $1::text AND lq_queue.paused = 1)
   ORDER BY priority DESC, run_at, id
   LIMIT $2::bigint
     FOR UPDATE SKIP LOCKED),
took AS (
  UPDATE lq_task t
     SET claim_owner = $3::text, claim_until = (SELECT n FROM clk) + $4::bigint,
         attempts = t.attempts + 1
   WHERE t.id = ANY (ARRAY (SELECT id FROM cand WHERE plain))
     AND t.every_ms IS NULL AND t.cron IS NULL
     AND t.run_at <= (SELECT n FROM clk)
     AND t.paused = 0
     AND (t.claim_until IS NULL OR t.claim_until <= (SELECT n FROM clk))
  RETURNING t.*)
SELECT g.id, g.queue, g.name, g.payload, g.run_at, g.attempts, g.max_attempts, g.unique_key,
       g.claim_owner, g.claim_until, g.every_ms, g.cron, g.tz, g.missed, g.paused, g.last_error,
       g.created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), g.priority::bigint, g.timeout_ms,
       CASE WHEN g.id IS NULL THEN 0 ELSE 1 END
  FROM cand LEFT JOIN took g ON g.id = cand.id;

-- name: task_claim_delete
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
DELETE FROM lq_task
 WHERE id = $1::bigint
   AND every_ms IS NULL AND cron IS NULL
   AND run_at <= (SELECT n FROM clk)
   AND paused = 0
   AND (claim_until IS NULL OR claim_until <= (SELECT n FROM clk));

-- name: task_claim_delete_set
-- task_claim_delete for up to 100 ids at once (unused places NULL, which
-- match nothing); judged by the affected rows.  PostgreSQL claims with
-- task_claim_batch_delete instead: this one is here for the catalogue.
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
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
   AND (claim_until IS NULL OR claim_until <= (SELECT n FROM clk));

-- name: task_claim_update_set
-- task_claim_update for up to 100 ids at once ($3.., NULL-padded), all for
-- owner $1 with a claim lease of $2 ms; judged by the affected rows.
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
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
   AND (claim_until IS NULL OR claim_until <= (SELECT n FROM clk));

-- name: task_claim_update
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
UPDATE lq_task
   SET claim_owner = $2::text, claim_until = (SELECT n FROM clk) + $3::bigint,
       attempts = attempts + 1
 WHERE id = $1::bigint
   AND run_at <= (SELECT n FROM clk)
   AND paused = 0
   AND (claim_until IS NULL OR claim_until <= (SELECT n FROM clk));

-- name: task_claim_occurrence
-- Exactly one runner moves run_at off the occurrence it saw (at-most-once).
-- An occurrence under an at-least-once claim is not taken from its holder; an
-- expired one's claim is cleared with the move.
UPDATE lq_task
   SET run_at = $3::bigint, claim_owner = NULL, claim_until = NULL, attempts = 0
 WHERE id = $1::bigint AND run_at = $2::bigint AND paused = 0
   AND run_at <= (extract(epoch FROM clock_timestamp()) * 1000)::bigint
   AND (claim_until IS NULL OR claim_until <= (extract(epoch FROM clock_timestamp()) * 1000)::bigint);

-- name: task_ack
DELETE FROM lq_task WHERE id = $1::bigint AND claim_owner = $2::text;

-- name: task_heartbeat
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
UPDATE lq_task
   SET claim_until = (SELECT n FROM clk) + $3::bigint
 WHERE id = $1::bigint AND claim_owner = $2::text
   AND claim_until > (SELECT n FROM clk);

-- name: task_retry_later
UPDATE lq_task
   SET claim_owner = NULL, claim_until = NULL,
       run_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint + $3::bigint,
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
-- to the next one and clear the claim.
UPDATE lq_task
   SET run_at = $3::bigint, claim_owner = NULL, claim_until = NULL, attempts = 0,
       last_error = COALESCE($4::text, last_error)
 WHERE id = $1::bigint AND claim_owner = $2::text;

-- name: task_retry_occurrence
-- A failed at-least-once occurrence is tried again after a back-off: the
-- claim is cleared but claim_until holds it back; run_at stays the
-- occurrence's due time.
UPDATE lq_task
   SET claim_owner = NULL, claim_until = (extract(epoch FROM clock_timestamp()) * 1000)::bigint + $3::bigint, last_error = $4::text
 WHERE id = $1::bigint AND claim_owner = $2::text;

-- name: task_reinsert
-- Keeps the task's id (explicit ids are allowed: GENERATED BY DEFAULT).
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
INSERT INTO lq_task (id, queue, name, payload, run_at, attempts, max_attempts,
                     unique_key, last_error, created_at, priority, timeout_ms)
SELECT $1::bigint, $2::text, $3::text, $4::bytea, n + $8::bigint, $5::bigint, $6::bigint,
       $7::text, $9::text, $10::bigint, $11::integer, $12::bigint
  FROM clk
ON CONFLICT DO NOTHING;

-- name: task_bury
-- FOR UPDATE: the row stays locked until the caller deletes it, so no
-- claimer takes it in between.
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
INSERT INTO lq_task_dead (id, queue, name, payload, run_at, attempts, max_attempts,
                          unique_key, every_ms, cron, tz, missed, last_error,
                          created_at, died_at, priority, timeout_ms)
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       every_ms, cron, tz, missed, $3::text, created_at, (SELECT n FROM clk), priority, timeout_ms
  FROM lq_task
 WHERE id = $1::bigint
   AND (($2::text IS NOT NULL AND claim_owner = $2::text)
     OR ($2::text IS NULL AND (claim_until IS NULL OR claim_until <= (SELECT n FROM clk))))
   FOR UPDATE OF lq_task;

-- name: task_delete
DELETE FROM lq_task WHERE id = $1::bigint;

-- name: task_dead_insert
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
INSERT INTO lq_task_dead (id, queue, name, payload, run_at, attempts, max_attempts,
                          unique_key, last_error, created_at, died_at, priority, timeout_ms)
SELECT $1::bigint, $2::text, $3::text, $4::bytea, n, $5::bigint, $6::bigint,
       $7::text, $8::text, $9::bigint, n, $10::integer, $11::bigint
  FROM clk;

-- name: task_record_error
UPDATE lq_task SET last_error = $2::text WHERE id = $1::bigint;

-- name: task_get
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), priority::bigint, timeout_ms
  FROM lq_task WHERE id = $1::bigint
UNION ALL
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       NULL::text, NULL::bigint, every_ms, cron, tz, missed, 0::bigint, last_error,
       created_at, 1::bigint, died_at, (SELECT n FROM clk), priority::bigint, timeout_ms
  FROM lq_task_dead WHERE id = $1::bigint;

-- name: task_list
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
SELECT id, queue, name, NULL::bytea, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0::bigint, NULL::bigint, (SELECT n FROM clk), priority::bigint, timeout_ms
  FROM lq_task
 WHERE ($1::text IS NULL OR queue = $1::text)
   AND ($2::bigint = 0 OR (run_at <= (SELECT n FROM clk) AND paused = 0
                           AND (claim_until IS NULL OR claim_until <= (SELECT n FROM clk))))
 ORDER BY id;

-- name: task_list_dead
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
SELECT id, queue, name, NULL::bytea, run_at, attempts, max_attempts, unique_key,
       NULL::text, NULL::bigint, every_ms, cron, tz, missed, 0::bigint, last_error,
       created_at, 1::bigint, died_at, (SELECT n FROM clk), priority::bigint, timeout_ms
  FROM lq_task_dead
 WHERE ($1::text IS NULL OR queue = $1::text)
 ORDER BY id;

-- name: task_dead_delete
DELETE FROM lq_task_dead WHERE id = $1::bigint;

-- name: task_revive
INSERT INTO lq_task (id, queue, name, payload, run_at, attempts, max_attempts,
                     unique_key, every_ms, cron, tz, missed, last_error, created_at, priority, timeout_ms)
SELECT id, queue, name, payload, (extract(epoch FROM clock_timestamp()) * 1000)::bigint, 0,
       max_attempts, unique_key, every_ms, cron, tz, missed, last_error, created_at,
       priority, timeout_ms
  FROM lq_task_dead WHERE id = $1::bigint
ON CONFLICT DO NOTHING;

-- name: task_run_now
-- Due now: a future run_at comes forward (a due one keeps its place, and a
-- recurring task its occurrence), and a back-off without a claim ends.
UPDATE lq_task
   SET run_at = CASE WHEN run_at <= (extract(epoch FROM clock_timestamp()) * 1000)::bigint THEN run_at ELSE (extract(epoch FROM clock_timestamp()) * 1000)::bigint END,
       claim_until = CASE WHEN claim_owner IS NULL THEN NULL ELSE claim_until END
 WHERE id = $1::bigint;

-- name: task_set_paused
UPDATE lq_task SET paused = $2::bigint WHERE id = $1::bigint;
