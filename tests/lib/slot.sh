#!/bin/sh
# slot.sh SLOT COMMAND [ARGS...] - run one backend test in ctest slot SLOT.
#
# The tests of a database server take turns (ctest RESOURCE_LOCK): they
# share its tables, and some of them (LISTEN/NOTIFY, global counts) would
# see each other's work.  Two slots halve that queue: slot "b" runs in the
# server's second database, leaseq_test_b (created by tests/servers/*.sh),
# when LEASEQ_TEST_SLOTS=2 says the servers have it; otherwise both slots
# use the one database and only the turn-taking differs.  Slot "a" and
# SQLite run unchanged.
set -eu
slot=$1
shift
if [ "$slot" = b ] && [ "${LEASEQ_TEST_SLOTS:-1}" = 2 ]; then
	for var in LEASEQ_TEST_PG_DSN LEASEQ_TEST_MYSQL_DSN; do
		eval "dsn=\${$var:-}"
		case $dsn in
		*/leaseq_test) eval "$var=\${dsn}_b; export $var" ;;
		*/leaseq_test\?*) eval "$var=\$(printf '%s' \"\$dsn\" | sed 's#/leaseq_test?#/leaseq_test_b?#'); export $var" ;;
		esac
	done
fi
exec "$@"
