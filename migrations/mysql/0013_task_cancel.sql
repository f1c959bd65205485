-- leaseq schema step 13 (MySQL/MariaDB): cancelled claims.  A task
-- cancelled while a worker runs it under an at-least-once claim leaves the
-- queue at once; this row remembers the revoked claim, so that the worker's
-- next heartbeat (and its ack or fail) hears "cancelled" rather than
-- "lost".  Kept while the claim would have lasted; later cancels sweep it.
CREATE TABLE IF NOT EXISTS lq_task_cancel (
    task_id      BIGINT          NOT NULL,
    claim_owner  VARBINARY(255)  NOT NULL,
    claim_until  BIGINT          NOT NULL,  -- the revoked claim's end
    cancelled_at BIGINT          NOT NULL,
    reason       TEXT CHARACTER SET utf8mb4,
    PRIMARY KEY (task_id, claim_owner),
    KEY lq_task_cancel_until (claim_until)
) ENGINE=InnoDB;
