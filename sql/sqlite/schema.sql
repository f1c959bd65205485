-- Schema bookkeeping and the clock (SQLite).
-- NOW is CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER):
-- julianday('now') is fixed for the whole statement, so every comparison in
-- one statement sees the same instant.

-- name: db_now
SELECT CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER);

-- name: schema_exists
SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'lq_schema';

-- name: schema_create
CREATE TABLE IF NOT EXISTS lq_schema (
    version    INTEGER NOT NULL PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at INTEGER NOT NULL
);

-- name: schema_version
SELECT COALESCE(MAX(version), 0) FROM lq_schema;

-- name: schema_record
INSERT INTO lq_schema (version, name, applied_at)
VALUES (?1, ?2, CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER));

-- name: migrate_lock
-- The migration runs in a BEGIN IMMEDIATE transaction: that is the lock.
SELECT 1;

-- name: migrate_unlock
SELECT 1;
