-- leaseq schema step 7 (MySQL/MariaDB): the run history and the counters
-- that monitoring reads.  DDL commits by itself, so every statement here is
-- safe to run again after a crash.
--
-- lq_run is a ledger of finished runs, one row per attempt that ended (done,
-- failed, timed_out or dead), written in the transaction that settles the
-- claim (at-least-once) or right after the run (at-most-once).  It is
-- bounded by age with "leasectl prune" (oldest first, by ended_at).
CREATE TABLE IF NOT EXISTS lq_run (
    id         BIGINT         NOT NULL AUTO_INCREMENT PRIMARY KEY,
    task_id    BIGINT         NOT NULL,
    run_at     BIGINT         NOT NULL,  -- due time of the occurrence that ran
    queue      VARBINARY(255) NOT NULL,
    name       VARBINARY(255) NOT NULL,
    worker     VARBINARY(255) NOT NULL,  -- host:pid of the process that ran it
    attempt    INT            NOT NULL,
    started_at BIGINT         NOT NULL,  -- when it was claimed
    ended_at   BIGINT         NOT NULL,
    outcome    VARBINARY(16)  NOT NULL,  -- done, failed, timed_out, dead
    error      TEXT CHARACTER SET utf8mb4,
    INDEX lq_run_task (task_id, id),
    INDEX lq_run_ended (ended_at, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Monotonic counters (Prometheus counters), never pruned: run_<outcome> per
-- queue and task name (the lease counters are columns of lq_lease).  A
-- counter is the sum of its shards: concurrent writers spread over rows
-- instead of queueing on one row lock.
CREATE TABLE IF NOT EXISTS lq_counter (
    metric VARBINARY(32)  NOT NULL,
    queue  VARBINARY(255) NOT NULL,
    name   VARBINARY(255) NOT NULL,
    shard  INT            NOT NULL,
    n      BIGINT         NOT NULL,
    PRIMARY KEY (metric, queue, name, shard)
) ENGINE=InnoDB;

-- Counted in the statement that writes the run, so the counters and the
-- history can never disagree.
CREATE OR REPLACE TRIGGER lq_run_counted AFTER INSERT ON lq_run FOR EACH ROW
    INSERT INTO lq_counter (metric, queue, name, shard, n)
    VALUES (CONCAT('run_', NEW.outcome), NEW.queue, NEW.name, NEW.id % 8, 1)
    ON DUPLICATE KEY UPDATE n = n + 1;

-- A lease taken while its previous owner still had it (expired in its
-- hands) was lost; a token bump that leaves no owner is a break.  Counted in
-- the lease's own row, which the statement has locked already: a shared
-- counter row would make two transactions that touch two leases wait on
-- each other (or deadlock).  Renewals and releases keep the token and add 0.
ALTER TABLE lq_lease ADD COLUMN IF NOT EXISTS lost BIGINT NOT NULL DEFAULT 0,
                     ADD COLUMN IF NOT EXISTS broken BIGINT NOT NULL DEFAULT 0;
CREATE OR REPLACE TRIGGER lq_lease_counted BEFORE UPDATE ON lq_lease FOR EACH ROW
    SET NEW.lost = OLD.lost + (NEW.token > OLD.token AND OLD.owner IS NOT NULL AND NEW.owner IS NOT NULL),
        NEW.broken = OLD.broken + (NEW.token > OLD.token AND NEW.owner IS NULL);

-- The at-least-once ack and its history row in one round trip and one
-- transaction (MariaDB cannot chain a DELETE into an INSERT in one
-- statement): the row is written only if the claim was still ours.  Result:
-- one row, acked 0|1.  Statements inside end with ';' at the start of the
-- next line, so the migration runner keeps the body whole.
CREATE OR REPLACE PROCEDURE lq_task_ack_run(IN p_id BIGINT, IN p_owner VARBINARY(255),
                                            IN p_worker VARBINARY(255), IN p_started BIGINT)
    MODIFIES SQL DATA
BEGIN
    DECLARE n INT DEFAULT 0
    ; DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END
    ; START TRANSACTION
    ; INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome)
      SELECT id, run_at, queue, name, p_worker, attempts, p_started,
             CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED), 'done'
        FROM lq_task WHERE id = p_id AND claim_owner = p_owner
    ; IF ROW_COUNT() = 1 THEN
          DELETE FROM lq_task WHERE id = p_id AND claim_owner = p_owner
          ; SET n = ROW_COUNT()
          ; IF n <> 1 THEN ROLLBACK; SET n = 0; END IF
      ; END IF
    ; COMMIT
    ; SELECT n
; END;
