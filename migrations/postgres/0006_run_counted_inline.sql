-- leaseq schema, version 6 (PostgreSQL): the run counters are counted by
-- the statements that write the run history (run_insert and task_ack_run in
-- sql/postgres/run.sql), no longer by a trigger: the same upsert of the same
-- shard in the same statement, so the history and the counters still cannot
-- disagree.  Why: with pgbench on a claim + ack cycle (leaseq's own
-- statements, 1 client), the history row cost 17 % with the plpgsql AFTER
-- trigger and 8 % with the upsert written in the statement, no more than the
-- row without any counter; calling the trigger was the cost, not counting.
DROP TRIGGER IF EXISTS lq_run_counted ON lq_run;
DROP FUNCTION IF EXISTS lq_run_counted();
