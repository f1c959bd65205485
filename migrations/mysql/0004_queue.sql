-- leaseq schema step 4 (MySQL/MariaDB): per-queue settings.  A queue exists
-- while it has tasks or a row here.
CREATE TABLE IF NOT EXISTS lq_queue (
    name   VARBINARY(255) NOT NULL PRIMARY KEY,
    paused TINYINT        NOT NULL DEFAULT 0
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
