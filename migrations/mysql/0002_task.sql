-- leaseq schema step 2 (MySQL/MariaDB): live tasks.
-- run_at and created_at default to now in epoch ms (MariaDB 10.2+ / MySQL
-- 8.0.13+ expression defaults), so an application can enqueue with a plain
--   INSERT INTO lq_task (queue, name, payload) VALUES (...)
-- The default reads UTC_TIMESTAMP, not NOW: the application's session may
-- run in a zone with DST, where UNIX_TIMESTAMP(NOW()) is an hour off in the
-- repeated hour of autumn.  (leaseq's own statements run in UTC.)
CREATE TABLE IF NOT EXISTS lq_task (
    id           BIGINT         NOT NULL AUTO_INCREMENT PRIMARY KEY,
    queue        VARBINARY(255) NOT NULL DEFAULT 'default',
    name         VARBINARY(255) NOT NULL,
    payload      LONGBLOB,
    run_at       BIGINT         NOT NULL DEFAULT (TIMESTAMPDIFF(MICROSECOND, TIMESTAMP '1970-01-01 00:00:00', UTC_TIMESTAMP(3)) DIV 1000),
    attempts     INT            NOT NULL DEFAULT 0,
    max_attempts INT            NOT NULL DEFAULT 3,
    unique_key   VARBINARY(255),
    claim_owner  VARBINARY(255),
    claim_until  BIGINT,
    every_ms     BIGINT,
    cron         VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    tz           VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    missed       TINYINT        NOT NULL DEFAULT 0,  -- 0 once, 1 skip
    paused       TINYINT        NOT NULL DEFAULT 0,
    last_error   TEXT CHARACTER SET utf8mb4,
    created_at   BIGINT         NOT NULL DEFAULT (TIMESTAMPDIFF(MICROSECOND, TIMESTAMP '1970-01-01 00:00:00', UTC_TIMESTAMP(3)) DIV 1000),
    -- A due-task claim walks this index from the left: O(log n) however
    -- many tasks wait in the future.
    INDEX lq_task_due (queue, run_at, id),
    UNIQUE KEY lq_task_unique (unique_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
