-- Leases (MySQL/MariaDB).  Every write is conditional and checked by affected
-- rows (the connection sets CLIENT_FOUND_ROWS: matched rows), and every
-- successful write changes the row anyway (owner, token or expires_at).
-- NOW is the database clock, {{NOW}} in fragments.sql.
-- A statement that bumps lq_lease.token counts, in the same row, a lost
-- lease (the row had an owner and gets a new one) or a break (it gets
-- none); the owners given are never NULL.  The counting assignments come
-- first: MySQL assigns left to right, each seeing the ones before.
-- Not in this dialect (see lib/backend/sql_names.h):
-- absent: lease_release_notify no NOTIFY (LQ_CAP_NOTIFY): waiters poll
-- absent: lease_wait_mark no NOTIFY (LQ_CAP_NOTIFY): nothing to wake
-- absent: lease_acquire_free the upsert of lease_acquire returns a held row as it leaves it, at no cost

-- name: lease_acquire
-- Take the lease in one statement: insert it if absent, or take it over if
-- it has expired (token + 1: the fencing token never goes back, because the
-- row is never deleted).  MariaDB 10.5+ returns the row it leaves:
-- LEASE_COLS, then got = 1 when it carries our owner (it has a random part)
-- and this statement's time, so this statement took it.  MySQL has no
-- RETURNING: the backend cuts that clause off, and with CLIENT_FOUND_ROWS
-- the affected rows are 1 inserted or left as it was, 2 taken over; the
-- caller then reads the row, and it holds the lease only if the row carries
-- its owner.  The assignments run
-- left to right, each seeing the ones before, so expires_at, which every
-- condition reads, is assigned last (and lost, which reads the old owner,
-- first); NOW(3) is fixed for the statement.
INSERT INTO lq_lease (name, owner, token, acquired_at, expires_at)
VALUES (?1, ?2, 1, {{NOW}},
        {{NOW}} + ?3)
ON DUPLICATE KEY UPDATE
   lost = lost + (expires_at <= {{NOW}} AND owner IS NOT NULL),
   owner = IF(expires_at <= {{NOW}}, ?2, owner),
   token = IF(expires_at <= {{NOW}}, token + 1, token),
   acquired_at = IF(expires_at <= {{NOW}},
                    {{NOW}}, acquired_at),
   expires_at = IF(expires_at <= {{NOW}},
                   {{NOW}} + ?3, expires_at)
RETURNING name, owner, token, acquired_at, expires_at, {{NOW}},
          owner <=> ?2 AND acquired_at = {{NOW}};

-- name: lease_take
UPDATE lq_lease
   SET lost = lost + (owner IS NOT NULL), owner = ?2, token = token + 1,
       acquired_at = {{NOW}},
       expires_at = {{NOW}} + ?3
 WHERE name = ?1
   AND expires_at <= {{NOW}};

-- name: lease_get
SELECT name, owner, token, acquired_at, expires_at,
       {{NOW}}
  FROM lq_lease WHERE name = ?1;

-- name: lease_renew
-- columns: lease_renew 0 no RETURNING: lease.c reads the affected rows, then lease_get
UPDATE lq_lease
   SET expires_at = {{NOW}} + ?4
 WHERE name = ?1 AND owner = ?2 AND token = ?3
   AND expires_at > {{NOW}};

-- name: lease_release
UPDATE lq_lease
   SET owner = NULL,
       expires_at = {{NOW}}
 WHERE name = ?1 AND owner = ?2 AND token = ?3;

-- name: lease_break
-- The token moves on so that the old holder's renew and release fail.
UPDATE lq_lease
   SET broken = broken + 1, owner = NULL, token = token + 1,
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
VALUES (?1, ?2, 0, {{NOW}}, COALESCE(?3, {{NOW}}));

-- name: lease_lock
SELECT name, owner, token, acquired_at, expires_at, {{NOW}}
  FROM lq_lease WHERE name = ?1 FOR UPDATE;

-- name: lease_slot_get
SELECT name, owner, token, acquired_at, expires_at, {{NOW}}
  FROM lq_lease_slot WHERE name = ?1 AND slot = ?2;

-- name: lease_slot_scan
SELECT slot, expires_at, {{NOW}}
  FROM lq_lease_slot WHERE name = ?1 AND slot >= 0 AND slot < ?2 ORDER BY slot;

-- name: lease_slot_insert
-- A plain INSERT: a taken slot is ER_DUP_ENTRY, reported as 0 rows.
INSERT INTO lq_lease_slot (name, slot, owner, token, acquired_at, expires_at)
VALUES (?1, ?2, ?3, 1, {{NOW}}, {{NOW}} + ?4);

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
VALUES (?1, ?2, ?3, ?4, {{NOW}}, COALESCE(?5, {{NOW}} + ?6));

-- name: lease_read_extend
-- A reader joins or renews: the group lasts as long as its latest reader.
UPDATE lq_lease
   SET expires_at = GREATEST(expires_at, {{NOW}} + ?4)
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
   SET lost = lost + 1, owner = ?4, token = token + 1, acquired_at = {{NOW}},
       expires_at = (SELECT s.expires_at FROM lq_lease_slot s WHERE s.name = ?1 AND s.slot = ?5)
 WHERE name = ?1 AND owner = ?2 AND token = ?3 AND expires_at > {{NOW}};

-- name: lease_demote
-- The writer's row passes to the readers' group (the writer becomes its one
-- reader), keeping its expiry; token + 1.
UPDATE lq_lease
   SET lost = lost + 1, owner = ?4, token = token + 1
 WHERE name = ?1 AND owner = ?2 AND token = ?3 AND expires_at > {{NOW}};

-- name: lease_intent_set
-- A waiting writer's intent (slot -1) keeps new readers out until it
-- expires, unless another writer's intent is live.  owner is assigned first,
-- so expires_at's condition reads whether it became ours.
INSERT INTO lq_lease_slot (name, slot, owner, token, acquired_at, expires_at)
VALUES (?1, -1, ?2, 0, {{NOW}}, {{NOW}} + ?3)
ON DUPLICATE KEY UPDATE
   owner = IF(expires_at <= {{NOW}} OR owner = ?2, ?2, owner),
   expires_at = IF(owner = ?2, {{NOW}} + ?3, expires_at);

-- name: lease_intent_clear
UPDATE lq_lease_slot
   SET owner = NULL, expires_at = {{NOW}}
 WHERE name = ?1 AND slot = -1 AND owner = ?2;
