-- leaseq schema, version 2 (PostgreSQL): prune finds old dead tasks by
-- died_at without scanning the table.
CREATE INDEX lq_task_dead_died_at ON lq_task_dead (died_at, id);
