-- Health checks for "leasectl doctor" (SQLite).  Read-only.  The task
-- counts scan lq_task once each: doctor runs every few minutes, not per task.

-- name: health_counts
WITH n AS (SELECT {{NOW}} AS now)
SELECT c.cnt, COALESCE(n.now - c.oldest, 0), l.cnt, o.cnt, COALESCE(n.now - o.oldest, 0), d.cnt, n.now
  FROM n,
       (SELECT count(*) AS cnt, min(claim_until) AS oldest FROM lq_task, n
         WHERE claim_owner IS NOT NULL AND claim_until < n.now - ?1) c,
       (SELECT count(*) AS cnt FROM lq_lease, n WHERE owner IS NOT NULL AND expires_at < n.now - ?1) l,
       (SELECT count(*) AS cnt, min(t.run_at) AS oldest FROM lq_task t, n
         WHERE t.run_at < n.now - ?1 AND t.paused = 0
           AND (t.claim_owner IS NULL OR t.claim_until <= n.now)
           AND NOT EXISTS (SELECT 1 FROM lq_queue q WHERE q.name = t.queue AND q.paused <> 0)) o,
       (SELECT count(*) AS cnt FROM lq_task_dead) d;

-- name: health_indexes
SELECT name FROM sqlite_master
 WHERE type = 'index' AND tbl_name IN ('lq_lease', 'lq_task', 'lq_task_dead', 'lq_queue');

-- name: health_journal
-- columns: health_journal unchecked a PRAGMA, which has no select list to count (one: the mode)
PRAGMA journal_mode;
