-- leaseq schema step 10 (SQLite): schedules operators can steer.
-- overlap: what an occurrence due while the previous one still runs does
-- (0 the default, 1 skip, 2 queue, 3 cancel-previous); catch_up: how many
-- missed occurrences run after downtime (NULL: by missed, once or skip);
-- alert_after_ms: the dead-man bound on the age of the last success;
-- last_success_at: when an occurrence last succeeded; next_at: the regular
-- occurrence an operator's run-now (or an edit under a live claim) set
-- aside, taken by the next move of run_at; preempt_at: under
-- cancel-previous, when the claimed occurrence's successor is due.
ALTER TABLE lq_task ADD COLUMN overlap INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lq_task ADD COLUMN catch_up INTEGER;
ALTER TABLE lq_task ADD COLUMN alert_after_ms INTEGER;
ALTER TABLE lq_task ADD COLUMN last_success_at INTEGER;
ALTER TABLE lq_task ADD COLUMN next_at INTEGER;
ALTER TABLE lq_task ADD COLUMN preempt_at INTEGER;
-- The dead-man check reads the schedules with a bound without a scan.
CREATE INDEX lq_task_alert ON lq_task (alert_after_ms);
