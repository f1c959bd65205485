-- Leases (PostgreSQL).  Every write is conditional and checked by affected
-- rows.  Under READ COMMITTED a racing UPDATE re-checks its WHERE against the
-- winner's row, so each guard tests a column the winner changes (expires_at,
-- token).  NOW is (SELECT n FROM clk), see schema.sql.

-- name: lease_acquire
-- Take the lease in one statement: insert it if absent, or take it over if
-- it has expired (token + 1: the fencing token never goes back, because the
-- row is never deleted).  Result: LEASE_COLS then got = 1 when this
-- statement took it; otherwise the row as this statement's snapshot saw it,
-- with got = 0 (no row at all when a racing insert is not in the snapshot:
-- the caller then reads it).  ON CONFLICT locks the existing row before its
-- WHERE runs, so of two racing takers one sees the other's expires_at.
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint),
took AS (
  INSERT INTO lq_lease AS l (name, owner, token, acquired_at, expires_at)
  SELECT $1::text, $2::text, 1, n, n + $3::bigint FROM clk
  ON CONFLICT (name) DO UPDATE
     SET owner = EXCLUDED.owner, token = l.token + 1,
         acquired_at = EXCLUDED.acquired_at, expires_at = EXCLUDED.expires_at
   WHERE l.expires_at <= EXCLUDED.acquired_at
  RETURNING l.name, l.owner, l.token, l.acquired_at, l.expires_at)
SELECT name, owner, token, acquired_at, expires_at, (SELECT n FROM clk), 1 FROM took
UNION ALL
SELECT name, owner, token, acquired_at, expires_at, (SELECT n FROM clk), 0
  FROM lq_lease
 WHERE name = $1::text AND NOT EXISTS (SELECT 1 FROM took);

-- name: lease_insert
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
INSERT INTO lq_lease (name, owner, token, acquired_at, expires_at)
SELECT $1::text, $2::text, 1, n, n + $3::bigint FROM clk
ON CONFLICT (name) DO NOTHING;

-- name: lease_take
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
UPDATE lq_lease
   SET owner = $2::text, token = token + 1,
       acquired_at = (SELECT n FROM clk),
       expires_at = (SELECT n FROM clk) + $3::bigint
 WHERE name = $1::text
   AND expires_at <= (SELECT n FROM clk);

-- name: lease_get
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
SELECT name, owner, token, acquired_at, expires_at, (SELECT n FROM clk)
  FROM lq_lease WHERE name = $1::text;

-- name: lease_renew
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
UPDATE lq_lease
   SET expires_at = (SELECT n FROM clk) + $4::bigint
 WHERE name = $1::text AND owner = $2::text AND token = $3::bigint
   AND expires_at > (SELECT n FROM clk)
RETURNING expires_at, (SELECT n FROM clk);

-- name: lease_release
UPDATE lq_lease
   SET owner = NULL,
       expires_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint
 WHERE name = $1::text AND owner = $2::text AND token = $3::bigint;

-- name: lease_break
-- The token moves on so that the old holder's renew and release fail.
UPDATE lq_lease
   SET owner = NULL, token = token + 1,
       expires_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint
 WHERE name = $1::text;

-- name: lease_list
WITH clk(n) AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
SELECT name, owner, token, acquired_at, expires_at, (SELECT n FROM clk)
  FROM lq_lease ORDER BY name;
