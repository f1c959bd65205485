#!/usr/bin/env bash
# tests/check_header.sh - lib/leaseq.h compiles alone, as the first and only
# include of a file: as C99 with -pedantic and every warning an error, as
# C11, and as C++ (C++11 and C++17), and its designated-initialiser option
# macros work in C.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-header.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
cc=${CC:-cc}
cxx=${CXX:-c++}
cat >"$T/alone.c" <<'C'
#include "leaseq.h"
int main(void)
{
	lq_task_opts t = LQ_TASK_OPTS_INIT;
	lq_lease_opts l = LQ_LEASE_OPTS_INIT;
	lq_run_filter f = LQ_RUN_FILTER_INIT;
	lq_runner_opts r = LQ_RUNNER_OPTS_INIT;
	return (int)(t.version + l.version + f.version + r.version) - 4;
}
C
cat >"$T/alone.cpp" <<'C'
#include "leaseq.h"
int main() { return lq_status_is_error(LQ_OK); }
C
try() { # WHAT COMMAND...
    local what=$1
    shift
    if "$@" >"$T/out" 2>&1; then
        echo "ok - leaseq.h alone: $what"
    else
        echo "not ok - leaseq.h alone: $what:"
        sed 's/^/#   /' "$T/out" | head -n 20
        fail=1
    fi
}
for std in c99 c11; do
    try "$cc -std=$std -pedantic" "$cc" -std=$std -pedantic -Wall -Wextra -Werror -I"$src/lib" -c "$T/alone.c" -o "$T/c.o"
done
if command -v "$cxx" >/dev/null; then
    for std in c++11 c++17; do
        try "$cxx -std=$std -pedantic" "$cxx" -std=$std -pedantic -Wall -Wextra -Werror -I"$src/lib" -c "$T/alone.cpp" -o "$T/cxx.o"
    done
else
    echo "not ok - no C++ compiler ($cxx): apt-get install g++"
    fail=1
fi
exit $fail
