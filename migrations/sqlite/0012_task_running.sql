-- leaseq schema step 12 (SQLite): at-most-once runs that can be cancelled.
-- An at-most-once claim deletes its task; a claim that asks for it
-- (LQ_AT_MOST_ONCE_CANCELLABLE) writes this row in the same transaction,
-- so that lq_task_cancel still finds the run.  The worker's heartbeat
-- keeps claim_until ahead; the run's end deletes the row; a cancel
-- deletes it (and the worker hears "cancelled").  A crashed worker's row
-- stays until claim_until, then is swept: it never runs the task again.
CREATE TABLE lq_task_running (
    task_id     INTEGER NOT NULL PRIMARY KEY,
    claim_owner TEXT    NOT NULL,
    claim_until INTEGER NOT NULL,
    queue       TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    run_at      INTEGER NOT NULL,
    attempts    INTEGER NOT NULL,           -- the task's before this run
    started_at  INTEGER NOT NULL            -- the claim's database clock
);
CREATE INDEX lq_task_running_until ON lq_task_running (claim_until);
