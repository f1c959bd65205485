-- leaseq schema step 1 (MySQL/MariaDB): leases.
-- One DDL statement per file: MySQL commits DDL implicitly, so every step
-- must be safe to run again.  Times are epoch milliseconds on the database
-- clock.  Names are VARBINARY: compared byte for byte ('a', 'a ' and 'A'
-- are three leases).
CREATE TABLE IF NOT EXISTS lq_lease (
    name        VARBINARY(255) NOT NULL PRIMARY KEY,
    owner       VARBINARY(255),             -- NULL when free
    token       BIGINT         NOT NULL,    -- fencing token, never reset
    acquired_at BIGINT         NOT NULL,
    expires_at  BIGINT         NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
