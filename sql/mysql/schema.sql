-- Schema bookkeeping and the clock (MySQL/MariaDB).
-- NOW is the database clock, {{NOW}} in fragments.sql.

-- name: db_now
SELECT {{NOW}};

-- name: schema_exists
SELECT count(*) FROM information_schema.tables
 WHERE table_schema = DATABASE() AND table_name = 'lq_schema';

-- name: schema_create
CREATE TABLE IF NOT EXISTS lq_schema (
    version    INT          NOT NULL PRIMARY KEY,
    name       VARCHAR(255) NOT NULL,
    applied_at BIGINT       NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- name: schema_version
SELECT COALESCE(MAX(version), 0) FROM lq_schema;

-- name: schema_record
-- A concurrent migrator's duplicate is ER_DUP_ENTRY: the backend reports 0 rows.
INSERT INTO lq_schema (version, name, applied_at)
VALUES (?1, ?2, {{NOW}});

-- name: migrate_lock
-- DDL commits implicitly in MySQL, so a transaction cannot serialise
-- migrators: a named lock does (1 taken, 0 timed out after 60 s).
SELECT GET_LOCK('leaseq_migrate', 60);

-- name: migrate_unlock
-- GET_LOCK nests: the core may take it once per retried migration step and
-- release once, so release every level (leaseq holds no other named lock).
SELECT RELEASE_ALL_LOCKS();
