-- Schema bookkeeping and the clock (PostgreSQL).
-- NOW is the database clock, {{NOW}} in fragments.sql; statements that use
-- it more than once read it from the CTE {{CLK}} (see there).  Every
-- integer result is bigint.

-- name: db_now
SELECT {{NOW}};

-- name: schema_exists
SELECT (to_regclass('lq_schema') IS NOT NULL)::int::bigint;

-- name: schema_create
-- Under the migration lock, so concurrent first runs do not race on the
-- catalog (CREATE TABLE IF NOT EXISTS alone can fail with a unique
-- violation); re-taking it inside the migration transaction is harmless.
DO $$
BEGIN
    PERFORM pg_advisory_xact_lock(1818583411, 1);
    CREATE TABLE IF NOT EXISTS lq_schema (
        version    bigint NOT NULL PRIMARY KEY,
        name       text   NOT NULL,
        applied_at bigint NOT NULL
    );
END
$$;

-- name: schema_version
SELECT COALESCE(MAX(version), 0)::bigint FROM lq_schema;

-- name: schema_record
INSERT INTO lq_schema (version, name, applied_at)
VALUES ($1::bigint, $2::text, {{NOW}});

-- name: migrate_lock
-- Transaction-scoped (1818583411 is 'leas'): released by COMMIT or
-- ROLLBACK, and by the server if the connection drops.  Session-level
-- advisory locks are not used (they break behind transaction poolers).
SELECT 1::bigint FROM pg_advisory_xact_lock(1818583411, 1);

-- name: migrate_unlock
SELECT 1::bigint;
