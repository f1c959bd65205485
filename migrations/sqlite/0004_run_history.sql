-- leaseq schema, version 4 (SQLite): the run history and the counters that
-- monitoring reads.
--
-- lq_run is a ledger of finished runs, one row per attempt that ended (done,
-- failed, timed_out or dead), written in the transaction that settles the
-- claim (at-least-once) or right after the run (at-most-once).  It is
-- bounded by age with "leasectl prune" (oldest first, by ended_at).
CREATE TABLE lq_run (
    id         INTEGER PRIMARY KEY,       -- increasing: newest last
    task_id    INTEGER NOT NULL,
    run_at     INTEGER NOT NULL,          -- due time of the occurrence that ran
    queue      TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    worker     TEXT    NOT NULL,          -- host:pid of the process that ran it
    attempt    INTEGER NOT NULL,
    started_at INTEGER NOT NULL,          -- when it was claimed
    ended_at   INTEGER NOT NULL,
    outcome    TEXT    NOT NULL,          -- done, failed, timed_out, dead
    error      TEXT
);
CREATE INDEX lq_run_task ON lq_run (task_id, id);
CREATE INDEX lq_run_ended ON lq_run (ended_at, id);

-- Monotonic counters (Prometheus counters), never pruned: run_<outcome> per
-- queue and task name (the lease counters are columns of lq_lease).  A
-- counter is the sum of its shards: concurrent writers spread over rows
-- instead of queueing on one.
CREATE TABLE lq_counter (
    metric TEXT    NOT NULL,
    queue  TEXT    NOT NULL,
    name   TEXT    NOT NULL,
    shard  INTEGER NOT NULL,
    n      INTEGER NOT NULL,
    PRIMARY KEY (metric, queue, name, shard)
) WITHOUT ROWID;

-- Counted in the statement that writes the run, so the counters and the
-- history can never disagree.
CREATE TRIGGER lq_run_counted AFTER INSERT ON lq_run
BEGIN
    INSERT INTO lq_counter (metric, queue, name, shard, n)
    VALUES ('run_' || NEW.outcome, NEW.queue, NEW.name, NEW.id % 8, 1)
    ON CONFLICT (metric, queue, name, shard) DO UPDATE SET n = n + 1;
END;

-- A lease taken while its previous owner still had it (expired in its
-- hands) was lost; a token bump that leaves no owner is a break.  Counted in
-- the lease's own row (a shared counter row would make transactions on two
-- leases wait on each other on the servers; kept alike here).  Renewals and
-- releases keep the token and count nothing.
ALTER TABLE lq_lease ADD COLUMN lost INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lq_lease ADD COLUMN broken INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER lq_lease_counted AFTER UPDATE OF token ON lq_lease
WHEN NEW.token > OLD.token AND (OLD.owner IS NOT NULL OR NEW.owner IS NULL)
BEGIN
    UPDATE lq_lease SET lost = lost + (NEW.owner IS NOT NULL), broken = broken + (NEW.owner IS NULL)
     WHERE name = NEW.name;
END;
