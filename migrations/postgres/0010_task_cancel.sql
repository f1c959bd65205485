-- leaseq schema step 10 (PostgreSQL): cancelled claims.  A task cancelled
-- while a worker runs it under an at-least-once claim leaves the queue at
-- once; this row remembers the revoked claim, so that the worker's next
-- heartbeat (and its ack or fail) hears "cancelled" rather than "lost".
-- Kept while the claim would have lasted; later cancels sweep it.
CREATE TABLE lq_task_cancel (
    task_id      bigint NOT NULL,
    claim_owner  text COLLATE "C" NOT NULL,
    claim_until  bigint NOT NULL,           -- the revoked claim's end
    cancelled_at bigint NOT NULL,
    reason       text,
    PRIMARY KEY (task_id, claim_owner)
);
CREATE INDEX lq_task_cancel_until ON lq_task_cancel (claim_until);
