-- leaseq schema step 8 (MySQL/MariaDB): shared leases.  One DDL statement,
-- safe to run again.  One row per holder slot of a shared lease: slot
-- 0..N-1 of a semaphore (the name's lq_lease row is then a header that no
-- exclusive acquire can take), slot >= 1 a reader of a read/write lease (its
-- lq_lease row is held by the readers as a group), slot -1 a waiting
-- writer's intent.  Tokens only grow per slot.
CREATE TABLE IF NOT EXISTS lq_lease_slot (
    name        VARBINARY(255) NOT NULL,
    slot        INT            NOT NULL,
    owner       VARBINARY(255),             -- NULL when free
    token       BIGINT         NOT NULL,
    acquired_at BIGINT         NOT NULL,
    expires_at  BIGINT         NOT NULL,
    PRIMARY KEY (name, slot)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
