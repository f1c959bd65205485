-- leaseq schema step 8 (SQLite): fair share across partitions (tenants).
-- A task's partition ('' for none) and, per queue that uses partitions,
-- one row per partition with the stamp of its last claim: the claim takes
-- the due task of the least recently served partition.  A queue without a
-- row here claims as before.  lq_task_part: a partition's due tasks of one
-- priority in (run_at, id) order, one range each.
ALTER TABLE lq_task ADD COLUMN part TEXT NOT NULL DEFAULT '';
CREATE INDEX lq_task_part ON lq_task (queue, part, priority, run_at, id);
CREATE TABLE lq_partition (
    queue  TEXT    NOT NULL,
    name   TEXT    NOT NULL,
    served INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (queue, name)
);
CREATE INDEX lq_partition_served ON lq_partition (queue, served, name);
