-- leaseq schema, version 6 (MySQL/MariaDB): task priorities and per-task
-- timeouts.  priority: higher is claimed first (then run_at, then id);
-- timeout_ms: how long a handler may run (NULL: the worker's --timeout).
-- DDL commits by itself: each statement is safe to run again.  Claims walk
-- lq_task_claim from the left (a descending key part: MariaDB 10.8+, MySQL
-- 8.0); lq_task_due stays for "when is the next task due".
ALTER TABLE lq_task ADD COLUMN IF NOT EXISTS priority INT NOT NULL DEFAULT 0,
                    ADD COLUMN IF NOT EXISTS timeout_ms BIGINT,
                    DROP INDEX IF EXISTS lq_task_claim,
                    ADD INDEX lq_task_claim (queue, priority DESC, run_at, id);
ALTER TABLE lq_task_dead ADD COLUMN IF NOT EXISTS priority INT NOT NULL DEFAULT 0,
                         ADD COLUMN IF NOT EXISTS timeout_ms BIGINT;
