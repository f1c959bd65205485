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

-- The mark that 0010_counted_inline reads: this step made no trigger.  Also
-- where an earlier run of the old step stopped part way (error 1419 at its
-- first trigger, on a server with binary logging) and left lq_counter
-- without it; not where that run made any of the old objects.
SET @lq_mark = IF(EXISTS (SELECT 1 FROM information_schema.triggers
                           WHERE trigger_schema = DATABASE()
                             AND trigger_name IN ('lq_run_counted', 'lq_lease_counted'))
                  OR EXISTS (SELECT 1 FROM information_schema.routines
                              WHERE routine_schema = DATABASE() AND routine_name = 'lq_task_ack_run'),
                  'DO 0', 'ALTER TABLE lq_counter COMMENT = ''leaseq: counted by the statements, no trigger''');
PREPARE lq_mark FROM @lq_mark;
EXECUTE lq_mark;
DEALLOCATE PREPARE lq_mark;

-- Schema version 9 and earlier also created here a trigger counting each
-- lq_run insert, a trigger counting lost and broken leases, and a procedure
-- for the at-least-once ack.  A server with binary logging (managed MySQL,
-- Galera) refuses those from a user without SUPER (error 1419) unless
-- log_bin_trust_function_creators is on, so a fresh install stopped here:
-- this old step is edited, against the rule, so that it can pass.  The
-- statements of sql/mysql count now; 0010_counted_inline drops the three
-- objects where this step made them (a database whose lq_counter lacks the
-- mark above), so both paths end with one schema.

-- A lease taken while its previous owner still had it (expired in its
-- hands) was lost; a token bump that leaves no owner is a break.  Counted in
-- the lease's own row, by the statement that bumps the token (it has locked
-- the row already): a shared counter row would make two transactions that
-- touch two leases wait on each other (or deadlock).
ALTER TABLE lq_lease ADD COLUMN IF NOT EXISTS lost BIGINT NOT NULL DEFAULT 0,
                     ADD COLUMN IF NOT EXISTS broken BIGINT NOT NULL DEFAULT 0;
