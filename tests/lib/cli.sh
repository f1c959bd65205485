# shellcheck shell=bash
# tests/lib/cli.sh - helpers shared by the leasectl acceptance tests
# tests/cli_*.sh; sourced by them after `set -euo pipefail` (not executed on
# its own, and not a test: ctest picks up tests/cli_*.sh only).
#
#   source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"
#   cli_args "$@"      BACKEND (sqlite|postgres|mysql) and $LEASECTL, else exit 64 / 1
#   cli_setup NAME     $T (removed on exit), $DSN, $PASSWORD, $RUN_ID
#   begin; run ARGS...; want_rc 0; ...; end "description"
#   finish             the plan line and the tally; exit 1 if any check failed
#   wait_or_kill PID S RC = PID's exit status, or "timeout" (then killed)
#
# Backends:
#   sqlite    a database file NAME.db in the temporary directory $T
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# A missing DSN skips (exit 77), or fails when LEASEQ_REQUIRE_ALL_BACKENDS is set.
#
# Output: one "ok - ..." / "not ok - ..." line per check, "1..N" at the end.

CLI_SCRIPT=${0##*/} # the test script, for messages

# ------------------------------------------------------------------ arguments and setup
# cli_args BACKEND: sets $backend and $dsn_var (the variable that holds the
# server DSN); checks that $LEASECTL is the leasectl binary.
cli_args() {
    backend=${1:-}
    case "$backend" in
    sqlite) dsn_var="" ;;
    postgres) dsn_var=LEASEQ_TEST_PG_DSN ;;
    mysql) dsn_var=LEASEQ_TEST_MYSQL_DSN ;;
    *)
        echo "usage: $CLI_SCRIPT sqlite|postgres|mysql (with LEASECTL=path/to/leasectl)" >&2
        exit 64
        ;;
    esac
    if [[ -z "${LEASECTL:-}" || ! -x "${LEASECTL}" ]]; then
        echo "not ok - LEASECTL must name the leasectl binary (got '${LEASECTL:-}')"
        exit 1
    fi
}

# skip_or_fail REASON: exit 77, or 1 when LEASEQ_REQUIRE_ALL_BACKENDS is set.
skip_or_fail() {
    if [[ -n "${LEASEQ_REQUIRE_ALL_BACKENDS+x}" ]]; then
        echo "not ok - $1 and LEASEQ_REQUIRE_ALL_BACKENDS is set"
        exit 1
    fi
    echo "skipped: $1"
    exit 77
}

# On exit: the commands in cleanup_hooks run first, then every pid in bg_pids
# and child_pids is killed and $T removed.
bg_pids=()
child_pids=()
cleanup_hooks=()
cleanup() {
    local h p
    for h in "${cleanup_hooks[@]}"; do
        "$h" || true
    done
    for p in "${bg_pids[@]}" "${child_pids[@]}"; do
        kill -KILL "$p" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    rm -rf -- "$T"
}

# cli_setup NAME: the temporary directory $T (leaseq-NAME.XXXXXX), the traps,
# $DSN (skips or fails without one), $PASSWORD (the DSN's, never to be
# printed), LEASEQ_DSN unset, and $RUN_ID for names unique to this run.
cli_setup() {
    T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-$1.XXXXXX")
    trap cleanup EXIT
    trap 'echo "not ok - internal error in $CLI_SCRIPT at line $LINENO"' ERR

    if [[ $backend == sqlite ]]; then
        DSN="sqlite:$T/$1.db"
    else
        DSN=${!dsn_var:-}
        [[ -n "$DSN" ]] || skip_or_fail "$dsn_var is not set"
    fi
    PASSWORD=""
    if [[ "$DSN" =~ ^[a-z]+://[^:/@]*:([^@]*)@ ]]; then
        PASSWORD=${BASH_REMATCH[1]}
    fi
    unset LEASEQ_DSN

    # Server databases are shared with other tests and runs: every name a
    # test creates contains this.
    # shellcheck disable=SC2034 # used by the tests
    RUN_ID="$$_$(date +%s)_${RANDOM}"
}

TMO=60 # seconds any single leasectl call may take

# JSON is parsed with python3 when there is one (LEASEQ_TEST_NO_PYTHON=1 forces
# the grep fallback, to test it).
# py ARGS...: that python3, resolved once to the interpreter itself and run
# isolated without site (-I -S): a version manager's shim in PATH (pyenv's is
# a shell script) cost about 0.6 s of CPU a call, and the tests parse JSON
# thousands of times.
have_py=0
PYTHON=""
if [[ -z "${LEASEQ_TEST_NO_PYTHON:-}" ]] && command -v python3 >/dev/null 2>&1; then
    PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null || true)
    [[ -x "$PYTHON" ]] || PYTHON=$(command -v python3)
    have_py=1
fi
py() { "$PYTHON" -I -S "$@"; }

# ------------------------------------------------------------------ reporting
n=0
nfail=0
leaks=()
why=()
pass() {
    n=$((n + 1))
    printf 'ok - %s\n' "$1"
}
fail() { # DESC [DETAIL...]
    n=$((n + 1))
    nfail=$((nfail + 1))
    printf 'not ok - %s\n' "$1"
    shift
    local d
    for d in "$@"; do
        printf '#   %s\n' "$d"
    done
}
excerpt() { # FILE -> first lines, shortened
    if [[ -s "$1" ]]; then
        head -c 400 "$1" | head -n 4 | tr -d '\r' | sed 's/^/|/' | tr '\n' ' '
    else
        printf '(empty)'
    fi
}

# finish: the plan line and the tally; if a check failed, the commands in
# failure_hooks (to show logs, say), then exit 1.
failure_hooks=()
finish() {
    local h
    echo "1..$n"
    if [[ $nfail -gt 0 ]]; then
        echo "# $nfail of $n checks failed"
        for h in "${failure_hooks[@]}"; do
            "$h" || true
        done
        exit 1
    fi
    echo "# all $n checks passed"
}

# ------------------------------------------------------------------ checks
# A check: begin; want_...; end "description".  Each want_... adds a reason
# to $why when it does not hold; end passes the check if there is none.
begin() { why=(); }
end() {
    if [[ ${#why[@]} -eq 0 ]]; then
        pass "$1"
    else
        fail "$1" "${why[@]}" "command: ${LAST_CMD:-}" "stdout: $(excerpt "$T/out")" "stderr: $(excerpt "$T/err")"
    fi
}
want_rc() {
    [[ "$RC" == "$1" ]] || why+=("exit status $RC, expected $1")
}
want_rc_in() { # one of the given statuses
    local s
    for s in "$@"; do
        [[ "$RC" == "$s" ]] && return 0
    done
    why+=("exit status $RC, expected one of: $*")
}
lines_of() { # FILE -> number of lines (a last line without newline counts)
    if [[ -f "$1" ]]; then
        grep -c '' "$1" || true
    else
        echo 0
    fi
}
want_err_line() { # stderr: exactly one non-empty line
    local l
    l=$(lines_of "$T/err")
    if [[ "$l" != 1 ]] || ! grep -q '[^[:space:]]' "$T/err"; then
        why+=("stderr should be one line with a reason, has $l lines")
    fi
}
want_err() { # ERE, case-insensitive
    grep -q -i -E -- "$1" "$T/err" || why+=("stderr does not match /$1/")
}
want_out() {
    grep -q -i -E -- "$1" "$T/out" || why+=("stdout does not match /$1/")
}
want_out_fixed() {
    grep -q -F -- "$1" "$T/out" || why+=("stdout does not contain '$1'")
}
want_out_empty() {
    [[ ! -s "$T/out" ]] || why+=("stdout should be empty")
}
want() { # CONDITION-TEXT WHY: a test the caller already evaluated: want "$((a > b))" "why"
    [[ "$1" == 1 ]] || why+=("$2")
}

# ------------------------------------------------------------------ running leasectl
# run ARGS...: leasectl --db DSN ARGS..., stdin from /dev/null; sets RC and
# fills $T/out and $T/err.  run_raw is the same without --db.
run_raw() {
    LAST_CMD="leasectl $*"
    RC=0
    timeout -k 5 "$TMO" "$LEASECTL" "$@" <"${STDIN:-/dev/null}" >"$T/out" 2>"$T/err" || RC=$?
    check_leak
}
run() {
    run_raw --db "$DSN" "$@"
    LAST_CMD="leasectl --db DSN $*"
}
# check_leak: remembers $LAST_CMD in $leaks if its output has the password.
check_leak() {
    if [[ -n "$PASSWORD" ]] && grep -q -F -- "$PASSWORD" "$T/out" "$T/err"; then
        leaks+=("$LAST_CMD")
    fi
}

# bg NAME ARGS...: leasectl --db DSN ARGS... in the background, bounded by a
# timeout; its status lands in $T/NAME.rc, its pid in ${bg_pid[NAME]}.
# bg_wait NAME: wait, set RC, $T/out and $T/err.
declare -A bg_pid=()
bg() {
    local name=$1
    shift
    (
        rc=0
        timeout -k 5 "$TMO" "$LEASECTL" --db "$DSN" "$@" </dev/null >"$T/$name.out" 2>"$T/$name.err" || rc=$?
        echo "$rc" >"$T/$name.rc"
    ) &
    bg_pid[$name]=$!
    bg_pids+=("$!")
}
bg_wait() {
    wait "${bg_pid[$1]}" || true
    RC=$(cat "$T/$1.rc" 2>/dev/null || echo "none")
    cp "$T/$1.out" "$T/out" 2>/dev/null || : >"$T/out"
    cp "$T/$1.err" "$T/err" 2>/dev/null || : >"$T/err"
    LAST_CMD="(background $1)"
    check_leak
}

# ------------------------------------------------------------------ serve
# start_serve DSN [SERVE-ARGS]: `leasectl serve` on a free port in the
# background; PORT and spid set (a bounded wait for its listening line;
# status 1 when it did not come), standard error in $T/serve.err.
# stop_serve: SIGTERM to it (also at exit).
spid=""
stop_serve() { if [[ -n "$spid" ]]; then kill -TERM "$spid" 2>/dev/null || true; fi; }
start_serve() {
    local dsn=$1
    shift
    [[ " ${cleanup_hooks[*]} " == *" stop_serve "* ]] || cleanup_hooks+=(stop_serve)
    : >"$T/serve.err"
    "$LEASECTL" --db "$dsn" serve --listen 127.0.0.1:0 "$@" 2>"$T/serve.err" &
    spid=$!
    PORT=""
    for _ in $(seq 1 100); do
        PORT=$(sed -n 's#^serve: listening on http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$T/serve.err")
        [[ -n "$PORT" ]] && return 0
        kill -0 "$spid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# ------------------------------------------------------------------ JSON
# json_ok FILE: one JSON document.
json_ok() {
    if [[ $have_py -eq 1 ]]; then
        py -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null
    else
        local first last
        local squeezed
        squeezed=$(tr -d ' \t\r\n' <"$1")
        first=${squeezed:0:1}
        last=${squeezed: -1}
        [[ ( "$first" == "{" && "$last" == "}" ) || ( "$first" == "[" && "$last" == "]" ) ]]
    fi
}
# json_all FILE KEY: every value of KEY anywhere in the document, one a line
# (strings raw, null empty, booleans true/false).  Never fails.
json_all() {
    if [[ $have_py -eq 1 ]]; then
        py - "$1" "$2" <<'PY' 2>/dev/null || true
import json, sys
doc = json.load(open(sys.argv[1]))
key = sys.argv[2]
def walk(x):
    if isinstance(x, dict):
        if key in x:
            yield x[key]
        for v in x.values():
            if isinstance(v, (dict, list)):
                yield from walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v)
for v in walk(doc):
    if v is None:
        v = ""
    elif isinstance(v, bool):
        v = "true" if v else "false"
    elif isinstance(v, (dict, list)):
        v = json.dumps(v)
    print(str(v).replace("\n", "\\n"))
PY
    else
        { grep -o -E "\"$2\"[[:space:]]*:[[:space:]]*(\"([^\"\\\\]|\\\\.)*\"|-?[0-9]+|true|false|null)" "$1" || true; } |
            sed -E "s/^\"$2\"[[:space:]]*:[[:space:]]*//; s/^\"(.*)\"$/\\1/; s/^null$//"
    fi
}
json_get() { # FILE KEY: the first value of KEY (null empty)
    local v
    v=$(json_all "$1" "$2")
    printf '%s\n' "${v%%$'\n'*}"
}
# json_has FILE KEY VALUE: some KEY in the document has exactly VALUE.
json_has() {
    local v
    v=$(json_all "$1" "$2")
    grep -q -x -F -- "$3" <<<"$v"
}
# json_keys FILE KEY...: some object in the document has all the keys.
json_keys() {
    local f=$1
    shift
    if [[ $have_py -eq 1 ]]; then
        py - "$f" "$@" <<'EOF' 2>/dev/null
import json, sys
doc = json.load(open(sys.argv[1]))
keys = sys.argv[2:]
def walk(x):
    if isinstance(x, dict):
        yield x
        for v in x.values():
            yield from walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v)
sys.exit(0 if any(all(k in d for k in keys) for d in walk(doc)) else 1)
EOF
    else
        local k
        for k in "$@"; do
            grep -q "\"$k\"[[:space:]]*:" "$f" || return 1
        done
    fi
}
want_json() {
    json_ok "$T/out" || why+=("stdout is not one JSON document")
}
is_int() {
    [[ "$1" =~ ^[0-9]+$ ]]
}
# ids FILE: the "id" values in a JSON document (leasectl's task ids), sorted.
ids() {
    local v
    v=$(json_all "$1" id)
    grep -E '^[0-9]+$' <<<"$v" | sort -n || true
}
has_id() { # FILE ID
    local v
    v=$(ids "$1")
    grep -q -x -- "$2" <<<"$v"
}

# ------------------------------------------------------------------ odds and ends
# sq STRING: single-quoted for /bin/sh.
sq() {
    local s=${1//\'/\'\\\'\'}
    printf "'%s'" "$s"
}
ms_now() { # monotonic enough for durations: wall clock in ms
    date +%s%3N
}
wait_for_file() { # FILE SECONDS: until FILE is not empty
    local i=0 max=$(($2 * 10))
    while [[ ! -s "$1" ]]; do
        i=$((i + 1))
        [[ $i -le $max ]] || return 1
        sleep 0.1
    done
}
# wait_or_kill PID SECONDS [ON_HANG]: RC = the exit status of PID (a child
# of this shell), or "timeout" when it still runs after SECONDS: then
# ON_HANG PID runs first, if given (to note where it hangs), and PID is
# killed.
wait_or_kill() {
    local pid=$1 i
    for i in $(seq 1 $(($2 * 10))); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        [[ -z "${3:-}" ]] || "$3" "$pid"
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        RC=timeout
        return 0
    fi
    RC=0
    wait "$pid" 2>/dev/null || RC=$?
}
wait_for_line() { # FILE PATTERN SECONDS: until a line of FILE matches the ERE
    local i
    for i in $(seq 1 $(($3 * 10))); do
        grep -q -E -- "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# A DSN of this run's backend that nothing answers, with password $1 (for
# "unreachable" cases that also check the password is never printed).
unreachable_dsn() { # SECRET
    case $backend in
    sqlite) echo "sqlite:$T/no/such/dir/x.db" ;;
    postgres) echo "postgresql://lq:$1@127.0.0.1:1/x?connect_timeout=3" ;;
    mysql) echo "mysql://lq:$1@127.0.0.1:1/x" ;;
    esac
}
