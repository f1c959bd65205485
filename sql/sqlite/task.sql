-- Tasks (SQLite).  NOW is the database clock, {{NOW}} in fragments.sql.
-- Every claim, ack and heartbeat is conditional and checked by affected rows.
-- Not in this dialect (see lib/backend/sql_names.h):
-- absent: task_candidates_at task_candidates finds the top due priority itself
-- absent: task_candidates_top as above
-- absent: task_candidates_top_filtered as above
-- absent: task_priority_step as above
-- absent: task_candidates_due task_claim_batch_* claim in one statement
-- absent: task_insert_many_notify no NOTIFY: task_insert_many
-- absent: task_insert_many_same_notify no NOTIFY: task_insert_many_same
-- absent: task_claim_one_delete_occ no data-modifying CTE: the DELETE cannot also move an occurrence
-- absent: task_claim_one_delete_top the top priority's reads are in-process steps, no round trip: task_claim_one_delete
-- absent: task_claim_one_delete_occ_top no data-modifying CTE, as task_claim_one_delete_occ
-- absent: task_claim_one_delete_keyed no data-modifying CTE: the start and the claim are the transaction's, in process
-- absent: task_claim_one_update_keyed as above

-- name: task_insert
-- Returns the id (none when the unique key is taken): a transaction's add
-- reads it with no second statement.
{{TASK_INSERT_ONE}}
ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL DO NOTHING
RETURNING id;

-- name: task_insert_notify
-- task_insert and its id in one autocommit statement (no transaction, no
-- second read); SQLite has no wake-up to send.  No row back: the unique key
-- is taken (the library then looks up the holder).
{{TASK_INSERT_ONE}}
ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL DO NOTHING
RETURNING id;

-- name: task_find_unique
SELECT id FROM lq_task WHERE unique_key = ?1;

-- name: task_candidates
-- Walks lq_task_claim (queue, priority DESC, run_at, id) from the left and
-- stops after ?2 rows (INDEXED BY: never lq_task_due and a sort of the
-- due set, whatever the statistics say).  The walk meets the due tasks of
-- a priority before its future ones, so it stops after as many rows as
-- lq_task_due counts claimable (up to ?2, an O(log n + ?2) range): it never
-- reads on through the tasks that are not due yet, however many wait.
-- After TASK_COLS, the candidate's steering (task_steer_get's columns):
-- the claim of an occurrence needs it.
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0, NULL, {{NOW}}, priority, timeout_ms,
       concurrency_key, part, {{LIMITED}}, overlap, catch_up, next_at
  {{SQLITE_CLAIM_WALK}}
 LIMIT (SELECT count(*) FROM (SELECT 1 {{SQLITE_DUE_WALK}} LIMIT ?2));

-- name: task_claim_batch_delete
-- At-most-once claim of up to ?2 due one-off tasks in one statement: the
-- walk of task_candidates picks them, the DELETE re-checks each row and
-- returns exactly the rows it deleted (claimed = 1).  A write statement
-- in autocommit holds the write lock from its start, so no other claimer
-- runs between the walk and the delete.  Candidates it cannot finish
-- (recurring tasks, expired claims on their last attempt) are not
-- returned: SQLite's RETURNING reports changed rows only, so a short
-- batch sends the library to the transactional path (LQ_CAP_CLAIM_SHORT).
DELETE FROM lq_task
 WHERE id IN (SELECT id {{SQLITE_CLAIM_WALK}} LIMIT (SELECT count(*) FROM (SELECT 1 {{SQLITE_DUE_WALK}} LIMIT ?2)))
   AND {{SQLITE_CLAIM_PLAIN}}
RETURNING {{SQLITE_CLAIMED_COLS}};

-- name: task_claim_batch_update
-- At-least-once claim of up to ?2 due one-off tasks for owner ?3 with a
-- claim lease of ?4 ms; as task_claim_batch_delete, the rows as updated.
UPDATE lq_task
   SET claim_owner = ?3, claim_until = {{NOW}} + ?4, attempts = attempts + 1
 WHERE id IN (SELECT id {{SQLITE_CLAIM_WALK}} LIMIT (SELECT count(*) FROM (SELECT 1 {{SQLITE_DUE_WALK}} LIMIT ?2)))
   AND {{SQLITE_CLAIM_PLAIN}}
RETURNING {{SQLITE_CLAIMED_COLS}};

-- name: task_claim_one_delete
-- task_claim_batch_delete of one task (?1 queue).  No count of the due
-- tasks bounds its walk: SQLITE_TOP is NULL when none is due, and the walk
-- then does not start.
DELETE FROM lq_task
 WHERE id IN (SELECT id {{SQLITE_CLAIM_WALK}} LIMIT 1)
   AND {{SQLITE_CLAIM_PLAIN}}
RETURNING {{SQLITE_CLAIMED_COLS}};

-- name: task_claim_one_update
-- task_claim_batch_update of one task (?1 queue, ?2 owner, ?3 claim_ttl).
UPDATE lq_task
   SET claim_owner = ?2, claim_until = {{NOW}} + ?3, attempts = attempts + 1
 WHERE id IN (SELECT id {{SQLITE_CLAIM_WALK}} LIMIT 1)
   AND {{SQLITE_CLAIM_PLAIN}}
RETURNING {{SQLITE_CLAIMED_COLS}};

-- name: task_claim_delete
DELETE FROM lq_task
 WHERE id = ?1
   AND {{ONE_OFF_CLAIMABLE}};

-- name: task_claim_update
UPDATE lq_task
   SET claim_owner = ?2, claim_until = {{NOW}} + ?3, attempts = attempts + 1
 WHERE id = ?1
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}});

-- name: task_claim_delete_set
-- task_claim_delete for up to 100 ids at once (unused places NULL, which
-- match nothing): the candidates were read in the same write transaction,
-- so the caller expects every one of them to go; the changes say whether
-- they did.
DELETE FROM lq_task
 WHERE id IN ({{CLAIM_SET_IDS}})
   AND {{ONE_OFF_CLAIMABLE}};

-- name: task_claim_update_set
-- task_claim_update for up to 100 one-off ids at once (?3.., NULL-padded),
-- all for owner ?1 with a claim lease of ?2 ms; judged by the changes, as
-- task_claim_delete_set.
UPDATE lq_task
   SET claim_owner = ?1, claim_until = {{NOW}} + ?2, attempts = attempts + 1
 WHERE id IN ({{CLAIM_SET_OWNER_IDS}})
   AND {{ONE_OFF_CLAIMABLE}};

-- name: task_claim_occurrence
-- Exactly one runner moves run_at off the occurrence it saw (at-most-once),
-- to the regular occurrence a run-now set aside (next_at) if there is one.
-- An occurrence under an at-least-once claim is not taken from its holder; an
-- expired one's claim is cleared with the move.
UPDATE lq_task
   SET run_at = COALESCE(next_at, ?3), claim_owner = NULL, claim_until = NULL, attempts = 0,
       next_at = NULL, preempt_at = NULL
 WHERE id = ?1 AND run_at = ?2 AND paused = 0
   AND run_at <= {{NOW}}
   AND ({{CLAIM_FREE}});

-- name: task_ack
DELETE FROM lq_task WHERE id = ?1 AND claim_owner = ?2;

-- name: task_heartbeat
UPDATE lq_task
   SET claim_until = {{NOW}} + ?3
 WHERE id = ?1 AND claim_owner = ?2
   AND claim_until > {{NOW}};

-- name: task_retry_later
UPDATE lq_task
   SET claim_owner = NULL, claim_until = NULL,
       run_at = {{NOW}} + ?3, last_error = ?4
 WHERE id = ?1 AND claim_owner = ?2;

-- name: task_release_claim
-- Hand an at-least-once claim back without counting the attempt.
UPDATE lq_task
   SET claim_owner = NULL, claim_until = NULL,
       attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END
 WHERE id = ?1 AND claim_owner = ?2;

-- name: task_ack_occurrence
-- An at-least-once occurrence is done (or given up, with an error): move on
-- to the next one (next_at if a run-now or an edit set it) and clear the
-- claim; a success is the schedule's last_success_at.
UPDATE lq_task
   SET run_at = COALESCE(next_at, ?3), claim_owner = NULL, claim_until = NULL, attempts = 0,
       last_error = COALESCE(?4, last_error),
       last_success_at = CASE WHEN ?4 IS NULL THEN {{NOW}} ELSE last_success_at END,
       next_at = NULL, preempt_at = NULL
 WHERE id = ?1 AND claim_owner = ?2;

-- name: task_retry_occurrence
-- A failed at-least-once occurrence is tried again after a back-off: the
-- claim is cleared but claim_until holds it back; run_at stays the
-- occurrence's due time.
UPDATE lq_task
   SET claim_owner = NULL, claim_until = {{NOW}} + ?3, last_error = ?4
 WHERE id = ?1 AND claim_owner = ?2;

-- name: task_reinsert
INSERT INTO lq_task (id, queue, name, payload, run_at, attempts, max_attempts,
                     unique_key, last_error, created_at, priority, timeout_ms, concurrency_key, part)
VALUES (?1, ?2, ?3, ?4, {{NOW}} + ?8, ?5, ?6, ?7, ?9, ?10, ?11, ?12, ?13, ?14)
ON CONFLICT DO NOTHING;

-- name: task_bury
INSERT INTO lq_task_dead (id, queue, name, payload, run_at, attempts, max_attempts,
                          unique_key, every_ms, cron, tz, missed, last_error,
                          created_at, died_at, priority, timeout_ms, concurrency_key, part)
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       every_ms, cron, tz, missed, ?3, created_at, {{NOW}}, priority, timeout_ms, concurrency_key, part
  FROM lq_task
 WHERE id = ?1
   AND ((?2 IS NOT NULL AND claim_owner = ?2)
     OR (?2 IS NULL AND ({{CLAIM_FREE}})));

-- name: task_delete
DELETE FROM lq_task WHERE id = ?1;

-- name: task_dead_insert
INSERT INTO lq_task_dead (id, queue, name, payload, run_at, attempts, max_attempts,
                          unique_key, last_error, created_at, died_at, priority, timeout_ms, concurrency_key, part)
VALUES (?1, ?2, ?3, ?4, {{NOW}}, ?5, ?6, ?7, ?8, ?9, {{NOW}}, ?10, ?11, ?12, ?13);

-- name: task_record_error
UPDATE lq_task SET last_error = ?2 WHERE id = ?1;

-- name: task_get
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0, NULL, {{NOW}}, priority, timeout_ms,
       concurrency_key, part, 0
  FROM lq_task WHERE id = ?1
UNION ALL
SELECT id, queue, name, payload, run_at, attempts, max_attempts, unique_key,
       NULL, NULL, every_ms, cron, tz, missed, 0, last_error,
       created_at, 1, died_at, {{NOW}}, priority, timeout_ms,
       concurrency_key, part, 0
  FROM lq_task_dead WHERE id = ?1;

-- name: task_list
SELECT id, queue, name, NULL, run_at, attempts, max_attempts, unique_key,
       claim_owner, claim_until, every_ms, cron, tz, missed, paused, last_error,
       created_at, 0, NULL, {{NOW}}, priority, timeout_ms,
       concurrency_key, part, 0
  FROM lq_task
 WHERE (?1 IS NULL OR queue = ?1)
   AND (?2 = 0 OR (run_at <= {{NOW}} AND paused = 0
                   AND ({{CLAIM_FREE}})))
 ORDER BY id;

-- name: task_list_dead
SELECT id, queue, name, NULL, run_at, attempts, max_attempts, unique_key,
       NULL, NULL, every_ms, cron, tz, missed, 0, last_error,
       created_at, 1, died_at, {{NOW}}, priority, timeout_ms,
       concurrency_key, part, 0
  FROM lq_task_dead
 WHERE (?1 IS NULL OR queue = ?1)
 ORDER BY id;

-- name: task_dead_delete
DELETE FROM lq_task_dead WHERE id = ?1;

-- name: task_revive
INSERT INTO lq_task (id, queue, name, payload, run_at, attempts, max_attempts,
                     unique_key, every_ms, cron, tz, missed, last_error, created_at, priority, timeout_ms, concurrency_key, part)
SELECT id, queue, name, payload, {{NOW}}, 0, max_attempts, unique_key,
       every_ms, cron, tz, missed, last_error, created_at, priority, timeout_ms, concurrency_key, part
  FROM lq_task_dead WHERE id = ?1
ON CONFLICT DO NOTHING;

-- name: task_run_now
-- Due now: a future run_at comes forward (a due one keeps its place, and a
-- recurring task its occurrence), and a back-off without a claim ends.
UPDATE lq_task
   SET run_at = CASE WHEN run_at <= {{NOW}} THEN run_at ELSE {{NOW}} END,
       claim_until = CASE WHEN claim_owner IS NULL THEN NULL ELSE claim_until END
 WHERE id = ?1;

-- name: task_set_paused
UPDATE lq_task SET paused = ?2 WHERE id = ?1;

-- name: task_insert_many
-- Up to 100 tasks in one statement (lq_task_add_many): 15 parameters per
-- task in task_insert's order (?1..?15 the first task, ?16..?30 the
-- second, ...; the concurrency key and the partition go in with the row,
-- as there); unused places are NULL and
-- skipped (a task always has a name).  Rows go in in the order given, so
-- their ids ascend in that order; a task whose unique key is taken is
-- skipped.  Returns (id, unique_key) of each row inserted.
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms,
                     concurrency_key, part)
SELECT q, nm, pl, COALESCE(ra, {{NOW}} + dl), ma, uk, ev, cr, tz, mi,
       {{NOW}}, pr, tm, ck, COALESCE(pt, '')
  FROM ({{TASK_ROWS}}) AS v
 WHERE nm IS NOT NULL
 ORDER BY k
ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL DO NOTHING
RETURNING id, unique_key;

-- name: task_insert_many_same
-- task_insert_many of up to 100 tasks that differ only in name and
-- payload: their options once (?1..?13: queue, run_at, delay, max
-- attempts, unique key, interval, cron, time zone, missed, priority,
-- timeout, concurrency key, partition), then name and payload a task
-- (?14, ?15 the first, ...; unused places NULL): 213 parameters, not
-- 1 500.
{{SQLITE_INSERT_MANY_SAME}}
 ORDER BY k
ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL DO NOTHING
RETURNING id, unique_key;

-- name: task_insert_many_keyless
-- task_insert_many_same of tasks without a unique key (?5 is NULL), with
-- no RETURNING: SQLite returns rows through a trigger program run for each
-- row, which cost a batch of 100 as much as the insert itself (C,
-- prepared, WAL: 217 us against 123 without it, the plain INSERT of the
-- same rows 103).  With no key nothing conflicts, so every row goes in, in
-- the order given, and AUTOINCREMENT gives each the next id while the
-- statement holds the write lock: the ids are the last_insert_rowid()
-- after it and the ones just before, as many as the rows it changed.
{{SQLITE_INSERT_MANY_SAME}} AND ?5 IS NULL
 ORDER BY k;
