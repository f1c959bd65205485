-- Raw baselines of "leasectl bench" (MySQL/MariaDB): each job written the
-- fastest honest way through the client library's prepared statements, on
-- leaseq's own tables.  The session runs as leaseq's does (strict sql_mode,
-- time_zone '+00:00', READ COMMITTED) but without CLIENT_FOUND_ROWS, so an
-- upsert's affected rows tell insert (1), update (2) and no change (0) apart.
-- NOW is {{NOW}} of sql/mysql/fragments.sql: NOW(3) is fixed for the whole statement.
-- MariaDB plans DELETE ... WHERE id = (SELECT ... SKIP LOCKED) as a table
-- scan, so a claim is SELECT ... FOR UPDATE SKIP LOCKED, then the write by
-- id, then COMMIT.  Parameters are positional (?), in the order given.

-- name: claim_pick
-- (queue, how many) -> due tasks, locked, in claim order
SELECT id, name, payload, run_at FROM lq_task
 WHERE queue = ? AND run_at <= {{NOW}}
 ORDER BY run_at, id LIMIT ?
   FOR UPDATE SKIP LOCKED;

-- name: claim_delete
-- (id)
DELETE FROM lq_task WHERE id = ?;

-- name: claim_delete_batch
-- (100 ids; a short batch repeats its first id)
DELETE FROM lq_task
 WHERE id IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                 ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                 ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                 ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                 ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                 ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                 ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                 ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                 ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                 ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: claim_ack_pick
-- (queue) -> a due task not claimed by anyone alive, locked
SELECT id, name, payload, run_at FROM lq_task
 WHERE queue = ? AND run_at <= {{NOW}}
   AND ({{CLAIM_FREE}})
 ORDER BY run_at, id LIMIT 1
   FOR UPDATE SKIP LOCKED;

-- name: claim_ack_mark
-- (owner, claim ttl ms, id)
UPDATE lq_task
   SET claim_owner = ?, claim_until = {{NOW}} + ?, attempts = attempts + 1
 WHERE id = ?;

-- name: claim_ack_ack
-- (id, owner)
DELETE FROM lq_task WHERE id = ? AND claim_owner = ?;

-- name: enqueue
-- (queue, payload); run_at and created_at default to now
INSERT INTO lq_task (queue, name, payload) VALUES (?, 'bench', ?);

-- name: enqueue_batch
-- (queue, name, payload) x 100, one tuple per task; one statement is its own
-- transaction, so the 100 rows go in all or none.  run_at and created_at
-- default to now.
INSERT INTO lq_task (queue, name, payload)
VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?),
       (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?),
       (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?),
       (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?),
       (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?),
       (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?),
       (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?),
       (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?),
       (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?),
       (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?),
       (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?),
       (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?),
       (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?);

-- name: lease_take
-- (name, owner, ttl ms): 1 row affected = inserted (token 1), 2 = an expired
-- lease taken, its new fencing token the statement's insert id
-- (LAST_INSERT_ID(expr), no result set: the job's token, as the other
-- dialects' RETURNING token), 0 = held.  The assignments run left to right
-- and each reads the columns as already assigned, so expires_at, which
-- every test reads, goes last.
INSERT INTO lq_lease (name, owner, token, acquired_at, expires_at)
VALUES (?, ?, 1, {{NOW}}, {{NOW}} + ?)
ON DUPLICATE KEY UPDATE
   owner = IF(expires_at <= VALUES(acquired_at), VALUES(owner), owner),
   token = IF(expires_at <= VALUES(acquired_at), LAST_INSERT_ID(token + 1), token),
   acquired_at = IF(expires_at <= VALUES(acquired_at), VALUES(acquired_at), acquired_at),
   expires_at = IF(expires_at <= VALUES(acquired_at), VALUES(expires_at), expires_at);

-- name: lease_release
-- (name, owner): the owner is unique to one acquisition
UPDATE lq_lease SET owner = NULL, expires_at = {{NOW}}
 WHERE name = ? AND owner = ?;

-- name: tick_due
-- (queue) -> a row when a task is due, read off the (queue, run_at, id) index
SELECT run_at FROM lq_task
 WHERE queue = ? AND run_at <= {{NOW}}
 ORDER BY run_at LIMIT 1;

-- name: recurring_pick
-- (queue) -> a due occurrence, locked
SELECT id, name, payload, run_at FROM lq_task
 WHERE queue = ? AND run_at <= {{NOW}}
 ORDER BY run_at, id LIMIT 1
   FOR UPDATE SKIP LOCKED;

-- name: recurring_move
-- (id): run_at one interval past now
UPDATE lq_task SET run_at = {{NOW}} + every_ms WHERE id = ?;

-- name: fill
-- (rows, queue, payload, kind, kind, every_ms or NULL); kind: 0 due, 1 every
-- second row due in a year, 2 all in a year; in id order
INSERT INTO lq_task (queue, name, payload, run_at, every_ms, created_at)
WITH RECURSIVE g(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM g WHERE k < ?)
SELECT ?, 'bench', ?,
       {{NOW}} + IF(? = 2 OR (? = 1 AND k % 2 = 1), 31536000000, 0),
       ?, {{NOW}}
  FROM g ORDER BY k;

-- name: clear_tasks
-- (LIKE pattern)
DELETE FROM lq_task WHERE queue LIKE ?;

-- name: clear_dead
DELETE FROM lq_task_dead WHERE queue LIKE ?;

-- name: clear_leases
DELETE FROM lq_lease WHERE name LIKE ?;
