-- leaseq schema step 15 (MySQL/MariaDB): a running task's progress and a
-- run's result.  progress (0-100), progress_msg and progress_at are
-- reported under an at-least-once claim; progress_owner is that claim's
-- owner, so a reader shows only the progress of the claim that holds the
-- task now.  lq_run.result is what a successful run stored with its ack
-- (at most 64 KiB: one byte more than a BLOB holds), kept and pruned with
-- its run.  One statement per table, each safe to run again (DDL commits
-- implicitly).
ALTER TABLE lq_task ADD COLUMN IF NOT EXISTS progress INT NULL,
                    ADD COLUMN IF NOT EXISTS progress_msg VARBINARY(200) NULL,
                    ADD COLUMN IF NOT EXISTS progress_at BIGINT NULL,
                    ADD COLUMN IF NOT EXISTS progress_owner VARBINARY(255) NULL;
ALTER TABLE lq_run ADD COLUMN IF NOT EXISTS result MEDIUMBLOB NULL;
