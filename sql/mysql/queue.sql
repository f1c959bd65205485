-- Queues (MySQL/MariaDB).  A queue exists while it has tasks or a row in lq_queue.

-- name: queue_set_paused
-- ?2 again rather than VALUES(paused), which MySQL 8.0.20+ deprecates.
INSERT INTO lq_queue (name, paused) VALUES (?1, ?2)
ON DUPLICATE KEY UPDATE paused = ?2;

-- name: queue_list
SELECT q.name,
       COALESCE((SELECT paused FROM lq_queue WHERE lq_queue.name = q.name), 0),
       (SELECT count(*) FROM lq_task t WHERE t.queue = q.name),
       (SELECT count(*) FROM lq_task t
         WHERE t.queue = q.name AND t.run_at <= {{NOW}} AND t.paused = 0
           AND (t.claim_until IS NULL OR t.claim_until <= {{NOW}})),
       (SELECT count(*) FROM lq_task_dead d WHERE d.queue = q.name),
       (SELECT MIN(run_at) FROM lq_task t WHERE t.queue = q.name AND t.paused = 0)
  FROM (SELECT queue AS name FROM lq_task
        UNION SELECT queue FROM lq_task_dead
        UNION SELECT name FROM lq_queue) AS q
 ORDER BY q.name;

-- name: queue_next_due
-- First claimable task in run_at order: an index walk, not a scan.
SELECT (SELECT run_at FROM lq_task
         WHERE queue = ?1 AND paused = 0
           AND ({{CLAIM_FREE}})
           AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?1 AND lq_queue.paused = 1)
         ORDER BY run_at LIMIT 1),
       {{NOW}};

-- name: tick_probe
-- The cheap path of a tick: is the runner lease held, is anything due?
SELECT COALESCE((SELECT expires_at > {{NOW}}
                   FROM lq_lease WHERE name = ?1), 0),
       EXISTS (SELECT 1 FROM lq_task
                WHERE queue = ?2 AND run_at <= {{NOW}} AND paused = 0
                  AND ({{CLAIM_FREE}})
                  AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = ?2 AND lq_queue.paused = 1));

-- name: queue_names
-- Every queue, by name, without reading every task: GROUP BY on the leading
-- column of lq_task_due / lq_task_dead_queue is a loose index scan (one
-- probe per queue).  (A recursive skip scan would scan here: MariaDB does
-- not range-scan on a correlated bound.)
SELECT queue FROM lq_task GROUP BY queue
UNION SELECT queue FROM lq_task_dead GROUP BY queue
UNION SELECT name FROM lq_queue
ORDER BY 1;

-- name: queue_gauges
-- One queue's counts, each capped at ?2 rows read (an index range that
-- stops there), and its next due time: a walk of lq_task_due in run_at
-- order that stops at the first unpaused task (MIN() with the paused
-- filter would read the whole queue).
SELECT COALESCE((SELECT paused FROM lq_queue WHERE name = ?1), 0),
       (SELECT count(*) FROM (SELECT 1 FROM lq_task WHERE queue = ?1 LIMIT ?2) t),
       (SELECT count(*) FROM (SELECT 1 FROM lq_task
                               WHERE queue = ?1 AND run_at <= {{NOW}} AND paused = 0
                                 AND ({{CLAIM_FREE}})
                               LIMIT ?2) t),
       (SELECT count(*) FROM (SELECT 1 FROM lq_task_dead WHERE queue = ?1 LIMIT ?2) t),
       (SELECT run_at FROM lq_task WHERE queue = ?1 AND paused = 0 ORDER BY run_at LIMIT 1);
