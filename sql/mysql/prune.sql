-- Pruning old dead tasks (MySQL/MariaDB), in bounded batches: each statement
-- removes at most ?3 rows, oldest first, so no statement holds many locks.

-- name: task_dead_prune
DELETE FROM lq_task_dead
 WHERE died_at < {{NOW}} - ?1
   AND (?2 IS NULL OR queue = ?2)
 ORDER BY died_at, id
 LIMIT ?3;

-- name: task_dead_prune_count
SELECT count(*) FROM lq_task_dead
 WHERE died_at < {{NOW}} - ?1
   AND (?2 IS NULL OR queue = ?2);

-- name: run_prune
-- The oldest runs first, found on lq_run_ended.
DELETE FROM lq_run
 WHERE ended_at < {{NOW}} - ?1
   AND (?2 IS NULL OR queue = ?2)
 ORDER BY ended_at, id
 LIMIT ?3;

-- name: run_prune_count
SELECT count(*) FROM lq_run
 WHERE ended_at < {{NOW}} - ?1
   AND (?2 IS NULL OR queue = ?2);
