-- Raw baselines of "leasectl bench" (SQLite): each job written the fastest
-- honest way through the sqlite3 API, on leaseq's own tables.  NOW is the
-- database clock in epoch milliseconds, as leaseq computes it.  Every
-- statement runs alone in autocommit: a writing statement takes the write
-- lock before it reads, so SQLite serialises the claims.

-- name: claim
-- (?1 queue) -> the claimed task
DELETE FROM lq_task
 WHERE id = (SELECT id FROM lq_task
              WHERE queue = ?1
                AND run_at <= {{NOW}}
              ORDER BY run_at, id LIMIT 1)
RETURNING id, name, payload, run_at;

-- name: claim_batch
-- (?1 queue, ?2 how many) -> the claimed tasks
DELETE FROM lq_task
 WHERE id IN (SELECT id FROM lq_task
               WHERE queue = ?1
                 AND run_at <= {{NOW}}
               ORDER BY run_at, id LIMIT ?2)
RETURNING id, name, payload, run_at;

-- name: claim_ack_claim
-- (?1 queue, ?2 owner, ?3 claim ttl ms) -> the claimed task
UPDATE lq_task
   SET claim_owner = ?2,
       claim_until = {{NOW}} + ?3,
       attempts = attempts + 1
 WHERE id = (SELECT id FROM lq_task
              WHERE queue = ?1
                AND run_at <= {{NOW}}
                AND (claim_until IS NULL
                     OR claim_until <= {{NOW}})
              ORDER BY run_at, id LIMIT 1)
RETURNING id, name, payload, run_at;

-- name: claim_ack_ack
-- (?1 id, ?2 owner)
DELETE FROM lq_task WHERE id = ?1 AND claim_owner = ?2;

-- name: enqueue
-- (?1 queue, ?2 payload); run_at and created_at default to now
INSERT INTO lq_task (queue, name, payload) VALUES (?1, 'bench', ?2);

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
-- (?1 name, ?2 owner, ?3 ttl ms) -> token when taken, no row when held
INSERT INTO lq_lease (name, owner, token, acquired_at, expires_at)
VALUES (?1, ?2, 1, {{NOW}},
        {{NOW}} + ?3)
ON CONFLICT (name) DO UPDATE
   SET owner = excluded.owner, token = token + 1,
       acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
 WHERE expires_at <= excluded.acquired_at
RETURNING token;

-- name: lease_release
-- (?1 name, ?2 owner, ?3 token)
UPDATE lq_lease
   SET owner = NULL, expires_at = {{NOW}}
 WHERE name = ?1 AND owner = ?2 AND token = ?3;

-- name: tick_due
-- (?1 queue) -> a row when a task is due, read off the (queue, run_at, id) index
SELECT run_at FROM lq_task
 WHERE queue = ?1 AND run_at <= {{NOW}}
 ORDER BY run_at LIMIT 1;

-- name: recurring
-- (?1 queue) -> the occurrence claimed; run_at moves one interval past now
UPDATE lq_task
   SET run_at = {{NOW}} + every_ms
 WHERE id = (SELECT id FROM lq_task
              WHERE queue = ?1
                AND run_at <= {{NOW}}
              ORDER BY run_at, id LIMIT 1)
RETURNING id, name, payload, run_at;

-- name: fill
-- (?1 queue, ?2 payload, ?3 rows, ?4 kind: 0 due, 1 every second row due in
-- a year, 2 all in a year, ?5 every_ms or NULL), in id order
WITH RECURSIVE g(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM g WHERE k < ?3)
INSERT INTO lq_task (queue, name, payload, run_at, every_ms, created_at)
SELECT ?1, 'bench', ?2,
       {{NOW}}
         + CASE WHEN ?4 = 2 OR (?4 = 1 AND k % 2 = 1) THEN 31536000000 ELSE 0 END,
       ?5, {{NOW}}
  FROM g ORDER BY k;

-- name: clear_tasks
-- (?1 LIKE pattern)
DELETE FROM lq_task WHERE queue LIKE ?1;

-- name: clear_dead
DELETE FROM lq_task_dead WHERE queue LIKE ?1;

-- name: clear_leases
DELETE FROM lq_lease WHERE name LIKE ?1;
