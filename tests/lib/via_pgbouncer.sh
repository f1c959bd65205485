#!/bin/sh
# via_pgbouncer.sh PROGRAM [ARGS...] - run a PostgreSQL test through
# PgBouncer: the program's LEASEQ_TEST_PG_DSN becomes
# $LEASEQ_TEST_PGBOUNCER_DSN (tests/servers/pgbouncer.sh prints it).  Unset:
# skipped (exit 77), or a failure when LEASEQ_REQUIRE_ALL_BACKENDS is set.
# The fault suite runs the scenarios in LEASEQ_PGBOUNCER_FAULT_ONLY (default
# a,d,h: kill -9, connection kills, exec; the server crash scenario would
# restart a private server with no pooler in front).
if [ -z "${LEASEQ_TEST_PGBOUNCER_DSN:-}" ]; then
	if [ -n "${LEASEQ_REQUIRE_ALL_BACKENDS+x}" ]; then
		echo "backend pgbouncer: LEASEQ_TEST_PGBOUNCER_DSN not set" >&2
		exit 1
	fi
	echo "skipped: backend pgbouncer: LEASEQ_TEST_PGBOUNCER_DSN not set"
	exit 77
fi
LEASEQ_TEST_PG_DSN=$LEASEQ_TEST_PGBOUNCER_DSN
LEASEQ_FAULT_ONLY=${LEASEQ_PGBOUNCER_FAULT_ONLY:-a,d,h}
export LEASEQ_TEST_PG_DSN LEASEQ_FAULT_ONLY
exec "$@"
