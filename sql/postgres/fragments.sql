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
