-- leaseq schema step 12 (PostgreSQL): a running task's progress and a
-- run's result.  progress (0-100), progress_msg and progress_at are
-- reported under an at-least-once claim; progress_owner is that claim's
-- owner, so a reader shows only the progress of the claim that holds the
-- task now.  lq_run.result is what a successful run stored with its ack
-- (at most 64 KiB), kept and pruned with its run.
ALTER TABLE lq_task ADD COLUMN progress integer,
                    ADD COLUMN progress_msg text,
                    ADD COLUMN progress_at bigint,
                    ADD COLUMN progress_owner text;
ALTER TABLE lq_run ADD COLUMN result bytea;
