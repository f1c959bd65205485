-- leaseq schema, version 4 (PostgreSQL): the run history and the counters
-- that monitoring reads.
--
-- lq_run is a ledger of finished runs, one row per attempt that ended (done,
-- failed, timed_out or dead), written in the statement or transaction that
-- settles the claim (at-least-once) or right after the run (at-most-once).
-- It is bounded by age with "leasectl prune" (oldest first, by ended_at).
CREATE TABLE lq_run (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    task_id    bigint NOT NULL,
    run_at     bigint NOT NULL,            -- due time of the occurrence that ran
    queue      text COLLATE "C" NOT NULL,
    name       text COLLATE "C" NOT NULL,
    worker     text COLLATE "C" NOT NULL,  -- host:pid of the process that ran it
    attempt    bigint NOT NULL,
    started_at bigint NOT NULL,            -- when it was claimed
    ended_at   bigint NOT NULL,
    outcome    text NOT NULL,              -- done, failed, timed_out, dead
    error      text
);
CREATE INDEX lq_run_task ON lq_run (task_id, id);
CREATE INDEX lq_run_ended ON lq_run (ended_at, id);

-- Monotonic counters (Prometheus counters), never pruned: run_<outcome> per
-- queue and task name (the lease counters are columns of lq_lease).  A
-- counter is the sum of its shards: concurrent writers spread over rows
-- instead of queueing on one row lock.
CREATE TABLE lq_counter (
    metric text NOT NULL,
    queue  text COLLATE "C" NOT NULL,
    name   text COLLATE "C" NOT NULL,
    shard  bigint NOT NULL,
    n      bigint NOT NULL,
    PRIMARY KEY (metric, queue, name, shard)
);

-- Counted in the statement that writes the run, so the counters and the
-- history can never disagree.
CREATE OR REPLACE FUNCTION lq_run_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO lq_counter (metric, queue, name, shard, n)
    VALUES ('run_' || NEW.outcome, NEW.queue, NEW.name, NEW.id % 8, 1)
    ON CONFLICT (metric, queue, name, shard) DO UPDATE SET n = lq_counter.n + 1;
    RETURN NULL;
END
$$;
CREATE TRIGGER lq_run_counted AFTER INSERT ON lq_run
    FOR EACH ROW EXECUTE FUNCTION lq_run_counted();

-- A lease taken while its previous owner still had it (expired in its
-- hands) was lost; a token bump that leaves no owner is a break.  Counted in
-- the lease's own row, which the statement has locked already: a shared
-- counter row would make two transactions that touch two leases wait on
-- each other (or deadlock).  Renewals and releases keep the token: the WHEN
-- clause skips them without calling the function.
ALTER TABLE lq_lease ADD COLUMN lost bigint NOT NULL DEFAULT 0,
                     ADD COLUMN broken bigint NOT NULL DEFAULT 0;
CREATE OR REPLACE FUNCTION lq_lease_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.owner IS NULL THEN
        NEW.broken := OLD.broken + 1;
    ELSE
        NEW.lost := OLD.lost + 1;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER lq_lease_counted BEFORE UPDATE OF token ON lq_lease
    FOR EACH ROW WHEN (NEW.token > OLD.token AND (OLD.owner IS NOT NULL OR NEW.owner IS NULL))
    EXECUTE FUNCTION lq_lease_counted();
