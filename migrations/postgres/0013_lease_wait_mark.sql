-- leaseq schema step 13 (PostgreSQL): lq_lease.wait_until, set by a
-- waiting acquirer to the end of its wait.  A release wakes the waiters
-- (NOTIFY) only while it is in the future: a NOTIFY takes a database-wide
-- lock from its commit to the end of the commit, so a release nobody waits
-- for must not send one.  A waiter that dies leaves a mark that runs out
-- on its own.
ALTER TABLE lq_lease ADD COLUMN wait_until bigint;
