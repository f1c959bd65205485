-- Pruning old dead tasks (PostgreSQL), in bounded batches: each statement
-- removes at most $3 rows, oldest first, so no statement holds many locks.

-- name: task_dead_prune
DELETE FROM lq_task_dead WHERE id IN (
    SELECT id FROM lq_task_dead
     WHERE died_at < {{NOW}} - $1::bigint
       AND ($2::text IS NULL OR queue = $2::text)
     ORDER BY died_at, id
     LIMIT $3::bigint);

-- name: task_dead_prune_count
SELECT count(*) FROM lq_task_dead
 WHERE died_at < {{NOW}} - $1::bigint
   AND ($2::text IS NULL OR queue = $2::text);

-- name: run_prune
-- The oldest runs first, found on lq_run_ended.
DELETE FROM lq_run WHERE id IN (
    SELECT id FROM lq_run
     WHERE ended_at < {{NOW}} - $1::bigint
       AND ($2::text IS NULL OR queue = $2::text)
     ORDER BY ended_at, id
     LIMIT $3::bigint);

-- name: run_prune_count
SELECT count(*) FROM lq_run
 WHERE ended_at < {{NOW}} - $1::bigint
   AND ($2::text IS NULL OR queue = $2::text);
