-- leaseq schema step 12 (MySQL/MariaDB): fair share across partitions
-- (tenants).  A task's partition ('' for none) and, per queue that uses
-- partitions, one row per partition with the stamp of its last claim: the
-- claim takes the due task of the least recently served partition.  A queue
-- without a row here claims as before.  lq_task_part: a partition's due
-- tasks of one priority in (run_at, id) order, one range each.  DDL
-- commits by itself: each statement is safe to run again.
ALTER TABLE lq_task ADD COLUMN IF NOT EXISTS part VARBINARY(255) NOT NULL DEFAULT '',
                    DROP INDEX IF EXISTS lq_task_part,
                    ADD INDEX lq_task_part (queue, part, priority, run_at, id);
CREATE TABLE IF NOT EXISTS lq_partition (
    queue  VARBINARY(255) NOT NULL,
    name   VARBINARY(255) NOT NULL,
    served BIGINT         NOT NULL DEFAULT 0,
    PRIMARY KEY (queue, name),
    INDEX lq_partition_served (queue, served, name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
