-- leaseq schema step 17 (MySQL/MariaDB): a dead task keeps its partition,
-- so a task revived from lq_task_dead takes its turn among its queue's
-- partitions as before.  DDL commits by itself: safe to run again.
ALTER TABLE lq_task_dead ADD COLUMN IF NOT EXISTS part VARBINARY(255) NOT NULL DEFAULT '';
