-- Fragments (SQLite): text written once here, put in place of {{NAME}} in
-- every statement of this dialect at build time (see cmake/sqlembed.c).

-- NOW: the database clock in epoch milliseconds.  julianday('now') is fixed
-- for the whole statement, so every comparison in one statement sees the
-- same instant.
-- fragment: NOW
CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)

-- CLAIM_FREE: the task is unclaimed or its claim has expired.
-- fragment: CLAIM_FREE
claim_until IS NULL OR claim_until <= {{NOW}}

-- PART_DUE_X: alias x (a task in a partition's head probe) is due,
-- unpaused and unclaimed or its claim expired: the fair claim's filter.
-- fragment: PART_DUE_X
x.run_at <= {{NOW}} AND x.paused = 0 AND (x.claim_until IS NULL OR x.claim_until <= {{NOW}})
