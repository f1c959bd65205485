-- leaseq schema step 15 (PostgreSQL): a dead task keeps its partition, so
-- a task revived from lq_task_dead takes its turn among its queue's
-- partitions as before.
ALTER TABLE lq_task_dead ADD COLUMN part text COLLATE "C" NOT NULL DEFAULT '';
