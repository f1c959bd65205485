-- leaseq schema step 17 (PostgreSQL): lq_task_ckey holds only the claimed
-- tasks that have a key, the rows a cap counts (claim_owner set).  With
-- every keyed task in it, the index grew with each task added and each
-- claim, and for a key whose waiting tasks were most of the table
-- PostgreSQL priced the count's range of claim_until > now above a scan of
-- lq_task and read the table on every capped claim: 8 ms a claim after a
-- few hundred thousand tasks had gone through, against 0.3 ms with this
-- index (test_backend_postgres: test_cap_count_reads_claims).  Every count
-- says claim_owner IS NOT NULL.  The index is built again under this
-- migration's lock, as in step 16.
DROP INDEX lq_task_ckey;
CREATE INDEX lq_task_ckey ON lq_task (concurrency_key, claim_until)
    WHERE concurrency_key IS NOT NULL AND claim_owner IS NOT NULL;
