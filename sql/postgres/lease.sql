-- Leases (PostgreSQL).  Every write is conditional and checked by affected
-- rows.  Under READ COMMITTED a racing UPDATE re-checks its WHERE against the
-- winner's row, so each guard tests a column the winner changes (expires_at,
-- token).  NOW is (SELECT n FROM clk), see schema.sql.

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
   AND expires_at > (SELECT n FROM clk);

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
