-- leaseq schema step 11 (MySQL/MariaDB): concurrency caps and rate limits.
-- DDL commits by itself: each statement is safe to run again.
-- concurrency_key: tasks that share a key share its lq_limit row.  A claim
-- of a limited task counts the live claims of its key (claim_owner set,
-- claim_until in the future) through lq_task_ckey, so a crashed worker's
-- claim stops counting when it expires.
ALTER TABLE lq_task ADD COLUMN IF NOT EXISTS concurrency_key VARBINARY(255),
                    ADD INDEX IF NOT EXISTS lq_task_ckey (concurrency_key, claim_until);
-- Dead tasks keep their key, so a retried one is limited as before.
ALTER TABLE lq_task_dead ADD COLUMN IF NOT EXISTS concurrency_key VARBINARY(255);
-- One row per limited key ("queue:Q" limits a whole queue).  concurrency:
-- at most that many live claims (NULL: no cap).  rate_n per rate_period_ms:
-- a GCRA whose theoretical arrival time is kept in tat, scaled by rate_n
-- (tat / rate_n ms), so that every step is exact integer arithmetic.
CREATE TABLE IF NOT EXISTS lq_limit (
    name           VARBINARY(255) NOT NULL PRIMARY KEY,
    concurrency    INT,
    rate_n         INT,
    rate_period_ms BIGINT,
    tat            BIGINT NOT NULL DEFAULT 0,
    updated_at     BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
