-- leaseq schema, version 1 (SQLite).
-- Times are epoch milliseconds on the database clock.  Names are TEXT with
-- SQLite's default BINARY collation, so they compare byte for byte.

CREATE TABLE lq_lease (
    name        TEXT    NOT NULL PRIMARY KEY,
    owner       TEXT,                       -- NULL when free
    token       INTEGER NOT NULL,           -- fencing token, never reset
    acquired_at INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
);

CREATE TABLE lq_task (
    id           INTEGER PRIMARY KEY AUTOINCREMENT, -- ids are never reused
    queue        TEXT    NOT NULL DEFAULT 'default',
    name         TEXT    NOT NULL,
    payload      BLOB,
    run_at       INTEGER NOT NULL DEFAULT (CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)),
    attempts     INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL DEFAULT 3,
    unique_key   TEXT,
    claim_owner  TEXT,
    claim_until  INTEGER,
    every_ms     INTEGER,
    cron         TEXT,
    tz           TEXT,
    missed       INTEGER NOT NULL DEFAULT 0,  -- 0 once, 1 skip
    paused       INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT,
    created_at   INTEGER NOT NULL DEFAULT (CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER))
);
-- A due-task claim walks this index from the left: O(log n) however many
-- tasks wait in the future.
CREATE INDEX lq_task_due ON lq_task (queue, run_at, id);
CREATE UNIQUE INDEX lq_task_unique ON lq_task (unique_key);

CREATE TABLE lq_task_dead (
    id           INTEGER PRIMARY KEY,
    queue        TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    payload      BLOB,
    run_at       INTEGER NOT NULL,
    attempts     INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    unique_key   TEXT,
    every_ms     INTEGER,
    cron         TEXT,
    tz           TEXT,
    missed       INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT,
    created_at   INTEGER NOT NULL,
    died_at      INTEGER NOT NULL
);
CREATE INDEX lq_task_dead_queue ON lq_task_dead (queue, id);

CREATE TABLE lq_queue (
    name   TEXT    NOT NULL PRIMARY KEY,
    paused INTEGER NOT NULL DEFAULT 0
);
