#!/usr/bin/env bash
# tests/cli_deadline.sh BACKEND - every wait on the database is bounded and a
# stop request ends it (a stuck server must not hang a worker for good).
# Run by ctest as
# `bash tests/cli_deadline.sh <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    a writer holds BEGIN IMMEDIATE in the sqlite3 shell
#   postgres  a PRIVATE server (tests/servers/postgres.sh; the test changes
#             server-wide settings): first synchronous_standby_names naming a
#             standby that does not exist, so every COMMIT waits forever;
#             then another session holding ACCESS EXCLUSIVE on lq_task
#   mysql     $LEASEQ_TEST_MYSQL_DSN; another session holds
#             LOCK TABLES lq_task WRITE (only this run's database)
#
# Checks outcomes only: a blocked call ends (within the generous $TMO) with a
# one-line error; a worker blocked that way ends after SIGTERM; once the
# blocker is gone the tasks run.  No latency is asserted.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

pgdir=""
stop_pg() {
    if [[ -n "$pgdir" ]]; then
        sh "$here/servers/postgres.sh" stop "$pgdir" >/dev/null 2>&1 || true
        rm -rf -- "$pgdir"
    fi
}
cleanup_hooks+=(stop_pg)

if [[ $backend == postgres ]]; then
    # Server-wide settings: never on a shared server.
    if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
        LEASEQ_TEST_PG_DSN="" # cli_setup skips, or fails under LEASEQ_REQUIRE_ALL_BACKENDS
    else
        # Outside $T: postgres.sh hands the directory to the postgres user.
        pgdir=$(mktemp -d /tmp/leaseq-deadline-pg.XXXXXX)
        trap stop_pg EXIT
        line=$(sh "$here/servers/postgres.sh" start "$pgdir" | tail -n 1) || {
            echo "not ok - could not start a private PostgreSQL server"
            exit 1
        }
        LEASEQ_TEST_PG_DSN=${line#LEASEQ_TEST_PG_DSN=}
    fi
fi
cli_setup deadline

echo "# bounded waits: backend $backend"

# ------------------------------------------------------------------ helpers
blocker_pid=""
reader_pid=""
stop_blocker() {
    if [[ -n "$blocker_pid" ]]; then
        kill -TERM "$blocker_pid" 2>/dev/null || true
        wait "$blocker_pid" 2>/dev/null || true
        blocker_pid=""
    fi
    if [[ -n "$reader_pid" ]]; then
        kill -TERM "$reader_pid" 2>/dev/null || true
        wait "$reader_pid" 2>/dev/null || true
        reader_pid=""
    fi
}
cleanup_hooks=(stop_blocker "${cleanup_hooks[@]}")

# admin SQL...: run SQL on the server as an administrator (postgres: the
# private server's superuser over TCP).
pg_admin() {
    local port=${DSN##*:}
    port=${port%%/*}
    PGPASSWORD=$(cat "$pgdir/superuser.pw") PGCONNECT_TIMEOUT=10 \
        timeout 60 psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d leaseq_test "$@"
}
mysql_args() { # from $DSN: mysql://user:pass@host:port/db
    [[ "$DSN" =~ ^[a-z]+://([^:@/]*):?([^@]*)@([^:/]*):?([0-9]*)/([^?]*) ]] || return 1
    MY_ARGS=(-u "${BASH_REMATCH[1]}" -h "${BASH_REMATCH[3]}" -P "${BASH_REMATCH[4]:-3306}" "${BASH_REMATCH[5]}")
    MY_PW=${BASH_REMATCH[2]}
}

# hold SQL: keep a session open that ran SQL, until stop_blocker.  Waits
# until the statement has run (a marker row is printed).
hold() {
    local fifo=$T/hold.fifo marker=$T/hold.out
    rm -f "$fifo" "$marker"
    mkfifo "$fifo"
    case $backend in
    sqlite)
        sqlite3 "${DSN#sqlite:}" <"$fifo" >"$marker" 2>&1 &
        ;;
    postgres)
        pg_admin <"$fifo" >"$marker" 2>&1 &
        ;;
    mysql)
        MYSQL_PWD=$MY_PW mysql -N --unbuffered "${MY_ARGS[@]}" <"$fifo" >"$marker" 2>&1 &
        ;;
    esac
    reader_pid=$!
    child_pids+=("$reader_pid")
    # The writer (sleep) keeps the fifo, and so the session, open until killed.
    { printf '%s\nSELECT 4242;\n' "$1"; exec sleep 300; } >"$fifo" &
    blocker_pid=$!
    child_pids+=("$blocker_pid")
    for _ in $(seq 1 100); do
        grep -q 4242 "$marker" 2>/dev/null && return 0
        sleep 0.2
    done
    echo "# blocker did not start: $(excerpt "$marker")"
    return 1
}

# worker_blocked_then_term DESC: a worker that is blocked on the database ends
# after SIGTERM, with a one-line error or a clean stop.
worker_blocked_then_term() {
    begin
    bg wk worker --queue "$Q" --handler "*=true"
    sleep 3 # let it reach the blocked statement (not a latency assertion)
    local pid="" p
    # bg runs: subshell -> timeout -> leasectl
    for p in $(pgrep -f -- "worker --queue $Q --handler" || true); do
        [[ "$(cat "/proc/$p/comm" 2>/dev/null)" == leasectl ]] && pid=$p
    done
    if [[ -n "$pid" ]]; then
        kill -TERM "$pid"
    else
        why+=("the worker had already ended before SIGTERM")
    fi
    bg_wait wk
    [[ "$RC" != 124 && "$RC" != 137 ]] || why+=("the worker was still running $TMO s after SIGTERM (status $RC)")
    [[ "$RC" == none ]] && why+=("no status")
    if [[ "$RC" != 0 ]]; then
        want_err_line
    fi
    echo "# status $RC: $(head -c 300 "$T/err")"
    end "$1"
}

# ------------------------------------------------------------------ setup
run migrate
begin
want_rc 0
end "migrate"

Q="dl${RUN_ID}"
for i in 1 2 3; do
    run task add "job$i" --queue "$Q"
done
begin
want_rc 0
end "enqueue three tasks"

# ------------------------------------------------------------------ per backend
case $backend in
sqlite)
    hold "BEGIN IMMEDIATE; INSERT INTO lq_queue(queue, paused) VALUES ('x$RUN_ID', 0);"
    begin
    run task add blocked --queue "$Q"
    want_rc_in 1 69 75
    want_err_line
    want_err 'busy|locked|timed out'
    echo "# status $RC: $(head -c 300 "$T/err")"
    end "task add behind a writer holding the file ends with a one-line error"
    worker_blocked_then_term "a worker waiting for the SQLite lock ends after SIGTERM"
    stop_blocker
    ;;
postgres)
    # 1. synchronous_standby_names names a standby that is gone: COMMITs wait.
    pg_admin -c "ALTER ROLE leaseq SET synchronous_commit = on" \
        -c "ALTER SYSTEM SET synchronous_standby_names = 'gone'" -c "SELECT pg_reload_conf()" >/dev/null
    sleep 1
    begin
    RC=0
    timeout -k 5 "$TMO" "$LEASECTL" --db "$DSN?statement_timeout=3s" task add syncwait --queue "$Q" \
        </dev/null >"$T/out" 2>"$T/err" || RC=$?
    LAST_CMD="leasectl --db DSN?statement_timeout=3s task add"
    check_leak
    [[ "$RC" != 124 && "$RC" != 137 ]] || why+=("task add was still waiting after $TMO s")
    want_rc_in 1 69
    want_err_line
    want_err 'timed out|outcome unknown'
    echo "# status $RC: $(head -c 300 "$T/err")"
    end "task add whose COMMIT waits for a gone standby ends at its deadline: outcome unknown"

    worker_blocked_then_term "a worker whose COMMIT waits for a gone standby ends after SIGTERM"

    pg_admin -c "ALTER SYSTEM RESET synchronous_standby_names" -c "SELECT pg_reload_conf()" \
        -c "ALTER ROLE leaseq RESET synchronous_commit" >/dev/null
    sleep 1

    # 2. Another session holds the table.
    hold "BEGIN; LOCK TABLE lq_task IN ACCESS EXCLUSIVE MODE;"
    begin
    RC=0
    timeout -k 5 "$TMO" "$LEASECTL" --db "$DSN?statement_timeout=3s" task add locked --queue "$Q" \
        </dev/null >"$T/out" 2>"$T/err" || RC=$?
    LAST_CMD="leasectl --db DSN?statement_timeout=3s task add"
    [[ "$RC" != 124 && "$RC" != 137 ]] || why+=("task add was still waiting after $TMO s")
    want_rc_in 1 69
    want_err_line
    want_err 'timed out|cancel'
    echo "# status $RC: $(head -c 300 "$T/err")"
    end "task add behind ACCESS EXCLUSIVE ends at its deadline with a one-line error"
    worker_blocked_then_term "a worker waiting for a table lock ends after SIGTERM"
    stop_blocker
    ;;
mysql)
    mysql_args || {
        echo "not ok - cannot read $DSN as mysql://user:pass@host:port/db"
        exit 1
    }
    hold "LOCK TABLES lq_task WRITE;"
    begin
    RC=0
    timeout -k 5 "$TMO" "$LEASECTL" --db "$DSN?statement_timeout=3s" task add locked --queue "$Q" \
        </dev/null >"$T/out" 2>"$T/err" || RC=$?
    LAST_CMD="leasectl --db DSN?statement_timeout=3s task add"
    check_leak
    [[ "$RC" != 124 && "$RC" != 137 ]] || why+=("task add was still waiting after $TMO s")
    want_rc_in 1 69
    want_err_line
    want_err 'timed out|timeout|interrupted|outcome unknown'
    echo "# status $RC: $(head -c 300 "$T/err")"
    end "task add behind LOCK TABLES ends at its deadline with a one-line error"
    worker_blocked_then_term "a worker waiting for a table lock ends after SIGTERM"
    stop_blocker
    ;;
esac

# ------------------------------------------------------------------ afterwards
# With the blocker gone, the queue works: nothing was left half done.
begin
run worker --drain --queue "$Q" --handler "*=true"
want_rc 0
run --json task list --queue "$Q"
want_rc 0
end "with the blocker gone, a draining worker runs the queue"

# (A worker stopped while its claim's COMMIT waited may have claimed a
# task at most once: it is gone from the queue, its run shown "running"
# until the run's mark lapses.  That was claimed, not left behind.)
run task list --queue "$Q"
begin
want_rc 0
[[ $(grep "job" "$T/out" | grep -c -v -w running || true) == 0 ]] || why+=("tasks left in $Q: $(excerpt "$T/out")")
end "no enqueued task is left behind"

finish
