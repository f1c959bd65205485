-- leaseq schema step 5 (PostgreSQL): shared leases.
-- One row per holder slot of a shared lease: slot 0..N-1 of a semaphore
-- (the name's lq_lease row is then a header that no exclusive acquire can
-- take), slot >= 1 a reader of a read/write lease (its lq_lease row is held
-- by the readers as a group), slot -1 a waiting writer's intent.  A slot row
-- is never deleted while its token matters, so tokens only grow per slot.
CREATE TABLE lq_lease_slot (
    name        text    COLLATE "C" NOT NULL,
    slot        integer NOT NULL,
    owner       text    COLLATE "C",         -- NULL when free
    token       bigint  NOT NULL,
    acquired_at bigint  NOT NULL,
    expires_at  bigint  NOT NULL,
    PRIMARY KEY (name, slot)
);
