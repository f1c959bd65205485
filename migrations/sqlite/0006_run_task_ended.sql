-- leaseq schema step 6 (SQLite): a task's runs are read newest ended_at
-- first (run_list_task), like the whole history: the at-most-once rows kept
-- back are written after runs that ended later, so ids do not follow
-- ended_at.  lq_run_task in that order: the newest runs of a task (the
-- dashboard's last run of each schedule) are read, not all of them sorted.
DROP INDEX IF EXISTS lq_run_task;
CREATE INDEX lq_run_task ON lq_run (task_id, ended_at, id);
