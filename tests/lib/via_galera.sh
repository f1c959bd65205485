#!/bin/sh
# via_galera.sh one|spread PROGRAM [ARGS...] - run a MySQL test against the
# Galera cluster of tests/servers/galera.sh: LEASEQ_TEST_MYSQL_DSN becomes
# the first node of $LEASEQ_TEST_GALERA_DSNS (space-separated).  "spread"
# also sets LEASEQ_TEST_SPREAD_DSNS to the whole list: a race program's
# client i then opens node i mod n (tests/testutil.c), and tests that know
# the list use every node.  Unset: skipped (exit 77), or a failure when
# LEASEQ_REQUIRE_ALL_BACKENDS and LEASEQ_TEST_GALERA=1 are set.
mode=$1
shift
case $mode in
one | spread) ;;
*)
	echo "usage: via_galera.sh one|spread PROGRAM [ARGS...]" >&2
	exit 64
	;;
esac
if [ -z "${LEASEQ_TEST_GALERA_DSNS:-}" ]; then
	if [ -n "${LEASEQ_REQUIRE_ALL_BACKENDS+x}" ] && [ "${LEASEQ_TEST_GALERA:-}" = 1 ]; then
		echo "backend galera: LEASEQ_TEST_GALERA=1 but LEASEQ_TEST_GALERA_DSNS not set" >&2
		exit 1
	fi
	echo "skipped: backend galera: LEASEQ_TEST_GALERA_DSNS not set"
	exit 77
fi
# shellcheck disable=SC2086 # the list is split on purpose
set -- $LEASEQ_TEST_GALERA_DSNS -- "$@"
LEASEQ_TEST_MYSQL_DSN=$1
while [ "$1" != -- ]; do shift; done
shift
unset LEASEQ_TEST_SPREAD_DSNS
if [ "$mode" = spread ]; then
	LEASEQ_TEST_SPREAD_DSNS=$LEASEQ_TEST_GALERA_DSNS
	export LEASEQ_TEST_SPREAD_DSNS
fi
export LEASEQ_TEST_MYSQL_DSN
exec "$@"
