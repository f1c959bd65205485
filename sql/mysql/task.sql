-- Tasks (MySQL/MariaDB).  NOW is the database clock, {{NOW}} in fragments.sql.
-- Every claim, ack and heartbeat is conditional, by id, and checked by
-- affected rows (matched rows: CLIENT_FOUND_ROWS).  No UPDATE ... ORDER BY
-- ... LIMIT: it locks every index record it scans and deadlocks under load.
-- Inserts that may conflict are plain INSERTs: ER_DUP_ENTRY is reported by
-- the backend as 0 affected rows ("ON CONFLICT DO NOTHING").
-- Not in this dialect (see lib/backend/sql_names.h):
-- absent: task_candidates its walk over every priority does not end at the due tasks: task_candidates_at
-- absent: task_claim_batch_delete no DELETE ... RETURNING (LQ_CAP_CLAIM_RETURNING): the *_set ones
-- absent: task_claim_batch_update no UPDATE ... RETURNING, as above
-- absent: task_claim_one_delete no DELETE ... RETURNING, as above
-- absent: task_claim_one_update no UPDATE ... RETURNING, as above
-- absent: task_claim_one_delete_occ no DELETE ... RETURNING, as above
-- absent: task_claim_one_delete_top no DELETE ... RETURNING, as above: task_candidates_top
-- absent: task_claim_one_delete_occ_top no DELETE ... RETURNING, as above: task_candidates_top
-- absent: task_claim_one_delete_keyed no DELETE ... RETURNING, as above
-- absent: task_claim_one_update_keyed no UPDATE ... RETURNING, as above
-- absent: task_insert_many_notify no NOTIFY: task_insert_many
-- absent: task_insert_many_same_notify no NOTIFY: task_insert_many_same
-- absent: task_insert_many_keyless a multi-row INSERT's ids need not be consecutive (innodb_autoinc_lock_mode 2, Galera): task_insert_many_same

-- name: task_insert
-- columns: task_insert 0 the backend makes its one row from mysql_stmt_insert_id
-- The backend returns the new id (mysql_stmt_insert_id) as its one row,
-- none when the unique key is taken, as task_insert_notify's: a
-- transaction's add reads it with no second statement.
{{TASK_INSERT_ONE}};

-- name: task_insert_notify
-- columns: task_insert_notify 0 the backend makes its one row from mysql_stmt_insert_id
-- task_insert as one autocommit statement; the backend returns the new id
-- (mysql_stmt_insert_id) as its one row, none when the unique key is taken.
-- There is no wake-up to send on MySQL.
{{TASK_INSERT_ONE}};

-- name: task_find_unique
SELECT id FROM lq_task WHERE unique_key = ?1;

-- name: task_candidates_at
-- The due tasks of queue ?1 and priority ?3 a claim may take, the first ?2
-- by (run_at, id), locked; rows another claimer has locked are skipped,
-- not waited for.  The library reads the priorities one by one, from the
-- highest with a due task down (task_priority_step), because a locking
-- read here must end where the due tasks end: InnoDB keeps every row a
-- locking read has read locked until the commit (READ COMMITTED too: an
-- index condition that fails keeps it).  One walk of lq_task_claim over
-- all priorities from the left stopped only after ?2 rows, and when fewer
-- were free it read and locked every task not due yet.  Another claimer's
-- walk that passed over a task this one holds keeps that task's entry in
-- lq_task_claim locked, so even a read that had found a free task before
-- could go on: 16 workers over a million future tasks filled the lock
-- memory and the server aborted.  With ?3 a constant the range ends at
-- the clock.  On a server without SKIP LOCKED the backend drops the
-- clause: the conditional claim by id that follows is still the atomic
-- step.  FORCE INDEX: with few due tasks the optimizer would rather read
-- lq_task_due and sort, which reads (and locks) the queue's due set.
{{CANDIDATES_COLS}}
  FROM lq_task FORCE INDEX (lq_task_claim)
 WHERE {{CLAIM_FILTER}}
   AND priority = ?3
 ORDER BY priority DESC, run_at, id
 LIMIT ?2
 FOR UPDATE SKIP LOCKED;

-- name: task_candidates_top
-- task_candidates_at of a queue whose highest priority, ?3, had a due
-- task when the handle last looked, while lq_limit has no row: without
-- the filters of the limits, which MariaDB plans on every execution of a
-- prepared statement, and without a step first.  No row when a task of a
-- higher priority has come since, when none of ?3 is due and free, or when
-- lq_limit has a row: the library then steps down the priorities.
{{CANDIDATES_HEAD}}, CASE WHEN concurrency_key IS NOT NULL THEN 1 ELSE 0 END, overlap, catch_up, next_at
  FROM lq_task FORCE INDEX (lq_task_claim)
 WHERE {{CLAIM_FILTER_UNLIMITED}}
   AND priority = ?3
   AND NOT EXISTS (SELECT 1 FROM lq_task h FORCE INDEX (lq_task_claim) WHERE h.queue = ?1 AND h.priority > ?3)
   AND NOT EXISTS (SELECT 1 FROM lq_limit)
 ORDER BY priority DESC, run_at, id
 LIMIT ?2
 FOR UPDATE SKIP LOCKED;

-- name: task_candidates_top_filtered
-- task_candidates_top while lq_limit has rows (the handle saw them lately):
-- task_candidates_at of ?3 with the limits' filter, none while a task of a
-- higher priority is in the queue, so that a claim of a queue under limits
-- reads its top priority without a step first.
{{CANDIDATES_COLS}}
  FROM lq_task FORCE INDEX (lq_task_claim)
 WHERE {{CLAIM_FILTER}}
   AND priority = ?3
   AND NOT EXISTS (SELECT 1 FROM lq_task h FORCE INDEX (lq_task_claim) WHERE h.queue = ?1 AND h.priority > ?3)
 ORDER BY priority DESC, run_at, id
 LIMIT ?2
 FOR UPDATE SKIP LOCKED;

-- name: task_candidates_due
-- task_candidates_at of a queue whose tasks all have one priority (the
-- usual queue, where priority order is due order), with no step first:
-- read on lq_task_due, whose due range ends the walk.  A queue with tasks
-- of two priorities or more gives no row (its lowest and highest
-- priority, each one end of lq_task_claim, read once: MIN and MAX read the
-- whole queue there), and the library steps down the priorities, as when
-- nothing is due.
{{CANDIDATES_COLS}}
  FROM lq_task FORCE INDEX (lq_task_due)
 WHERE {{CLAIM_FILTER}}
   AND (SELECT m.priority FROM lq_task m FORCE INDEX (lq_task_claim)
         WHERE m.queue = ?1 ORDER BY m.priority LIMIT 1)
       = (SELECT m.priority FROM lq_task m FORCE INDEX (lq_task_claim)
           WHERE m.queue = ?1 ORDER BY m.priority DESC LIMIT 1)
 ORDER BY run_at, id
 LIMIT ?2
 FOR UPDATE SKIP LOCKED;

-- name: task_priority_step
-- The highest priority of queue ?1 below ?2 (of all when ?2 is NULL), 1
-- when its first task by run_at is due by the clock, else 0, and 1 when
-- the queue has a lower priority, else 0; no row when there is none.  A
-- descent of lq_task_claim for each: with ?2 a constant, MariaDB seeks it,
-- where below a value read in the same statement it scanned from the top
-- (the lowest priority is read at the other end instead).  The library
-- steps down the priorities with it, reading each due one with
-- task_candidates_at, and stops at the last without a step more.
SELECT s.p, COALESCE((SELECT u.run_at FROM lq_task u FORCE INDEX (lq_task_claim)
                       WHERE u.queue = ?1 AND u.priority = s.p
                       ORDER BY u.run_at LIMIT 1) <= {{NOW}}, 0),
       (SELECT l.priority FROM lq_task l FORCE INDEX (lq_task_claim)
         WHERE l.queue = ?1 ORDER BY l.priority LIMIT 1) < s.p
  FROM (SELECT h.priority AS p FROM lq_task h FORCE INDEX (lq_task_claim)
         WHERE h.queue = ?1 AND (?2 IS NULL OR h.priority < ?2)
         ORDER BY h.priority DESC LIMIT 1) AS s;

-- name: task_claim_delete
DELETE FROM lq_task
 WHERE id = ?1
   AND {{ONE_OFF_CLAIMABLE}};

-- name: task_claim_delete_set
-- task_claim_delete for up to 100 ids at once (unused places NULL, which
-- match nothing): the candidates were read FOR UPDATE (SKIP LOCKED) in the
-- same transaction, so the caller expects every one of them to go; the
-- affected rows say whether they did.
DELETE FROM lq_task
 WHERE id IN ({{CLAIM_SET_IDS}})
   AND {{ONE_OFF_CLAIMABLE}};

-- name: task_claim_update_set
-- task_claim_update for up to 100 ids at once (?3.., NULL-padded), all for
-- owner ?1 with a claim lease of ?2 ms; judged by the affected rows, as
-- task_claim_delete_set.
UPDATE lq_task
   SET claim_owner = ?1, claim_until = {{NOW}} + ?2, attempts = attempts + 1
 WHERE id IN ({{CLAIM_SET_OWNER_IDS}})
   AND {{ONE_OFF_CLAIMABLE}};

-- name: task_claim_update
UPDATE lq_task
   SET claim_owner = ?2, claim_until = {{NOW}} + ?3, attempts = attempts + 1
 WHERE id = ?1
   AND run_at <= {{NOW}}
   AND paused = 0
   AND ({{CLAIM_FREE}});

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
       attempts = GREATEST(attempts - 1, 0)
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
VALUES (?1, ?2, ?3, ?4, {{NOW}} + ?8, ?5, ?6, ?7, ?9, ?10, ?11, ?12, ?13, ?14);

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
  FROM lq_task_dead WHERE id = ?1;

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
-- skipped (here by a NOT EXISTS; a key taken by a racing insert fails
-- the statement, which the backend reports as no row, and the library
-- retries the transaction).  Returns (id, unique_key) of each row inserted.
-- The payloads are read by place (TASK_ROWS_BARE, TASK_PAYLOADS), as
-- task_insert_many_same reads its names and payloads.
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms,
                     concurrency_key, part)
SELECT q, nm, ELT(k, {{TASK_PAYLOADS}}), COALESCE(ra, {{NOW}} + dl), ma, uk, ev, cr, tz, mi,
       {{NOW}}, pr, tm, ck, COALESCE(pt, '')
  FROM ({{TASK_ROWS_BARE}}) AS v
 WHERE nm IS NOT NULL
   AND (uk IS NULL OR NOT EXISTS (SELECT 1 FROM lq_task t WHERE t.unique_key = v.uk))
 ORDER BY k
RETURNING id, unique_key;

-- name: task_insert_many_same
-- task_insert_many of up to 100 tasks that differ only in name and
-- payload: their options once (?1..?13: queue, run_at, delay, max
-- attempts, unique key, interval, cron, time zone, missed, priority,
-- timeout, concurrency key, partition), then name and payload a task
-- (?14, ?15 the first, ...; unused places NULL), read by place number
-- (MANY_K, MANY_NAMES, MANY_PAYLOADS).
-- Prepared, 200 batches of 100 on the tests' MariaDB 10.11: 1.70 ms a
-- batch when the names and payloads were a derived table of their own
-- (three temporary tables a batch on disk), 1.08 ms so, as a multi-row
-- INSERT ... VALUES with the options in each tuple (1.09), the raw
-- INSERT ... VALUES of 300 parameters 0.80.
INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key,
                     every_ms, cron, tz, missed, created_at, priority, timeout_ms,
                     concurrency_key, part)
SELECT s.q, ELT(v.k, {{MANY_NAMES}}), ELT(v.k, {{MANY_PAYLOADS}}),
       COALESCE(s.ra, {{NOW}} + s.dl), s.ma, s.uk, s.ev, s.cr, s.tz, s.mi,
       {{NOW}}, s.pr, s.tm, s.ck, COALESCE(s.pt, '')
  FROM (SELECT ?1 AS q, ?2 AS ra, ?3 AS dl, ?4 AS ma, ?5 AS uk, ?6 AS ev, ?7 AS cr, ?8 AS tz,
               ?9 AS mi, ?10 AS pr, ?11 AS tm, ?12 AS ck, ?13 AS pt) AS s,
       ({{MANY_K}}) AS v
 WHERE ELT(v.k, {{MANY_NAMES}}) IS NOT NULL
   AND (s.uk IS NULL OR NOT EXISTS (SELECT 1 FROM lq_task t WHERE t.unique_key = s.uk))
 ORDER BY v.k
RETURNING id, unique_key;
