-- Leases (MySQL/MariaDB).  Every write is conditional and checked by affected
-- rows (the connection sets CLIENT_FOUND_ROWS: matched rows), and every
-- successful write changes the row anyway (owner, token or expires_at).
-- NOW is written out as CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED).

-- name: lease_acquire
-- Take the lease in one statement: insert it if absent, or take it over if
-- it has expired (token + 1: the fencing token never goes back, because the
-- row is never deleted).  No row comes back (no RETURNING on MySQL); with
-- CLIENT_FOUND_ROWS the affected rows are 1 inserted or left as it was, 2
-- taken over, and the caller reads the row: it holds the lease only if the
-- row carries its owner (which has a random part).  The assignments run
-- left to right, each seeing the ones before, so expires_at, which every
-- condition reads, is assigned last; NOW(3) is fixed for the statement.
INSERT INTO lq_lease (name, owner, token, acquired_at, expires_at)
VALUES (?1, ?2, 1, CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED),
        CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED) + ?3)
ON DUPLICATE KEY UPDATE
   owner = IF(expires_at <= CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED), ?2, owner),
   token = IF(expires_at <= CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED), token + 1, token),
   acquired_at = IF(expires_at <= CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED),
                    CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED), acquired_at),
   expires_at = IF(expires_at <= CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED),
                   CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED) + ?3, expires_at);

-- name: lease_insert
-- A plain INSERT: a taken name is ER_DUP_ENTRY, which the backend reports as
-- 0 affected rows ("ON CONFLICT DO NOTHING").  Not INSERT IGNORE: that would
-- turn strict-mode errors into warnings.
INSERT INTO lq_lease (name, owner, token, acquired_at, expires_at)
VALUES (?1, ?2, 1, CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED),
        CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED) + ?3);

-- name: lease_take
UPDATE lq_lease
   SET owner = ?2, token = token + 1,
       acquired_at = CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED),
       expires_at = CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED) + ?3
 WHERE name = ?1
   AND expires_at <= CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED);

-- name: lease_get
SELECT name, owner, token, acquired_at, expires_at,
       CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)
  FROM lq_lease WHERE name = ?1;

-- name: lease_renew
UPDATE lq_lease
   SET expires_at = CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED) + ?4
 WHERE name = ?1 AND owner = ?2 AND token = ?3
   AND expires_at > CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED);

-- name: lease_release
UPDATE lq_lease
   SET owner = NULL,
       expires_at = CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)
 WHERE name = ?1 AND owner = ?2 AND token = ?3;

-- name: lease_break
-- The token moves on so that the old holder's renew and release fail.
UPDATE lq_lease
   SET owner = NULL, token = token + 1,
       expires_at = CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)
 WHERE name = ?1;

-- name: lease_list
SELECT name, owner, token, acquired_at, expires_at,
       CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)
  FROM lq_lease ORDER BY name;
