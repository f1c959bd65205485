-- Schema bookkeeping and the clock (SQLite).
-- NOW is the database clock, {{NOW}} in fragments.sql.

-- name: db_now
SELECT {{NOW}};

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
VALUES (?1, ?2, {{NOW}});

-- name: migrate_lock
-- The migration runs in a BEGIN IMMEDIATE transaction: that is the lock.
SELECT 1;

-- name: migrate_unlock
SELECT 1;
