-- leaseq schema step 16 (PostgreSQL): lq_task_unique holds only the tasks
-- that have a unique key.  Most have none, and every task added, and every
-- claim (an UPDATE of an indexed column: a new entry in each index that
-- takes the row), wrote an entry with a NULL key there; without them a
-- one-task claim at one client runs 8 to 10 % faster.  The upserts name
-- the predicate (ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL) to
-- infer the index.  The index is built again under this migration's lock:
-- writes to lq_task wait for it (70 ms for a million tasks here).
DROP INDEX lq_task_unique;
CREATE UNIQUE INDEX lq_task_unique ON lq_task (unique_key) WHERE unique_key IS NOT NULL;
