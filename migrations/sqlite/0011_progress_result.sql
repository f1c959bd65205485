-- leaseq schema step 11 (SQLite): a running task's progress and a run's
-- result.  progress (0-100), progress_msg and progress_at are reported
-- under an at-least-once claim; progress_owner is that claim's owner, so a
-- reader shows only the progress of the claim that holds the task now.
-- lq_run.result is what a successful run stored with its ack (at most
-- 64 KiB), kept and pruned with its run.
ALTER TABLE lq_task ADD COLUMN progress INTEGER;
ALTER TABLE lq_task ADD COLUMN progress_msg TEXT;
ALTER TABLE lq_task ADD COLUMN progress_at INTEGER;
ALTER TABLE lq_task ADD COLUMN progress_owner TEXT;
ALTER TABLE lq_run ADD COLUMN result BLOB;
