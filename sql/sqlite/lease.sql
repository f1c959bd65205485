-- Leases (SQLite).  Every write is conditional and checked by affected rows.

-- name: lease_acquire
-- Take the lease in one statement: insert it if absent, or take it over if
-- it has expired (token + 1: the fencing token never goes back, because the
-- row is never deleted).  The row comes back (LEASE_COLS, got = 1) only when
-- this statement took it; a held lease returns nothing and the caller reads
-- it.  One autocommit statement: SQLite takes the write lock when it starts.
INSERT INTO lq_lease (name, owner, token, acquired_at, expires_at)
SELECT ?1, ?2, 1, n, n + ?3
  FROM (SELECT CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) AS n)
 WHERE true
ON CONFLICT (name) DO UPDATE
   SET owner = excluded.owner, token = token + 1,
       acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
 WHERE expires_at <= excluded.acquired_at
RETURNING name, owner, token, acquired_at, expires_at, acquired_at, 1;

-- name: lease_insert
INSERT INTO lq_lease (name, owner, token, acquired_at, expires_at)
SELECT ?1, ?2, 1, n, n + ?3
  FROM (SELECT CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) AS n)
 WHERE true
ON CONFLICT (name) DO NOTHING;

-- name: lease_take
UPDATE lq_lease
   SET owner = ?2, token = token + 1,
       acquired_at = CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER),
       expires_at = CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) + ?3
 WHERE name = ?1
   AND expires_at <= CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER);

-- name: lease_get
SELECT name, owner, token, acquired_at, expires_at,
       CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)
  FROM lq_lease WHERE name = ?1;

-- name: lease_renew
UPDATE lq_lease
   SET expires_at = CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) + ?4
 WHERE name = ?1 AND owner = ?2 AND token = ?3
   AND expires_at > CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)
RETURNING expires_at, expires_at - ?4;

-- name: lease_release
UPDATE lq_lease
   SET owner = NULL,
       expires_at = CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)
 WHERE name = ?1 AND owner = ?2 AND token = ?3;

-- name: lease_break
-- The token moves on so that the old holder's renew and release fail.
UPDATE lq_lease
   SET owner = NULL, token = token + 1,
       expires_at = CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)
 WHERE name = ?1;

-- name: lease_list
SELECT name, owner, token, acquired_at, expires_at,
       CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)
  FROM lq_lease ORDER BY name;
