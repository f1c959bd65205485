-- leaseq schema step 14 (MySQL/MariaDB): schedules operators can steer.
-- overlap: what an occurrence due while the previous one still runs does
-- (0 the default, 1 skip, 2 queue, 3 cancel-previous); catch_up: how many
-- missed occurrences run after downtime (NULL: by missed, once or skip);
-- alert_after_ms: the dead-man bound on the age of the last success;
-- last_success_at: when an occurrence last succeeded; next_at: the regular
-- occurrence an operator's run-now (or an edit under a live claim) set
-- aside, taken by the next move of run_at; preempt_at: under
-- cancel-previous, when the claimed occurrence's successor is due.
-- DDL commits by itself: the statement is safe to run again.
ALTER TABLE lq_task ADD COLUMN IF NOT EXISTS overlap INT NOT NULL DEFAULT 0,
                    ADD COLUMN IF NOT EXISTS catch_up INT,
                    ADD COLUMN IF NOT EXISTS alert_after_ms BIGINT,
                    ADD COLUMN IF NOT EXISTS last_success_at BIGINT,
                    ADD COLUMN IF NOT EXISTS next_at BIGINT,
                    ADD COLUMN IF NOT EXISTS preempt_at BIGINT;
-- The dead-man check reads the schedules with a bound without a scan.
ALTER TABLE lq_task DROP INDEX IF EXISTS lq_task_alert, ADD INDEX lq_task_alert (alert_after_ms);
