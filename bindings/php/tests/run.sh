#!/bin/sh
# bindings/php/tests/run.sh BACKEND - ext-leaseq's phpt suite on one backend,
# run by ctest (tests/CMakeLists.txt) in the phpize build directory
# LEASEQ_PHP_BUILD with php-src's run-tests.php.  LEASEQ_DSN is a fresh
# SQLite file, or LEASEQ_TEST_PG_DSN / LEASEQ_TEST_MYSQL_DSN; a missing
# server DSN skips (77), or fails when LEASEQ_REQUIRE_ALL_BACKENDS is set.
# Fails when a test fails, leaks or is borked, or when none passed.
set -eu
b=$1
: "${LEASEQ_PHP_BUILD:?the phpize build directory}"
T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-php.XXXXXX")
trap 'rm -rf "$T"' EXIT
case $b in
sqlite) dsn="sqlite:$T/php.db" ;;
postgres) dsn=${LEASEQ_TEST_PG_DSN:-} ;;
mysql) dsn=${LEASEQ_TEST_MYSQL_DSN:-} ;;
*) echo "run.sh: unknown backend $b" >&2; exit 2 ;;
esac
if [ -z "$dsn" ]; then
    if [ -n "${LEASEQ_REQUIRE_ALL_BACKENDS+x}" ]; then
        echo "not ok - no DSN for $b and LEASEQ_REQUIRE_ALL_BACKENDS is set"
        exit 1
    fi
    echo "# skipped: no DSN for $b"
    exit 77
fi
php=$("${LEASEQ_PHP_CONFIG:-php-config}" --php-binary)
cd "$LEASEQ_PHP_BUILD"
# run-tests.php writes its .php, .skip.php, .out and .diff files beside the
# tests: each backend's run gets its own copy, as ctest runs them at once.
cp -R tests "$T/tests"
rm -f "$T"/tests/*.diff "$T"/tests/*.out "$T"/tests/*.exp "$T"/tests/*.log "$T"/tests/*.php "$T"/tests/*.sh
status=0
LEASEQ_DSN=$dsn LEASEQ_PHP_EXT=$PWD/modules/leaseq.so TEST_PHP_EXECUTABLE=$php NO_INTERACTION=1 REPORT_EXIT_STATUS=1 \
    "$php" -n run-tests.php -n -d "extension=$PWD/modules/leaseq.so" -q --show-diff "$T/tests" >"$T/out" 2>&1 ||
    status=$?
cat "$T/out"
passed=$(sed -n 's/^Tests passed *: *\([0-9]*\).*/\1/p' "$T/out")
if [ "$status" -ne 0 ]; then
    echo "not ok - phpt suite on $b (run-tests.php exited $status)"
    exit 1
fi
if [ "${passed:-0}" -eq 0 ]; then
    echo "not ok - no phpt test passed on $b"
    exit 1
fi
echo "ok - phpt suite on $b: $passed passed"
