-- leaseq schema step 14 (SQLite): the indexes of unique_key and
-- alert_after_ms hold only the tasks that have one.  Most tasks have
-- neither, and every task added, claimed or acked wrote (or removed) an
-- entry with a NULL key in both: two b-tree writes of each task's seven.
-- PostgreSQL's lq_task_alert was partial from the start; the upserts of
-- unique keys name the index's predicate (ON CONFLICT (unique_key) WHERE
-- unique_key IS NOT NULL), as SQLite asks of a partial unique index.
DROP INDEX lq_task_unique;
CREATE UNIQUE INDEX lq_task_unique ON lq_task (unique_key) WHERE unique_key IS NOT NULL;
DROP INDEX lq_task_alert;
CREATE INDEX lq_task_alert ON lq_task (alert_after_ms) WHERE alert_after_ms IS NOT NULL;
