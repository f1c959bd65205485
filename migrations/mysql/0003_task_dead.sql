-- leaseq schema step 3 (MySQL/MariaDB): tasks out of attempts, kept for
-- inspection and retry.
CREATE TABLE IF NOT EXISTS lq_task_dead (
    id           BIGINT         NOT NULL PRIMARY KEY,
    queue        VARBINARY(255) NOT NULL,
    name         VARBINARY(255) NOT NULL,
    payload      LONGBLOB,
    run_at       BIGINT         NOT NULL,
    attempts     INT            NOT NULL,
    max_attempts INT            NOT NULL,
    unique_key   VARBINARY(255),
    every_ms     BIGINT,
    cron         VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    tz           VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    missed       TINYINT        NOT NULL DEFAULT 0,
    last_error   TEXT CHARACTER SET utf8mb4,
    created_at   BIGINT         NOT NULL,
    died_at      BIGINT         NOT NULL,
    INDEX lq_task_dead_queue (queue, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
