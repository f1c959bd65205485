-- leaseq schema step 16 (MySQL/MariaDB): at-most-once runs that can be
-- cancelled.  An at-most-once claim deletes its task; a claim that asks
-- for it (LQ_AT_MOST_ONCE_CANCELLABLE) writes this row in the same
-- transaction, so that lq_task_cancel still finds the run.  The worker's
-- heartbeat keeps claim_until ahead; the run's end deletes the row; a
-- cancel deletes it (and the worker hears "cancelled").  A crashed
-- worker's row stays until claim_until, then is swept: it never runs the
-- task again.
CREATE TABLE IF NOT EXISTS lq_task_running (
    task_id     BIGINT          NOT NULL,
    claim_owner VARBINARY(255)  NOT NULL,
    claim_until BIGINT          NOT NULL,
    queue       VARBINARY(255)  NOT NULL,
    name        VARBINARY(255)  NOT NULL,
    run_at      BIGINT          NOT NULL,
    attempts    INT             NOT NULL,  -- the task's before this run
    started_at  BIGINT          NOT NULL,  -- the claim's database clock
    PRIMARY KEY (task_id),
    KEY lq_task_running_until (claim_until)
) ENGINE=InnoDB;
