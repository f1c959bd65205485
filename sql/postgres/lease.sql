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
-- the caller then reads it).
WITH {{CLK}},
took AS (
{{LEASE_UPSERT}}
RETURNING l.name, l.owner, l.token, l.acquired_at, l.expires_at)
SELECT name, owner, token, acquired_at, expires_at, (SELECT n FROM clk), 1 FROM took
UNION ALL
SELECT name, owner, token, acquired_at, expires_at, (SELECT n FROM clk), 0
  FROM lq_lease
 WHERE name = $1::text AND NOT EXISTS (SELECT 1 FROM took);

-- name: lease_acquire_free
-- lease_acquire without the read of a held lease: the row it took (got = 1,
-- NOW as its acquired_at), no row when the lease is held (the caller then
-- reads it, lease_get).  For a lease the handle has not found held lately:
-- the read of lease_acquire, with the data-modifying CTE it needs, cost the
-- server a sixth of the statement even when it took the lease.
WITH {{CLK}}
{{LEASE_UPSERT}}
RETURNING l.name, l.owner, l.token, l.acquired_at, l.expires_at, l.acquired_at, 1;

-- name: lease_take
WITH {{CLK}}
UPDATE lq_lease
   SET owner = $2::text, token = token + 1,
       acquired_at = (SELECT n FROM clk),
       expires_at = (SELECT n FROM clk) + $3::bigint
 WHERE name = $1::text
   AND expires_at <= (SELECT n FROM clk);

-- name: lease_get
WITH {{CLK}}
SELECT name, owner, token, acquired_at, expires_at, (SELECT n FROM clk)
  FROM lq_lease WHERE name = $1::text;

-- name: lease_renew
WITH {{CLK}}
UPDATE lq_lease
   SET expires_at = (SELECT n FROM clk) + $4::bigint
 WHERE name = $1::text AND owner = $2::text AND token = $3::bigint
   AND expires_at > (SELECT n FROM clk)
RETURNING expires_at, (SELECT n FROM clk);

-- name: lease_release
UPDATE lq_lease
   SET owner = NULL,
       expires_at = {{NOW}}
 WHERE name = $1::text AND owner = $2::text AND token = $3::bigint;

-- name: lease_wait_mark
-- A waiting acquirer marks the lease until its wait ends (the latest mark
-- wins), so that the holder's release wakes it.
UPDATE lq_lease
   SET wait_until = GREATEST(COALESCE(wait_until, 0), {{NOW}} + $2::bigint)
 WHERE name = $1::text;

-- name: lease_release_notify
-- lease_release and the waiters' wake-up (channel LQ_CHANNEL_LEASE) in one
-- round trip; the notification goes out only when the lease was released
-- and a waiter's mark has not run out.
WITH u AS (
  UPDATE lq_lease
     SET owner = NULL,
         expires_at = {{NOW}}
   WHERE name = $1::text AND owner = $2::text AND token = $3::bigint
  RETURNING wait_until)
SELECT CASE WHEN u.wait_until > {{NOW}} THEN pg_notify('leaseq_lease', '') END AS wake FROM u;

-- name: lease_break
-- The token moves on so that the old holder's renew and release fail.
UPDATE lq_lease
   SET owner = NULL, token = token + 1,
       expires_at = {{NOW}}
 WHERE name = $1::text;

-- name: lease_list
-- (?1 name, or NULL for all) -> LEASE_COLS, then slot (NULL for the row
-- itself), and the lq_lease row's owner, token and expires_at: every
-- holder, a shared lease's live slots in place of its lq_lease row.
WITH {{CLK}}
SELECT l.name, COALESCE(s.owner, l.owner), COALESCE(s.token, l.token),
       COALESCE(s.acquired_at, l.acquired_at), COALESCE(s.expires_at, l.expires_at), (SELECT n FROM clk),
       s.slot, l.owner, l.token, l.expires_at
  FROM lq_lease l
  LEFT JOIN lq_lease_slot s
    ON s.name = l.name AND s.slot >= 0 AND s.owner IS NOT NULL AND s.expires_at > (SELECT n FROM clk)
 WHERE $1::text IS NULL OR l.name = $1::text
 ORDER BY l.name, s.slot;

-- Shared leases.  A semaphore's lq_lease row is a header (owner "lq:slots:N",
-- token 0, expires_at far away: no exclusive acquire takes it) and its slots
-- are lq_lease_slot rows 0..N-1.  A read/write lease is an ordinary lq_lease
-- row (the write lease is the exclusive lease); while readers hold it, its
-- owner is the readers' marker and its expires_at the latest reader's, and
-- each reader is an lq_lease_slot row >= 1; slot -1 is a waiting writer's
-- intent.  Reader changes run in a transaction that first locks the
-- lq_lease row (lease_lock), so they are serialised with each other; the
-- exclusive acquire stays one upsert and meets a row it cannot take.

-- name: lease_create
-- The lq_lease row of a shared lease, if absent: token 0, so the first
-- acquisition has token 1.  ?3 NULL: free now.
WITH {{CLK}}
INSERT INTO lq_lease (name, owner, token, acquired_at, expires_at)
SELECT $1::text, $2::text, 0, n, COALESCE($3::bigint, n)
  FROM clk
ON CONFLICT (name) DO NOTHING;

-- name: lease_lock
WITH {{CLK}}
SELECT name, owner, token, acquired_at, expires_at, (SELECT n FROM clk)
  FROM lq_lease WHERE name = $1::text FOR UPDATE;

-- name: lease_slot_get
WITH {{CLK}}
SELECT name, owner, token, acquired_at, expires_at, (SELECT n FROM clk)
  FROM lq_lease_slot WHERE name = $1::text AND slot = $2::integer;

-- name: lease_slot_scan
WITH {{CLK}}
SELECT slot, expires_at, (SELECT n FROM clk)
  FROM lq_lease_slot WHERE name = $1::text AND slot >= 0 AND slot < $2::integer ORDER BY slot;

-- name: lease_slot_insert
WITH {{CLK}}
INSERT INTO lq_lease_slot (name, slot, owner, token, acquired_at, expires_at)
SELECT $1::text, $2::integer, $3::text, 1, n, n + $4::bigint
  FROM clk
ON CONFLICT (name, slot) DO NOTHING;

-- name: lease_slot_take
-- Take an expired slot: token + 1, so the fencing token grows per slot.
WITH {{CLK}}
UPDATE lq_lease_slot
   SET owner = $3::text, token = token + 1, acquired_at = (SELECT n FROM clk), expires_at = (SELECT n FROM clk) + $4::bigint
 WHERE name = $1::text AND slot = $2::integer AND expires_at <= (SELECT n FROM clk);

-- name: lease_slot_renew
WITH {{CLK}}
UPDATE lq_lease_slot
   SET expires_at = (SELECT n FROM clk) + $5::bigint
 WHERE name = $1::text AND slot = $2::integer AND owner = $3::text AND token = $4::bigint
   AND expires_at > (SELECT n FROM clk);

-- name: lease_slot_release
WITH {{CLK}}
UPDATE lq_lease_slot
   SET owner = NULL, expires_at = (SELECT n FROM clk)
 WHERE name = $1::text AND slot = $2::integer AND owner = $3::text AND token = $4::bigint;

-- name: lease_slot_break
-- Every slot of the name, readers and intent included: token + 1.
WITH {{CLK}}
UPDATE lq_lease_slot
   SET owner = NULL, token = token + 1, expires_at = (SELECT n FROM clk)
 WHERE name = $1::text;

-- name: lease_rw_state
-- (highest reader slot, live readers, the live intent's owner or NULL)
WITH {{CLK}}
SELECT COALESCE(MAX(CASE WHEN slot > 0 THEN slot END), 0),
       COALESCE(SUM(CASE WHEN slot > 0 AND owner IS NOT NULL AND expires_at > (SELECT n FROM clk) THEN 1 ELSE 0 END), 0),
       MAX(CASE WHEN slot = -1 AND owner IS NOT NULL AND expires_at > (SELECT n FROM clk) THEN owner END)
  FROM lq_lease_slot WHERE name = $1::text;

-- name: lease_read_purge
-- Readers gone (released, expired or broken) leave their slot numbers free.
WITH {{CLK}}
DELETE FROM lq_lease_slot
 WHERE name = $1::text AND slot > 0 AND (owner IS NULL OR expires_at <= (SELECT n FROM clk));

-- name: lease_read_insert
WITH {{CLK}}
INSERT INTO lq_lease_slot (name, slot, owner, token, acquired_at, expires_at)
SELECT $1::text, $2::integer, $3::text, $4::bigint, n, COALESCE($5::bigint, n + $6::bigint)
  FROM clk;

-- name: lease_read_extend
-- A reader joins or renews: the group lasts as long as its latest reader.
WITH {{CLK}}
UPDATE lq_lease
   SET expires_at = GREATEST(expires_at, (SELECT n FROM clk) + $4::bigint)
 WHERE name = $1::text AND owner = $2::text AND token = $3::bigint AND expires_at > (SELECT n FROM clk);

-- name: lease_read_shrink
-- After a reader left: the group lasts until its latest remaining reader,
-- or ends now (owner NULL) when none remains.
WITH {{CLK}}
UPDATE lq_lease
   SET owner = CASE WHEN EXISTS (SELECT 1 FROM lq_lease_slot s WHERE s.name = $1::text AND s.slot > 0 AND s.owner IS NOT NULL AND s.expires_at > (SELECT n FROM clk))
                    THEN owner ELSE NULL END,
       expires_at = COALESCE((SELECT MAX(s.expires_at) FROM lq_lease_slot s WHERE s.name = $1::text AND s.slot > 0 AND s.owner IS NOT NULL AND s.expires_at > (SELECT n FROM clk)), (SELECT n FROM clk))
 WHERE name = $1::text AND owner = $2::text AND token = $3::bigint;

-- name: lease_promote
-- The only reader becomes the writer, keeping its expiry; token + 1.
WITH {{CLK}}
UPDATE lq_lease
   SET owner = $4::text, token = token + 1, acquired_at = (SELECT n FROM clk),
       expires_at = (SELECT s.expires_at FROM lq_lease_slot s WHERE s.name = $1::text AND s.slot = $5::integer)
 WHERE name = $1::text AND owner = $2::text AND token = $3::bigint AND expires_at > (SELECT n FROM clk);

-- name: lease_demote
-- The writer's row passes to the readers' group (the writer becomes its one
-- reader), keeping its expiry; token + 1.
WITH {{CLK}}
UPDATE lq_lease
   SET owner = $4::text, token = token + 1
 WHERE name = $1::text AND owner = $2::text AND token = $3::bigint AND expires_at > (SELECT n FROM clk);

-- name: lease_intent_set
-- A waiting writer's intent (slot -1) keeps new readers out until it
-- expires, unless another writer's intent is live.
WITH {{CLK}}
INSERT INTO lq_lease_slot AS s (name, slot, owner, token, acquired_at, expires_at)
SELECT $1::text, -1, $2::text, 0, n, n + $3::bigint
  FROM clk
 WHERE true
ON CONFLICT (name, slot) DO UPDATE
   SET owner = excluded.owner, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
 WHERE s.expires_at <= excluded.acquired_at OR s.owner = excluded.owner;

-- name: lease_intent_clear
WITH {{CLK}}
UPDATE lq_lease_slot
   SET owner = NULL, expires_at = (SELECT n FROM clk)
 WHERE name = $1::text AND slot = -1 AND owner = $2::text;
