-- Queues (PostgreSQL).  A queue exists while it has tasks or a row in lq_queue.
-- NOW is (SELECT n FROM clk), see schema.sql.

-- name: queue_set_paused
INSERT INTO lq_queue (name, paused) VALUES ($1::text, $2::bigint)
ON CONFLICT (name) DO UPDATE SET paused = excluded.paused;

-- name: queue_list
WITH {{CLK}}
SELECT q.name,
       COALESCE((SELECT paused FROM lq_queue WHERE lq_queue.name = q.name), 0)::bigint,
       (SELECT count(*) FROM lq_task t WHERE t.queue = q.name)::bigint,
       (SELECT count(*) FROM lq_task t
         WHERE t.queue = q.name AND t.run_at <= (SELECT n FROM clk) AND t.paused = 0
           AND ({{CLAIM_FREE_T}}))::bigint,
       (SELECT count(*) FROM lq_task_dead d WHERE d.queue = q.name)::bigint,
       (SELECT MIN(run_at) FROM lq_task t WHERE t.queue = q.name AND t.paused = 0)::bigint
  FROM (SELECT queue AS name FROM lq_task
        UNION SELECT queue FROM lq_task_dead
        UNION SELECT name FROM lq_queue) AS q
 ORDER BY q.name;

-- name: queue_next_due
-- First claimable task in run_at order: an index walk on lq_task_due, not a scan.
WITH {{CLK}}
SELECT (SELECT run_at FROM lq_task
         WHERE queue = $1::text AND paused = 0
           AND ({{CLAIM_FREE}})
           AND NOT EXISTS (SELECT 1 FROM lq_queue
                            WHERE lq_queue.name = $1::text AND lq_queue.paused = 1)
         ORDER BY run_at LIMIT 1),
       (SELECT n FROM clk);

-- name: tick_probe
-- The cheap path of a tick: is the runner lease held, is anything due?
-- Two index probes (lq_lease primary key, lq_task_due); "first due task by
-- run_at" rather than EXISTS, which the planner may answer with a scan.
WITH {{CLK}}
SELECT COALESCE((SELECT (expires_at > (SELECT n FROM clk))::int
                   FROM lq_lease WHERE name = $1::text), 0)::bigint,
       ((SELECT run_at FROM lq_task
          WHERE queue = $2::text AND run_at <= (SELECT n FROM clk) AND paused = 0
            AND ({{CLAIM_FREE}})
            AND NOT EXISTS (SELECT 1 FROM lq_queue
                             WHERE lq_queue.name = $2::text AND lq_queue.paused = 1)
          ORDER BY run_at LIMIT 1) IS NOT NULL)::int::bigint;

-- name: queue_names
-- Every queue, by name, without reading every task: a skip scan that jumps
-- from one queue to the next on lq_task_due and lq_task_dead_queue.
WITH RECURSIVE
  tq(name) AS (SELECT (SELECT min(queue) FROM lq_task)
               UNION ALL
               SELECT (SELECT min(queue) FROM lq_task WHERE queue > tq.name) FROM tq WHERE tq.name IS NOT NULL),
  dq(name) AS (SELECT (SELECT min(queue) FROM lq_task_dead)
               UNION ALL
               SELECT (SELECT min(queue) FROM lq_task_dead WHERE queue > dq.name) FROM dq WHERE dq.name IS NOT NULL)
SELECT name FROM tq WHERE name IS NOT NULL
UNION SELECT name FROM dq WHERE name IS NOT NULL
UNION SELECT name FROM lq_queue
ORDER BY 1;

-- name: queue_gauges
-- One queue's counts, each capped at $2 rows read (an index range that
-- stops there), and its next due time: a walk of lq_task_due in run_at
-- order that stops at the first unpaused task (MIN() with the paused
-- filter would read the whole queue).
WITH {{CLK}}
SELECT COALESCE((SELECT paused FROM lq_queue WHERE name = $1::text), 0)::bigint,
       (SELECT count(*) FROM (SELECT 1 FROM lq_task WHERE queue = $1::text LIMIT $2::bigint) t)::bigint,
       (SELECT count(*) FROM (SELECT 1 FROM lq_task
                               WHERE queue = $1::text AND run_at <= (SELECT n FROM clk) AND paused = 0
                                 AND ({{CLAIM_FREE}})
                               LIMIT $2::bigint) t)::bigint,
       (SELECT count(*) FROM (SELECT 1 FROM lq_task_dead WHERE queue = $1::text LIMIT $2::bigint) t)::bigint,
       (SELECT run_at FROM lq_task WHERE queue = $1::text AND paused = 0 ORDER BY run_at LIMIT 1)::bigint;
