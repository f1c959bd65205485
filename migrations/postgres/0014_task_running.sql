-- leaseq schema step 14 (PostgreSQL): at-most-once runs that can be
-- cancelled.  An at-most-once claim deletes its task; a claim that asks
-- for it (LQ_AT_MOST_ONCE_CANCELLABLE) writes this row in the same
-- transaction, so that lq_task_cancel still finds the run.  The worker's
-- heartbeat keeps claim_until ahead; the run's end deletes the row; a
-- cancel deletes it (and the worker hears "cancelled").  A crashed
-- worker's row stays until claim_until, then is swept: it never runs the
-- task again.
CREATE TABLE lq_task_running (
    task_id     bigint NOT NULL PRIMARY KEY,
    claim_owner text COLLATE "C" NOT NULL,
    claim_until bigint NOT NULL,
    queue       text COLLATE "C" NOT NULL,
    name        text COLLATE "C" NOT NULL,
    run_at      bigint NOT NULL,
    attempts    integer NOT NULL,           -- the task's before this run
    started_at  bigint NOT NULL             -- the claim's database clock
);
CREATE INDEX lq_task_running_until ON lq_task_running (claim_until);
