-- Fragments (PostgreSQL): text written once here, put in place of {{NAME}}
-- in every statement of this dialect at build time (see cmake/sqlembed.c).

-- NOW: the database clock in epoch milliseconds, from clock_timestamp()
-- (now() is the start of the transaction).
-- fragment: NOW
(extract(epoch FROM clock_timestamp()) * 1000)::bigint

-- CLK: a statement that uses NOW more than once computes it once, in this
-- CTE (WITH {{CLK}}), and reads it as the scalar subquery (SELECT n FROM clk):
-- an uncorrelated InitPlan, so every comparison in the statement sees the
-- same instant and it can still be an index condition (a volatile function
-- call cannot).
-- fragment: CLK
clk(n) AS (SELECT {{NOW}})

-- CLAIM_FREE: the task is unclaimed or its claim has expired, by the clk
-- instant.
-- fragment: CLAIM_FREE
claim_until IS NULL OR claim_until <= (SELECT n FROM clk)

-- CLAIM_FREE_T, CLAIM_FREE_D: the same test of the rows of a statement's
-- "t" (a task) and "d" (a due candidate) aliases.
-- fragment: CLAIM_FREE_T
t.claim_until IS NULL OR t.claim_until <= (SELECT n FROM clk)

-- fragment: CLAIM_FREE_D
d.claim_until IS NULL OR d.claim_until <= (SELECT n FROM clk)

-- PART_DUE_X: alias x (a task in a partition's head probe) is due,
-- unpaused and unclaimed or its claim expired, by the clk instant: the
-- fair claim's filter.
-- fragment: PART_DUE_X
x.run_at <= (SELECT n FROM clk) AND x.paused = 0 AND (x.claim_until IS NULL OR x.claim_until <= (SELECT n FROM clk))

-- FAIR_HEADS: the CTEs top and heads of the one-statement fair claims
-- ($1 queue, $2 limit): the top due priority (read once), then the due
-- tasks of that priority to claim, locked (skipping what another claimer
-- holds), in turns (pos).  One task ($2 = 1): the head (run_at, id) of the
-- least recently served partition (lq_partition_served), and the nested
-- loop stops at the first partition that has one.  A batch: every
-- partition's first $2 / partitions (rounded up), then every one's first,
-- second... by least recently served, at most $2.
-- fragment: FAIR_HEADS
top AS MATERIALIZED (SELECT x.priority FROM lq_task x
                      WHERE x.queue = $1::text AND {{PART_DUE_X}}
                      ORDER BY x.priority DESC LIMIT 1),
heads AS (
  (SELECT h.id, p.name, 1::bigint AS pos
     FROM lq_partition p
    CROSS JOIN LATERAL (SELECT x.id FROM lq_task x
                         WHERE x.queue = $1::text AND x.part = p.name
                           AND x.priority = (SELECT priority FROM top)
                           AND {{PART_DUE_X}}
                         ORDER BY x.run_at, x.id LIMIT 1
                           FOR UPDATE SKIP LOCKED) h
    WHERE p.queue = $1::text AND $2::bigint = 1
      AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $1::text AND lq_queue.paused = 1)
    ORDER BY p.served, p.name
    LIMIT 1)
  UNION ALL
  (SELECT b.id, b.name, row_number() OVER (ORDER BY b.rn, b.served, b.name) AS pos
     FROM (SELECT h.id, p.name, p.served,
                  row_number() OVER (PARTITION BY p.name ORDER BY h.run_at, h.id) AS rn
             FROM lq_partition p
            CROSS JOIN LATERAL (SELECT x.id, x.run_at FROM lq_task x
                                 WHERE x.queue = $1::text AND x.part = p.name
                                   AND x.priority = (SELECT priority FROM top)
                                   AND {{PART_DUE_X}}
                                 ORDER BY x.run_at, x.id
                                 LIMIT (SELECT ($2::bigint + count(*) - 1) / GREATEST(count(*), 1)
                                          FROM lq_partition c WHERE c.queue = $1::text)
                                   FOR UPDATE SKIP LOCKED) h
            WHERE p.queue = $1::text AND $2::bigint > 1
              AND NOT EXISTS (SELECT 1 FROM lq_queue WHERE lq_queue.name = $1::text
                                                       AND lq_queue.paused = 1)) b
    ORDER BY b.rn, b.served, b.name
    LIMIT $2::bigint))

-- FAIR_SERVED: the CTE that stamps the partitions a fair claim served (its
-- CTEs heads and gone): after the highest stamp, by the turn of each one's
-- last task, written in name order.
-- fragment: FAIR_SERVED
served AS (
  INSERT INTO lq_partition (queue, name, served)
  SELECT $1::text, h.name,
         (SELECT COALESCE(max(s.served), 0) FROM lq_partition s WHERE s.queue = $1::text) + max(h.pos)
    FROM heads h JOIN gone g ON g.id = h.id
   GROUP BY h.name
   ORDER BY h.name
  ON CONFLICT (queue, name) DO UPDATE SET served = GREATEST(lq_partition.served, excluded.served))
