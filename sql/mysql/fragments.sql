-- Fragments (MySQL/MariaDB): text written once here, put in place of
-- {{NAME}} in every statement of this dialect at build time (see
-- cmake/sqlembed.c).

-- NOW: the database clock in epoch milliseconds.  The session runs with
-- time_zone '+00:00' and NOW(3) is fixed for the whole statement, so every
-- comparison in one statement sees the same instant and indexes stay usable.
-- fragment: NOW
CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)

-- CLAIM_FREE: the task is unclaimed or its claim has expired.
-- fragment: CLAIM_FREE
claim_until IS NULL OR claim_until <= {{NOW}}

-- PART_DUE_X: alias x (a task in a partition's head probe) is due,
-- unpaused and unclaimed or its claim expired: the fair claim's filter.
-- fragment: PART_DUE_X
x.run_at <= {{NOW}} AND x.paused = 0 AND (x.claim_until IS NULL OR x.claim_until <= {{NOW}})

-- PART_DUE_D: the same test of alias d (the top due priority's probe).
-- fragment: PART_DUE_D
d.run_at <= {{NOW}} AND d.paused = 0 AND (d.claim_until IS NULL OR d.claim_until <= {{NOW}})
