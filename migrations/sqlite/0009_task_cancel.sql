-- leaseq schema step 9 (SQLite): cancelled claims.  A task cancelled while
-- a worker runs it under an at-least-once claim leaves the queue at once;
-- this row remembers the revoked claim, so that the worker's next
-- heartbeat (and its ack or fail) hears "cancelled" rather than "lost".
-- Kept while the claim would have lasted; later cancels sweep it.
CREATE TABLE lq_task_cancel (
    task_id      INTEGER NOT NULL,
    claim_owner  TEXT    NOT NULL,
    claim_until  INTEGER NOT NULL,          -- the revoked claim's end
    cancelled_at INTEGER NOT NULL,
    reason       TEXT,
    PRIMARY KEY (task_id, claim_owner)
);
CREATE INDEX lq_task_cancel_until ON lq_task_cancel (claim_until);
