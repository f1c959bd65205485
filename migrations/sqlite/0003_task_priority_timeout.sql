-- leaseq schema, version 3 (SQLite): task priorities and per-task timeouts.
-- priority: higher is claimed first (then run_at, then id); timeout_ms: how
-- long a handler may run (NULL: the worker's --timeout).  Dead tasks keep
-- both, so a retried task comes back as it was.
ALTER TABLE lq_task ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lq_task ADD COLUMN timeout_ms INTEGER;
ALTER TABLE lq_task_dead ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lq_task_dead ADD COLUMN timeout_ms INTEGER;
-- Claims walk this index from the left (highest priority, then earliest due).
-- lq_task_due stays for "when is the next task due" (tick, idle worker).
CREATE INDEX lq_task_claim ON lq_task (queue, priority DESC, run_at, id);
