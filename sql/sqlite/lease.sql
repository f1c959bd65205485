-- Leases (SQLite).  Every write is conditional and checked by affected rows.
-- Not in this dialect (see lib/backend/sql_names.h):
-- absent: lease_release_notify no NOTIFY (LQ_CAP_NOTIFY): waiters poll
-- absent: lease_wait_mark no NOTIFY (LQ_CAP_NOTIFY): nothing to wake
-- absent: lease_acquire_free lease_acquire is that statement here: a held lease returns no row

-- name: lease_acquire
-- Take the lease in one statement: insert it if absent, or take it over if
-- it has expired (token + 1: the fencing token never goes back, because the
-- row is never deleted).  The row comes back (LEASE_COLS, got = 1) only when
-- this statement took it; a held lease returns nothing and the caller reads
-- it.  One autocommit statement: SQLite takes the write lock when it starts.
INSERT INTO lq_lease (name, owner, token, acquired_at, expires_at)
SELECT ?1, ?2, 1, n, n + ?3
  FROM (SELECT {{NOW}} AS n)
 WHERE true
ON CONFLICT (name) DO UPDATE
   SET owner = excluded.owner, token = token + 1,
       acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
 WHERE expires_at <= excluded.acquired_at
RETURNING name, owner, token, acquired_at, expires_at, acquired_at, 1;

-- name: lease_take
UPDATE lq_lease
   SET owner = ?2, token = token + 1,
       acquired_at = {{NOW}},
       expires_at = {{NOW}} + ?3
 WHERE name = ?1
   AND expires_at <= {{NOW}};

-- name: lease_get
SELECT name, owner, token, acquired_at, expires_at,
       {{NOW}}
  FROM lq_lease WHERE name = ?1;

-- name: lease_renew
UPDATE lq_lease
   SET expires_at = {{NOW}} + ?4
 WHERE name = ?1 AND owner = ?2 AND token = ?3
   AND expires_at > {{NOW}}
RETURNING expires_at, expires_at - ?4;

-- name: lease_release
UPDATE lq_lease
   SET owner = NULL,
       expires_at = {{NOW}}
 WHERE name = ?1 AND owner = ?2 AND token = ?3;

-- name: lease_break
-- The token moves on so that the old holder's renew and release fail.
UPDATE lq_lease
   SET owner = NULL, token = token + 1,
       expires_at = {{NOW}}
 WHERE name = ?1;

-- name: lease_list
-- (?1 name, or NULL for all) -> LEASE_COLS, then slot (NULL for the row
-- itself), and the lq_lease row's owner, token and expires_at: every
-- holder, a shared lease's live slots in place of its lq_lease row.
SELECT l.name, COALESCE(s.owner, l.owner), COALESCE(s.token, l.token),
       COALESCE(s.acquired_at, l.acquired_at), COALESCE(s.expires_at, l.expires_at), {{NOW}},
       s.slot, l.owner, l.token, l.expires_at
  FROM lq_lease l
  LEFT JOIN lq_lease_slot s
    ON s.name = l.name AND s.slot >= 0 AND s.owner IS NOT NULL AND s.expires_at > {{NOW}}
 WHERE ?1 IS NULL OR l.name = ?1
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
INSERT INTO lq_lease (name, owner, token, acquired_at, expires_at)
SELECT ?1, ?2, 0, n, COALESCE(?3, n)
  FROM (SELECT {{NOW}} AS n)
 WHERE true
ON CONFLICT (name) DO NOTHING;

-- name: lease_lock
-- BEGIN IMMEDIATE has locked the database already.
SELECT name, owner, token, acquired_at, expires_at, {{NOW}}
  FROM lq_lease WHERE name = ?1;

-- name: lease_slot_get
SELECT name, owner, token, acquired_at, expires_at, {{NOW}}
  FROM lq_lease_slot WHERE name = ?1 AND slot = ?2;

-- name: lease_slot_scan
SELECT slot, expires_at, {{NOW}}
  FROM lq_lease_slot WHERE name = ?1 AND slot >= 0 AND slot < ?2 ORDER BY slot;

-- name: lease_slot_insert
INSERT INTO lq_lease_slot (name, slot, owner, token, acquired_at, expires_at)
SELECT ?1, ?2, ?3, 1, n, n + ?4
  FROM (SELECT {{NOW}} AS n)
 WHERE true
ON CONFLICT (name, slot) DO NOTHING;

-- name: lease_slot_take
-- Take an expired slot: token + 1, so the fencing token grows per slot.
UPDATE lq_lease_slot
   SET owner = ?3, token = token + 1, acquired_at = {{NOW}}, expires_at = {{NOW}} + ?4
 WHERE name = ?1 AND slot = ?2 AND expires_at <= {{NOW}};

-- name: lease_slot_renew
UPDATE lq_lease_slot
   SET expires_at = {{NOW}} + ?5
 WHERE name = ?1 AND slot = ?2 AND owner = ?3 AND token = ?4
   AND expires_at > {{NOW}};

-- name: lease_slot_release
UPDATE lq_lease_slot
   SET owner = NULL, expires_at = {{NOW}}
 WHERE name = ?1 AND slot = ?2 AND owner = ?3 AND token = ?4;

-- name: lease_slot_break
-- Every slot of the name, readers and intent included: token + 1.
UPDATE lq_lease_slot
   SET owner = NULL, token = token + 1, expires_at = {{NOW}}
 WHERE name = ?1;

-- name: lease_rw_state
-- (highest reader slot, live readers, the live intent's owner or NULL)
SELECT COALESCE(MAX(CASE WHEN slot > 0 THEN slot END), 0),
       COALESCE(SUM(CASE WHEN slot > 0 AND owner IS NOT NULL AND expires_at > {{NOW}} THEN 1 ELSE 0 END), 0),
       MAX(CASE WHEN slot = -1 AND owner IS NOT NULL AND expires_at > {{NOW}} THEN owner END)
  FROM lq_lease_slot WHERE name = ?1;

-- name: lease_read_purge
-- Readers gone (released, expired or broken) leave their slot numbers free.
DELETE FROM lq_lease_slot
 WHERE name = ?1 AND slot > 0 AND (owner IS NULL OR expires_at <= {{NOW}});

-- name: lease_read_insert
INSERT INTO lq_lease_slot (name, slot, owner, token, acquired_at, expires_at)
SELECT ?1, ?2, ?3, ?4, n, COALESCE(?5, n + ?6)
  FROM (SELECT {{NOW}} AS n);

-- name: lease_read_extend
-- A reader joins or renews: the group lasts as long as its latest reader.
UPDATE lq_lease
   SET expires_at = MAX(expires_at, {{NOW}} + ?4)
 WHERE name = ?1 AND owner = ?2 AND token = ?3 AND expires_at > {{NOW}};

-- name: lease_read_shrink
-- After a reader left: the group lasts until its latest remaining reader,
-- or ends now (owner NULL) when none remains.
UPDATE lq_lease
   SET owner = CASE WHEN EXISTS (SELECT 1 FROM lq_lease_slot s WHERE s.name = ?1 AND s.slot > 0 AND s.owner IS NOT NULL AND s.expires_at > {{NOW}})
                    THEN owner ELSE NULL END,
       expires_at = COALESCE((SELECT MAX(s.expires_at) FROM lq_lease_slot s WHERE s.name = ?1 AND s.slot > 0 AND s.owner IS NOT NULL AND s.expires_at > {{NOW}}), {{NOW}})
 WHERE name = ?1 AND owner = ?2 AND token = ?3;

-- name: lease_promote
-- The only reader becomes the writer, keeping its expiry; token + 1.
UPDATE lq_lease
   SET owner = ?4, token = token + 1, acquired_at = {{NOW}},
       expires_at = (SELECT s.expires_at FROM lq_lease_slot s WHERE s.name = ?1 AND s.slot = ?5)
 WHERE name = ?1 AND owner = ?2 AND token = ?3 AND expires_at > {{NOW}};

-- name: lease_demote
-- The writer's row passes to the readers' group (the writer becomes its one
-- reader), keeping its expiry; token + 1.
UPDATE lq_lease
   SET owner = ?4, token = token + 1
 WHERE name = ?1 AND owner = ?2 AND token = ?3 AND expires_at > {{NOW}};

-- name: lease_intent_set
-- A waiting writer's intent (slot -1) keeps new readers out until it
-- expires, unless another writer's intent is live.
INSERT INTO lq_lease_slot AS s (name, slot, owner, token, acquired_at, expires_at)
SELECT ?1, -1, ?2, 0, n, n + ?3
  FROM (SELECT {{NOW}} AS n)
 WHERE true
ON CONFLICT (name, slot) DO UPDATE
   SET owner = excluded.owner, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
 WHERE s.expires_at <= excluded.acquired_at OR s.owner = excluded.owner;

-- name: lease_intent_clear
UPDATE lq_lease_slot
   SET owner = NULL, expires_at = {{NOW}}
 WHERE name = ?1 AND slot = -1 AND owner = ?2;
