-- leaseq schema step 18 (MySQL/MariaDB): a cap counts its key's live
-- claims through lq_task_claimkey, which holds the key of the claimed
-- tasks alone.  lq_task_ckey held every keyed task, and the count names
-- its key by an outer column (the limit row's), so MariaDB looked it up by
-- the key alone and filtered claim_until in passing: every waiting task of
-- the key on every claim, twice (20 011 index entries for a key with 20 000
-- due tasks; test_backend_mysql: test_cap_count_reads_claims).  MariaDB
-- has no partial index: claim_key, the key while the task is claimed and
-- NULL otherwise, is a virtual column, and its index keeps the entries of
-- the claimed tasks under their key.
-- DDL commits by itself: each statement is safe to run again.
ALTER TABLE lq_task ADD COLUMN IF NOT EXISTS claim_key VARBINARY(255)
                        AS (IF(claim_owner IS NULL, NULL, concurrency_key)) VIRTUAL,
                    ADD INDEX IF NOT EXISTS lq_task_claimkey (claim_key, claim_until);
ALTER TABLE lq_task DROP INDEX IF EXISTS lq_task_ckey;
