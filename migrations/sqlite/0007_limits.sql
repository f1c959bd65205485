-- leaseq schema step 7 (SQLite): concurrency caps and rate limits.
-- concurrency_key: tasks that share a key share its lq_limit row.  A claim
-- of a limited task counts the live claims of its key (claim_owner set,
-- claim_until in the future) through lq_task_ckey, so a crashed worker's
-- claim stops counting when it expires; tasks without a key are not in
-- that index and pay nothing for it.
ALTER TABLE lq_task ADD COLUMN concurrency_key TEXT;
CREATE INDEX lq_task_ckey ON lq_task (concurrency_key, claim_until)
    WHERE concurrency_key IS NOT NULL;
-- Dead tasks keep their key, so a retried one is limited as before.
ALTER TABLE lq_task_dead ADD COLUMN concurrency_key TEXT;
-- One row per limited key ("queue:Q" limits a whole queue).  concurrency:
-- at most that many live claims (NULL: no cap).  rate_n per rate_period_ms:
-- a GCRA whose theoretical arrival time is kept in tat, scaled by rate_n
-- (tat / rate_n ms), so that every step is exact integer arithmetic.
CREATE TABLE lq_limit (
    name           TEXT    NOT NULL PRIMARY KEY,
    concurrency    INTEGER,
    rate_n         INTEGER,
    rate_period_ms INTEGER,
    tat            INTEGER NOT NULL DEFAULT 0,
    updated_at     INTEGER NOT NULL
);
